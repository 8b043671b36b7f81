import FuzzSupport
import Glue

/// A program of edits to an `ArrayVariable<Int>` decoded from bytes: inserts, removals,
/// replacements, slice replacements, moves, transactions of several edits, and edits made by
/// an observer during a delivery. The array is seen through `filter` → `sorted` → `map` and
/// `sum()`, and each view's updates are replayed onto a plain array. After every step
/// outside a transaction, each view must equal the plain array recomputed from the base's
/// value by the standard library, and each replica its view; every view's transactions must
/// be whole. Once the program drops everything, the views must be freed. Any difference
/// stops the process.
enum GlueProgram {
    static let maxCount = 40

    /// A plain array rebuilt from an observable array's updates, with its transactions
    /// checked whole.
    final class Replica {
        var value: [Int]
        var isOpen = false
        let name: String

        init(_ value: [Int], name: String) {
            self.value = value
            self.name = name
        }

        func apply(_ update: Update<ArrayChange<Int>>) {
            switch update {
            case .beginTransaction:
                precondition(!isOpen, "GlueFuzz: \(name) began a transaction inside another")
                isOpen = true
            case .change(let change):
                precondition(isOpen, "GlueFuzz: \(name) sent a change outside a transaction")
                precondition(
                    change.initialCount == value.count,
                    "GlueFuzz: \(name) sent a change for \(change.initialCount) elements to a replica of \(value.count)"
                )
                change.apply(on: &value)
            case .endTransaction:
                precondition(isOpen, "GlueFuzz: \(name) ended a transaction it did not begin")
                isOpen = false
            }
        }
    }

    static func isIncluded(_ value: Int) -> Bool { value % 3 != 0 }
    static func transform(_ value: Int) -> Int { value * 10 + 1 }

    /// Runs the program `bytes` decodes.
    static func run(_ bytes: [UInt8]) {
        var reader = ProgramReader(bytes)
        weak var weakFiltered: FilteredObservableArray<ArrayVariable<Int>>?
        weak var weakSorted: SortedObservableArray<Int>?
        do {
            let array = ArrayVariable<Int>()
            let filtered = array.filter(isIncluded)
            let sorted = filtered.sorted(by: <)
            let mapped = sorted.map(transform)
            let sum = array.sum()
            weakFiltered = filtered
            weakSorted = sorted
            let replicas = [
                Replica([], name: "the filter"), Replica([], name: "the sorted view"), Replica([], name: "the map"),
            ]
            // An observer that edits the array during a delivery when the program says so.
            var reentrantEdits: [UInt8] = []
            var connections = [
                filtered.updates.subscribe { replicas[0].apply($0) },
                sorted.updates.subscribe { replicas[1].apply($0) },
                mapped.updates.subscribe { replicas[2].apply($0) },
                array.updates.subscribe { update in
                    guard case .change = update, let edit = reentrantEdits.popLast() else { return }
                    array.append(Int(edit % 20))
                },
            ]

            func check() {
                let base = array.value
                let expectedFiltered = base.filter(isIncluded)
                let expectedSorted = expectedFiltered.sorted()
                precondition(
                    filtered.value == expectedFiltered, "GlueFuzz: the filter shows \(filtered.value) of \(base)")
                precondition(
                    sorted.value == expectedSorted, "GlueFuzz: the sorted view shows \(sorted.value) of \(base)")
                precondition(
                    mapped.value == expectedSorted.map(transform), "GlueFuzz: the map shows \(mapped.value) of \(base)")
                precondition(sum.value == base.reduce(0, +), "GlueFuzz: the sum is \(sum.value) of \(base)")
                precondition(
                    replicas[0].value == filtered.value, "GlueFuzz: the filter's updates rebuild \(replicas[0].value)")
                precondition(
                    replicas[1].value == sorted.value,
                    "GlueFuzz: the sorted view's updates rebuild \(replicas[1].value)")
                precondition(
                    replicas[2].value == mapped.value, "GlueFuzz: the map's updates rebuild \(replicas[2].value)")
            }

            func edit(_ opcode: UInt8) {
                let count = array.value.count
                switch opcode % 6 {
                case 0 where count < maxCount:
                    array.insert(reader.small(20), at: reader.index(below: count + 1) ?? 0)
                case 1:
                    guard let index = reader.index(below: count) else { return }
                    array.remove(at: index)
                case 2:
                    guard let index = reader.index(below: count) else { return }
                    array[index] = reader.small(20)
                case 3:
                    let start = reader.index(below: count + 1) ?? 0
                    let end = start + (reader.index(below: count - start + 1) ?? 0)
                    let replacement = (0..<reader.small(4)).map { _ in reader.small(20) }
                    if count - (end - start) + replacement.count <= maxCount {
                        array.replaceSubrange(start..<end, with: replacement)
                    }
                case 4:
                    guard let from = reader.index(below: count), let to = reader.index(below: count) else { return }
                    array.withTransaction {
                        let element = array.remove(at: from)
                        array.insert(element, at: to)
                    }
                default:
                    if count < maxCount, let byte = reader.next() { reentrantEdits.append(byte) }
                }
            }

            while let opcode = reader.next() {
                if opcode % 8 == 7 {
                    let edits = reader.small(4) + 1
                    array.withTransaction {
                        for _ in 0..<edits { edit(reader.next() ?? 0) }
                    }
                } else {
                    edit(opcode)
                }
                check()
            }
            for connection in connections { connection.disconnect() }
            connections.removeAll()
        }
        precondition(weakFiltered == nil && weakSorted == nil, "GlueFuzz: a view outlived its base and observers")
    }
}
