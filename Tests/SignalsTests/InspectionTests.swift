import ReactiveCore
import Signals
import Testing

@Suite("Signals: inspection")
struct SignalsInspectionTests {
    @Test("a property's inspection shows the chains connected to it and their last messages")
    func chains() {
        let property = Property(value: 1)
        let chains = ObservableCollection()
        property.didSet.noDispatch().map { $0 * 10 }.then { _ in }.append(to: chains)
        property.didSet.noDispatch().filter { $0 > 1 }.then { _ in }.append(to: chains)
        property.value = 2
        let inspection = property.inspect()
        #expect(inspection.paradigm == "Signals")
        #expect(inspection.nodes.first?.kind == "observable" && inspection.nodes.first?.value == "2")
        #expect(inspection.nodes.first?.details["connected"] == "2")
        #expect(inspection.statistics["modifiers"] == 4)
        #expect(inspection.statistics["connections"] == 4)
        #expect(inspection.nodes.contains { $0.value == "20" }, "the map's last message")
        chains.removeAll()
        #expect(property.inspect().statistics["modifiers"] == 0)
    }
}
