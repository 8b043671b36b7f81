import FuzzSupport
import SignalGraph

/// A program of mutations decoded from bytes: writes and deletions of keys, resets of the
/// whole dictionary, writes made by a sensor during a delivery, and sensors registered and
/// deregistered between steps and during deliveries. The storage is seen through the seed's
/// pipeline: a filter, a sort by value then key, and a map. After every step, each view must
/// equal the plain dictionary pushed through the standard library's `filter`, `sorted` and
/// `map`; each sensor's rebuilt state must equal its emitter's; every sensor must see one
/// initiation, transitions, then one termination carrying the state it rebuilt. Once the
/// program tears everything down, the pipeline must be freed. Any difference stops the
/// process.
enum SignalGraphProgram {
    typealias Entry = (key: Int, value: Int)

    /// Rebuilds a state from the signals it receives and checks each one fits.
    final class Rebuilder<Snapshot: Equatable, Transition>: Monitor {
        typealias IncomingSignal = StateSignal<Snapshot, Transition>

        let registration = SensorRegistration()
        private let apply: (Transition, inout Snapshot) -> Void
        private(set) var rebuilt: Snapshot?
        let name: String
        var hook: () -> Void = {}

        init(_ name: String, apply: @escaping (Transition, inout Snapshot) -> Void) {
            self.name = name
            self.apply = apply
        }

        func sense(_ signal: StateSignal<Snapshot, Transition>) {
            switch signal {
            case .initiation(let snapshot):
                precondition(rebuilt == nil, "SignalGraphFuzz: \(name) initiated twice")
                rebuilt = snapshot
            case .transition(let transition):
                precondition(rebuilt != nil, "SignalGraphFuzz: \(name) received a transition before its initiation")
                apply(transition, &rebuilt!)
            case .termination(let snapshot):
                precondition(
                    rebuilt == snapshot, "SignalGraphFuzz: \(name) terminated with a state its signals did not rebuild")
                rebuilt = nil
            }
            hook()
        }
    }

    static func isIncluded(_ key: Int, _ value: Int) -> Bool { value % 3 != 0 }
    static func areInIncreasingOrder(_ a: Entry, _ b: Entry) -> Bool { (a.value, a.key) < (b.value, b.key) }
    static func transform(_ entry: Entry) -> Int { entry.key * 100 + entry.value }

    /// Runs the program `bytes` decodes.
    static func run(_ bytes: [UInt8]) {
        var reader = ProgramReader(bytes)
        weak var weakRows: EditableDictionaryStorage<Int, Int>?
        weak var weakSorted: DictionarySortingArrayStorage<Int, Int>?
        do {
            let rows = EditableDictionaryStorage<Int, Int>()
            let filtered = DictionaryFilteringDictionaryStorage<Int, Int>(isIncluded)
            let sorted = DictionarySortingArrayStorage<Int, Int>(by: areInIncreasingOrder)
            let mapped = ArraySignalMapStorage<Entry, Int>(transform)
            weakRows = rows
            weakSorted = sorted
            rows.register(filtered)
            filtered.register(sorted)
            sorted.register(mapped)
            // Sensors on the first two stages and the last, registered and deregistered as the
            // program says; the writer edits the rows from inside deliveries.
            let onRows = Rebuilder<[Int: Int], DictionaryTransition<Int, Int>>("a sensor on the rows") {
                $0.apply(to: &$1)
            }
            let onFilter = Rebuilder<[Int: Int], DictionaryTransition<Int, Int>>("a sensor on the filter") {
                $0.apply(to: &$1)
            }
            let onMap = Rebuilder<[Int], ArrayTransition<Int>>("a sensor on the map") { $0.apply(to: &$1) }
            var registered = [false, false, false]
            func toggle(_ which: Int) {
                switch (which, registered[which]) {
                case (0, false): rows.register(onRows)
                case (0, true): rows.deregister(onRows)
                case (1, false): filtered.register(onFilter)
                case (1, true): filtered.deregister(onFilter)
                case (_, false): mapped.register(onMap)
                default: mapped.deregister(onMap)
                }
                registered[which].toggle()
            }
            var reentrant: [(key: Int, value: Int?, toggles: Int?)] = []
            let writer = Rebuilder<[Int: Int], DictionaryTransition<Int, Int>>("the writer") { $0.apply(to: &$1) }
            writer.hook = {
                guard let edit = reentrant.popLast() else { return }
                rows[edit.key] = edit.value
                if let which = edit.toggles { toggle(which) }
            }
            rows.register(writer)

            func check() {
                let expected = rows.state.filter { isIncluded($0.key, $0.value) }
                let order = expected.map { (key: $0.key, value: $0.value) }.sorted(by: areInIncreasingOrder)
                precondition(filtered.state == expected, "SignalGraphFuzz: the filter holds \(filtered.state)")
                precondition(
                    sorted.state.map(\.key) == order.map(\.key) && sorted.state.map(\.value) == order.map(\.value),
                    "SignalGraphFuzz: the sorted view holds \(sorted.state), not \(order)")
                precondition(mapped.state == order.map(transform), "SignalGraphFuzz: the map holds \(mapped.state)")
                precondition(writer.rebuilt == rows.state, "SignalGraphFuzz: the writer rebuilt another state")
                if registered[0] { precondition(onRows.rebuilt == rows.state, "SignalGraphFuzz: \(onRows.name) lags") }
                if registered[1] {
                    precondition(onFilter.rebuilt == filtered.state, "SignalGraphFuzz: \(onFilter.name) lags")
                }
                if registered[2] { precondition(onMap.rebuilt == mapped.state, "SignalGraphFuzz: \(onMap.name) lags") }
            }

            while let opcode = reader.next() {
                switch opcode % 6 {
                case 0, 1:
                    rows[reader.small(12)] = reader.small(10)
                case 2:
                    rows.removeValue(forKey: reader.small(12))
                case 3:
                    var entries: [Int: Int] = [:]
                    for _ in 0..<reader.small(5) { entries[reader.small(12)] = reader.small(10) }
                    rows.state = entries
                case 4:
                    toggle(reader.small(3))
                default:
                    let toggles = reader.small(6)
                    let value = reader.small(11)
                    reentrant.append((reader.small(12), value == 10 ? nil : value, toggles < 3 ? toggles : nil))
                    rows[reader.small(12)] = reader.small(10)
                }
                check()
            }
            writer.hook = {}
            for which in 0..<3 where registered[which] { toggle(which) }
            rows.deregister(writer)
            sorted.deregister(mapped)
            filtered.deregister(sorted)
            rows.deregister(filtered)
        }
        precondition(weakRows == nil && weakSorted == nil, "SignalGraphFuzz: the pipeline outlived its teardown")
    }
}
