import Foundation
import Resin
import TestSupport
import Testing

private struct Row: Identifiable, Equatable {
    let id: Int
    var value = 0
}

/// How many times a `CountedRow`'s identity was read.
@MainActor private enum IdentityReads {
    static var count = 0
}

/// A row whose identity counts its reads.
private struct CountedRow: Identifiable, Equatable {
    let key: Int
    var value = 0
    var id: Int {
        MainActor.assumeIsolated { IdentityReads.count += 1 }
        return key
    }
}

private struct CountedRows: Equatable { var rows: [CountedRow] }

private struct Rows: Equatable {
    var rows: [Row] = []
    var byKey: [Int: Int] = [:]
}

/// Every way the rows change: in place through an element's own reducer, removed and added by
/// the element focus, and rewritten by a reducer on the whole state.
private struct BumpRow: RoutedAction { var id: Int; var route: Int { id } }
private struct RemoveRow: RoutedAction { var id: Int; var route: Int { id } }
private struct AddRow: RoutedAction { var id: Int; var route: Int { id } }
private struct ReplaceAll: Action { var ids: [Int] }
private struct SwapOneForAnother: Action { var remove: Int; var add: Int }
private struct BumpKey: RoutedAction { var key: Int; var route: Int { key } }
private struct SetKey: Action { var key: Int; var value: Int? }

@Suite("Resin: forEach follows identities without reading an unchanged collection")
@MainActor
struct ForEachIdentityTests {
    @Test("an element changed in place reads a few identities, not the collection's, whatever its size")
    func inPlaceCostIsConstant() {
        for size in [10, 10_000] {
            let store = Store(initialState: CountedRows(rows: (0..<size).map { CountedRow(key: $0) }))
            let rows = store.forEach(\.rows) { id, row in
                row.register(Reducer<CountedRow?, BumpRow>(route: id) { row, _ in row?.value += 1 })
            }
            IdentityReads.count = 0
            store.dispatch(BumpRow(id: size / 2))
            #expect(store.state.value.rows[size / 2].value == 1)
            // The element focus looks where its element was: one or two ids.
            #expect(IdentityReads.count <= 3)
            rows.disconnect()
        }
    }

    @Test(
        "model: the connections forEach keeps match a plain list of ids, for every kind of change",
        arguments: 0..<8)
    func model(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let store = Store(initialState: Rows(rows: (0..<6).map { Row(id: $0) }))
        var live: Set<Int> = []
        var starts = 0
        let root = Connection(grouping: [
            store.register(
                Reducer<Rows, ReplaceAll> { state, replace in
                    state.rows = replace.ids.map { id in state.rows.first { $0.id == id } ?? Row(id: id) }
                }),
            store.register(
                Reducer<Rows, SwapOneForAnother> { state, swap in
                    state.rows.removeAll { $0.id == swap.remove }
                    if !state.rows.contains(where: { $0.id == swap.add }) { state.rows.append(Row(id: swap.add)) }
                }),
        ])
        // Element reducers for every id the test uses, present or not: an absent element's
        // focus appends it.
        let elements = Connection(
            grouping: (0..<12).map { id in
                let row = store.focus(\.rows, id: id)
                return Connection(grouping: [
                    row.register(Reducer<Row?, BumpRow>(route: id) { row, _ in row?.value += 1 }),
                    row.register(Reducer<Row?, RemoveRow>(route: id) { row, _ in row = nil }),
                    row.register(Reducer<Row?, AddRow>(route: id) { row, _ in if row == nil { row = Row(id: id) } }),
                ])
            })
        let following = store.forEach(\.rows) { id, _ in
            live.insert(id)
            starts += 1
            return Connection(isolated: { live.remove(id) })
        }
        var expected = Array(0..<6)
        for _ in 0..<300 {
            let id = Int.random(in: 0..<12, using: &generator)
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<4:
                store.dispatch(BumpRow(id: id))
            case 4, 5:
                store.dispatch(RemoveRow(id: id))
                expected.removeAll { $0 == id }
            case 6, 7:
                store.dispatch(AddRow(id: id))
                if !expected.contains(id) { expected.append(id) }
            case 8:
                let ids = Array((0..<12).shuffled(using: &generator).prefix(Int.random(in: 0...8, using: &generator)))
                store.dispatch(ReplaceAll(ids: ids))
                expected = ids
            default:
                let other = Int.random(in: 0..<12, using: &generator)
                store.dispatch(SwapOneForAnother(remove: id, add: other))
                expected.removeAll { $0 == id }
                if !expected.contains(other) { expected.append(other) }
            }
            #expect(store.state.value.rows.map(\.id) == expected)
            #expect(live == Set(expected))
        }
        following.disconnect()
        #expect(live.isEmpty)
        _ = (root, elements, starts)
    }

    @Test("reentrant: a removal and an addition by two element foci in one action are both followed")
    func removalAndAdditionInOneAction() {
        let store = Store(initialState: Rows(rows: [Row(id: 1), Row(id: 2)]))
        struct Rotate: Action {}
        // Both element foci handle the same action: 1 removes itself, 3 adds itself. The
        // count stays the same; the identities do not.
        let first = store.focus(\.rows, id: 1).register(Reducer<Row?, Rotate> { row, _ in row = nil })
        let third = store.focus(\.rows, id: 3).register(Reducer<Row?, Rotate> { row, _ in row = Row(id: 3) })
        var live: Set<Int> = []
        let following = store.forEach(\.rows) { id, _ in
            live.insert(id)
            return Connection(isolated: { live.remove(id) })
        }
        store.dispatch(Rotate())
        #expect(store.state.value.rows.map(\.id) == [2, 3])
        #expect(live == [2, 3])
        _ = (first, third, following)
    }

    @Test("a dictionary's keys are followed the same way: in place, removed, added, rewritten")
    func dictionaryKeys() {
        let store = Store(initialState: Rows(byKey: [1: 0, 2: 0]))
        var live: Set<Int> = []
        let following = store.forEach(\.byKey) { key, value in
            live.insert(key)
            let bump = value.register(Reducer<Int?, BumpKey>(route: key) { value, _ in value? += 1 })
            return Connection(isolated: {
                live.remove(key)
                bump.disconnect()
            })
        }
        let set = store.register(Reducer<Rows, SetKey> { state, set in state.byKey[set.key] = set.value })
        let removeTwo = store.focus(\.byKey, key: 2).register(Reducer<Int?, RemoveRow> { value, _ in value = nil })
        store.dispatch(BumpKey(key: 1))
        #expect(store.state.value.byKey[1] == 1)
        #expect(live == [1, 2])
        store.dispatch(RemoveRow(id: 2))
        #expect(live == [1])
        store.dispatch(SetKey(key: 5, value: 0))
        #expect(live == [1, 5])
        _ = (following, set, removeTwo)
    }
}
