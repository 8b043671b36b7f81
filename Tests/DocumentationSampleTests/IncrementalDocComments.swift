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

// MARK: Coming from Observation and SwiftUI

@Test func filteredListThroughObservation() {
    struct Todo: Identifiable, Equatable {
        let id: Int
        var title: String
        var done = false
    }

    let graph = Graph()
    let todos = graph.arrayInput([Todo(id: 1, title: "Milk"), Todo(id: 2, title: "Bread")])
    let showDone = graph.input(false)
    let visible = showDone.flatMap { showDone in
        todos.filterElements { showDone || !$0.done }
    }
    let rows = visible.observedElements()   // hand this to the view

    // What a SwiftUI view does: read under tracking, and re-read when told.
    nonisolated(unsafe) var changed = false
    func render() -> [String] {
        withObservationTracking { rows.map(\.title) } onChange: { changed = true }
    }
    #expect(render() == ["Milk", "Bread"])
    todos[0].done = true
    #expect(changed)
    changed = false
    #expect(render() == ["Bread"])
    showDone.write(true)
    #expect(changed)
    #expect(render() == ["Milk", "Bread"])
}

#if canImport(SwiftUI)
    @MainActor @ViewBuilder private func toggleSample(showDone: Input<Bool>) -> some View {
        let observedShowDone = showDone.observed()
        Toggle("Show done", isOn: observedShowDone.binding(to: showDone))
    }
#endif
