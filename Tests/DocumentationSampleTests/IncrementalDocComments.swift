// swift-format-ignore-file
// (The samples are kept exactly as the documentation writes them.)

// The samples of Incremental's doc comments, verbatim, with what they need around them.

import Incremental
import Observation
import ReactiveCore
import Testing

@Test func observedElementsSample() {
    struct Todo { var title: String; var done: Bool }
    let graph = Graph()
    let todos = graph.arrayInput([Todo(title: "milk", done: false)])
    let visible = todos.filterElements { !$0.done }.observedElements()
    // In a SwiftUI view:
    //   List(visible) { todo in Text(todo.title) }
    withObservationTracking { print(visible.count) } onChange: { print("the list changes") }
    todos.append(Todo(title: "bread", done: false))
    #expect(visible.map(\.title) == ["milk", "bread"])
}

#if canImport(SwiftUI)
    import SwiftUI

    @MainActor @ViewBuilder private func inputBindingSample(graph: Graph) -> some View {
        let name = graph.input("Ada")
        let observedName = name.observed()
        TextField("Name", text: observedName.binding(to: name))
    }
#endif
