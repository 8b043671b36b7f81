import Signals
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One signal, a shared inline `map` and `filter` after it, and chains on each of the three
/// that, while they receive, fire the signal again, connect new chains and remove others.
/// Probes connected first record what each observable delivered. Checked: the signal
/// delivers in the order fired (first in, first out); the map and the filter deliver exactly
/// the signal's messages mapped and filtered; and every chain receives a contiguous run of
/// its observable's deliveries (a replay of the one before, then each later one in order),
/// up to the newest while it is connected, on the thread that fired (a chain connected while
/// its own work keeps firing receives what waited there, not on another thread).
@Suite("Signals: model with reentrant chains")
struct ReentrantModelTests {
    final class Box<Value>: @unchecked Sendable {
        // Single-threaded: every chain is inline and the test fires from one thread.
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    final class Chain: @unchecked Sendable {
        // As `Box`: touched only on the test's thread.
        let observable: Int
        let fires: Int?
        var received: [Int] = []
        let collection = ObservableCollection()
        var removed = false

        init(observable: Int, fires: Int?) {
            self.observable = observable
            self.fires = fires
        }
    }

    final class World: @unchecked Sendable {
        // As `Box`.
        let signal = Signal<Int>(value: 0)
        let mapped: MapModifier<Int, Int>
        let evens: FilterModifier<Int>
        let keep = ObservableCollection()
        var fired: [Int] = []
        var chains: [Chain] = []
        var budget = 0
        var random: SeededGenerator

        init(seed: UInt64) {
            random = SeededGenerator(seed: seed)
            let source = signal.fired.noDispatch()
            mapped = source.map { $0 * 3 + 1 }
            evens = mapped.filter { $0 % 2 == 0 }
            // Probes, first on each observable: what each delivered.
            let delivered = Box([[Int]](repeating: [], count: 3))
            self.deliveredBox = delivered
            source.then { delivered.value[0].append($0) }.append(to: keep)
            mapped.then { delivered.value[1].append($0) }.append(to: keep)
            evens.then { delivered.value[2].append($0) }.append(to: keep)
        }

        let deliveredBox: Box<[[Int]]>
        /// The test's thread: every chain is inline, so every closure runs on it.
        let owner = pthread_self()
        var offThread = 0

        func fire(_ value: Int) {
            fired.append(value)
            signal.fire(with: value)
        }

        func connect() {
            let observable = Int.random(in: 0..<3, using: &random)
            let fires: Int? = Int.random(in: 0..<3, using: &random) == 0 ? Int.random(in: 0..<50, using: &random) : nil
            let chain = Chain(observable: observable, fires: fires)
            chains.append(chain)
            let react: @Sendable (Int) -> Void = { [unowned self, unowned chain] value in received(value, by: chain) }
            switch observable {
            case 0: signal.fired.noDispatch().then(do: react).append(to: chain.collection)
            case 1: mapped.then(do: react).append(to: chain.collection)
            default: evens.then(do: react).append(to: chain.collection)
            }
        }

        private func received(_ value: Int, by chain: Chain) {
            if pthread_equal(owner, pthread_self()) == 0 { offThread += 1 }
            chain.received.append(value)
            guard budget > 0 else { return }
            budget -= 1
            switch Int.random(in: 0..<4, using: &random) {
            case 0: if let fires = chain.fires { fire((fires + value) % 50) }
            case 1: if chains.count < 16 { connect() }
            case 2: removeRandom()
            default: break
            }
        }

        func removeRandom() {
            let live = chains.filter { !$0.removed }
            guard let chain = live.randomElement(using: &random) else { return }
            chain.removed = true
            chain.collection.removeAll()
        }
    }

    /// Whether `run` is a contiguous slice of `stream`, and ends it if `toEnd`.
    static func isRun(_ run: [Int], of stream: [Int], toEnd: Bool) -> Bool {
        if run.isEmpty { return true }
        if toEnd { return stream.count >= run.count && Array(stream.suffix(run.count)) == run }
        guard stream.count >= run.count else { return false }
        for start in 0...(stream.count - run.count) where Array(stream[start..<start + run.count]) == run {
            return true
        }
        return false
    }

    @Test(
        "chains that fire, connect and remove while they receive: FIFO, modifiers exact, each chain a contiguous run",
        arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func reentrantChains(seed: UInt64) {
        let world = World(seed: seed)
        for _ in 0..<4 { world.connect() }
        for step in 0..<300 {
            world.budget = 4
            switch Int.random(in: 0..<6, using: &world.random) {
            case 0..<4: world.fire(Int.random(in: 0..<50, using: &world.random))
            case 4: world.connect()
            default: world.removeRandom()
            }
            let delivered = world.deliveredBox.value
            // The probes connected at the start: their first message is the replay of 0.
            #expect(Array(delivered[0].dropFirst()) == world.fired, "seed \(seed), step \(step): signal order")
            #expect(delivered[1] == delivered[0].map { $0 * 3 + 1 }, "seed \(seed), step \(step): map")
            #expect(delivered[2] == delivered[1].filter { $0 % 2 == 0 }, "seed \(seed), step \(step): filter")
            for chain in world.chains {
                let ok = Self.isRun(chain.received, of: delivered[chain.observable], toEnd: !chain.removed)
                if !ok {
                    Issue.record(
                        "seed \(seed), step \(step): a chain on observable \(chain.observable) received \(chain.received.suffix(8)), which is not a run of \(delivered[chain.observable].suffix(12))"
                    )
                    return
                }
            }
            #expect(world.offThread == 0, "seed \(seed), step \(step): a closure ran on another thread")
            if Array(delivered[0].dropFirst()) != world.fired || world.offThread > 0 { return }
        }
        for chain in world.chains { chain.collection.removeAll() }
        world.keep.removeAll()
    }
}
