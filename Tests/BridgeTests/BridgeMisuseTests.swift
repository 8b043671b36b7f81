import Glue
import Incremental
import ReactiveCore
import SignalGraph
import TestSupport
import Testing

@Suite("Bridge misuse")
struct BridgeMisuseTests {
    @Test("an array delta that does not fit a SignalGraph storage stops with a message naming the edit")
    func signalGraphArrayOutOfRange() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let source = ScriptedArraySource(["a"])
            let storage = EditableArrayStorage<String>()
            let bridge = source.drive(storage)
            storage.state = []
            source.send([.update("b", at: 0)])
            bridge.disconnect()
        }
        expectStandardError(of: result, contains: "SignalGraph: an array delta's update at 0 of 0 elements")
    }

    @Test("an array delta that does not fit a Glue array variable stops with a message naming the edit")
    func glueArrayOutOfRange() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let source = ScriptedArraySource(["a"])
            let variable = ArrayVariable<String>()
            let bridge = source.drive(variable)
            variable.removeAll()
            source.send([.remove(at: 0)])
            bridge.disconnect()
        }
        expectStandardError(of: result, contains: "ArrayVariable: a delta's remove at 0 of 0 elements")
    }

    @Test("a move that does not fit an Incremental array input stops with a message naming it")
    func incrementalMoveOutOfRange() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let source = ScriptedArraySource(["a", "b"])
            let graph = Graph()
            let input = graph.arrayInput([String]())
            let bridge = source.drive(input)
            input.remove(at: 1)
            source.send([.move(from: 1, to: 0)])
            bridge.disconnect()
        }
        expectStandardError(of: result, contains: "ArrayInput: move from 1 to 0 in 1 elements")
    }
}
