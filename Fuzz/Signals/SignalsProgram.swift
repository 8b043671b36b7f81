import FuzzSupport
import Signals

/// A program decoded from bytes, run on one thread: a signal, a `map` and a `filter` after it,
/// chains connected on any of the three, fires from the program and from chains while they
/// receive (queued behind the delivery under way), removals from the program and by a chain
/// of itself while it receives. Checked after every step against a reference written from
/// the rules: the signal delivers every fire in the order made; a chain receives its
/// observable's last message (the replay), then exactly the messages of its observable fired
/// after it connected, mapped and filtered, until it is removed, and nothing after; a chain
/// that removes itself receives nothing more. Once the
/// program drops everything, the signal must be freed. Any difference stops the process.
enum SignalsProgram {
    /// Touched only on the program's thread: every chain is inline (`noDispatch`).
    final class Chain: @unchecked Sendable {
        let observable: Int
        /// How many of the signal's fires came before it connected.
        let firstFire: Int
        /// After how many messages it removes itself, if it does.
        let stopAfter: Int?
        /// Whether it fires, from its handler, for each message it receives (while the
        /// program's budget lasts).
        let refires: Bool
        var received: [Int] = []
        var removedAtFire: Int?
        /// Whether `then` is connecting it (its replay arrives then).
        var isConnecting = false
        let collection = ObservableCollection()

        init(observable: Int, firstFire: Int, stopAfter: Int?, refires: Bool) {
            self.observable = observable
            self.firstFire = firstFire
            self.stopAfter = stopAfter
            self.refires = refires
        }
    }

    /// As `Chain`: the program's state, read and written on its thread only.
    final class World: @unchecked Sendable {
        let signal = Signal<Int>()
        let mapped: MapModifier<Int, Int>
        let evens: FilterModifier<Int>
        var fired: [Int] = []
        var chains: [Chain] = []
        var budget = 0
        /// Chains that keep the map and the filter fed for the whole program: removing a
        /// chain disconnects every modifier of it that feeds nothing else, and a shared
        /// modifier so disconnected would pass nothing more to chains connected later.
        let keep = ObservableCollection()

        init() {
            let source = signal.fired.noDispatch()
            mapped = source.map { $0 &* 3 &+ 1 }
            evens = mapped.filter { $0 % 2 == 0 }
            evens.then { _ in }.append(to: keep)
        }

        func fire(_ value: Int) {
            fired.append(value)
            signal.fire(with: value)
        }

        /// The messages observable `observable` delivers for `fires`.
        static func messages(_ fires: ArraySlice<Int>, on observable: Int) -> [Int] {
            let mapped = fires.map { $0 &* 3 &+ 1 }
            switch observable {
            case 0: return Array(fires)
            case 1: return mapped
            default: return mapped.filter { $0 % 2 == 0 }
            }
        }

        func connect(observable: Int, stopAfter: Int?, refires: Bool) {
            let chain = Chain(observable: observable, firstFire: fired.count, stopAfter: stopAfter, refires: refires)
            chains.append(chain)
            let react: @Sendable (Int) -> Void = { [unowned self, unowned chain] value in received(value, by: chain) }
            // The replay arrives while `then` connects, before the chain is in its collection:
            // it neither fires nor removes the chain then (removing would find nothing); a chain
            // whose last message was the replay is removed once it is in its collection.
            chain.isConnecting = true
            switch observable {
            case 0: signal.fired.noDispatch().then(do: react).append(to: chain.collection)
            case 1: mapped.then(do: react).append(to: chain.collection)
            default: evens.then(do: react).append(to: chain.collection)
            }
            chain.isConnecting = false
            if chain.received.count == chain.stopAfter { remove(chain) }
        }

        private func received(_ value: Int, by chain: Chain) {
            precondition(chain.removedAtFire == nil, "SignalsFuzz: a removed chain received \(value)")
            chain.received.append(value)
            guard !chain.isConnecting else { return }
            if chain.received.count == chain.stopAfter {
                remove(chain)
            }
            if chain.refires && budget > 0 {
                budget -= 1
                fire(value % 50)
            }
        }

        func remove(_ chain: Chain) {
            guard chain.removedAtFire == nil else { return }
            chain.removedAtFire = fired.count
            chain.collection.removeAll()
        }

        func check() {
            for (index, chain) in chains.enumerated() {
                // A chain removed by the program is owed what was fired before; one that
                // removed itself, what came before its last message (`stopAfter` cuts it).
                // First the replay: the last message its observable sent before it connected.
                let replay = Self.messages(fired[..<chain.firstFire], on: chain.observable).last
                let fires = fired[chain.firstFire..<(chain.removedAtFire ?? fired.count)]
                var owed = (replay.map { [$0] } ?? []) + Self.messages(fires, on: chain.observable)
                if let stopAfter = chain.stopAfter { owed = Array(owed.prefix(stopAfter)) }
                precondition(
                    chain.received == owed,
                    "SignalsFuzz: chain \(index) on observable \(chain.observable) received \(chain.received), is owed \(owed)"
                )
            }
        }
    }

    /// Runs the program `bytes` decodes.
    static func run(_ bytes: [UInt8]) {
        var reader = ProgramReader(bytes)
        weak var weakSignal: Signal<Int>?
        do {
            let world = World()
            weakSignal = world.signal
            while let opcode = reader.next() {
                switch opcode % 5 {
                case 0, 1:
                    world.budget = reader.small(4)
                    world.fire(reader.small(50))
                case 2 where world.chains.count < 24:
                    let stop = reader.small(8)
                    world.connect(
                        observable: reader.small(3), stopAfter: stop < 4 ? stop + 1 : nil, refires: stop % 2 == 0)
                case 3:
                    if let index = reader.index(below: world.chains.count) { world.remove(world.chains[index]) }
                default:
                    // A burst of fires in one step.
                    world.budget = 0
                    for _ in 0..<(reader.small(4) + 1) { world.fire(reader.small(50)) }
                }
                world.check()
            }
            for chain in world.chains { world.remove(chain) }
            world.keep.removeAll()
        }
        precondition(weakSignal == nil, "SignalsFuzz: the signal outlived its chains")
    }
}
