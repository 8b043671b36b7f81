import SignalGraph
import Testing

@Suite("SignalGraph: inspection")
struct SignalGraphInspectionTests {
    @Test("a storage's inspection shows what is registered on what, up and down, joins with their inputs")
    func registrations() {
        let rows = EditableDictionaryStorage<Int, Int>([1: 10])
        let total = DictionaryReducingValueStorage<Int, Int, Int>.sum()
        let count = DictionaryReducingValueStorage<Int, Int, Int>.count()
        let mean = ValueJoinStorage(0, 0) { total, count in count == 0 ? 0 : total / count }
        rows.register(total)
        rows.register(count)
        total.register(mean.first)
        count.register(mean.second)
        let watching = mean.subscribe { _ in }
        rows[2] = 20
        // From the join, the inspector walks up to the rows and down again.
        let inspection = mean.inspect()
        #expect(inspection.paradigm == "SignalGraph")
        #expect(inspection.nodes.count == 5, "rows, two folds, the join, the subscription's sensor")
        let join = inspection.nodes(ofKind: "ValueJoinStorage").first
        #expect(join?.value == "15")
        let inputs = inspection.edges.filter { $0.to == join?.id }.compactMap(\.label).sorted()
        #expect(inputs == ["first", "second"])
        #expect(inspection.nodes(ofKind: "EditableDictionaryStorage").first?.details["sensors"] == "2")
        #expect(inspection.statistics["sensors"] == 5)
        #expect(inspection.statistics["deliveries", default: 0] >= 3)
        watching.disconnect()
        count.deregister(mean.second)
        total.deregister(mean.first)
        rows.deregister(count)
        rows.deregister(total)
        #expect(rows.inspect().nodes.count == 1, "after teardown, the rows alone")
    }
}
