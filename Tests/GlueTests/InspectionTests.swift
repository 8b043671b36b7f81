import Glue
import Testing

@Suite("Glue: inspection")
struct GlueInspectionTests {
    @Test("an observable's inspection is its operator tree: each operator once, its values, the signal's subscribers")
    func tree() {
        let a = Variable(1)
        let d = (a.map { $0 + 1 }).combined(a.map { $0 * 2 }, +).anyObservableValue
        let watching = d.subscribe { _ in }
        a.value = 2
        let inspection = d.inspect()
        #expect(inspection.paradigm == "Glue")
        #expect(inspection.nodes(ofKind: "Variable").count == 1, "a variable read twice is one node")
        #expect(inspection.nodes(ofKind: "Variable").first?.value == "2")
        #expect(inspection.nodes(ofKind: "MappedObservable").count == 3, "the two maps, and the one `combined` ends in")
        #expect(inspection.nodes(ofKind: "CombinedObservable2").count == 1)
        #expect(
            inspection.nodes(ofKind: "AnyObservableValue").isEmpty, "a type-erased wrapper stands for what it wraps")
        let variable = inspection.nodes(ofKind: "Variable")[0].id
        #expect(
            inspection.edges.filter { $0.from == variable }.count == 3, "two maps read it, and it sends on its signal")
        #expect(inspection.statistics["subscriptionsAlive"] == a.updatesSubscriberCount)
        #expect(inspection.statistics["deliveries", default: 0] >= 3)
        watching.disconnect()
    }

    @Test("a variable's own inspection, and a source's")
    func variableAndSource() {
        let numbers = ArrayVariable([1, 2])
        let inspection = numbers.inspect()
        #expect(inspection.nodes.first?.kind == "ArrayVariable")
        #expect(inspection.nodes.first?.value == "[1, 2]")
        let signal = Glue.Signal<Int>()
        let connection = signal.subscribe { _ in }
        signal.send(1)
        let signalInspection = signal.inspect()
        #expect(signalInspection.nodes.first?.details["subscribers"] == "1")
        #expect(signalInspection.statistics["deliveries"] == 1)
        connection.disconnect()
    }
}

extension Variable {
    /// How many subscribers the variable's updates have.
    fileprivate var updatesSubscriberCount: Int {
        inspect().nodes(ofKind: "Signal").first.flatMap { Int($0.details["subscribers"] ?? "") } ?? -1
    }
}
