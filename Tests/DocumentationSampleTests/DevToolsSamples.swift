// swift-format-ignore-file
// (The samples are kept exactly as the documentation writes them.)

// The samples of DevTools' articles and of the doc comments of traces, verbatim, with what
// they need around them.

import DevTools
import Foundation
import Incremental
import ReactiveCore
import Resin
import Testing

private func temporaryPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appending(path: "\(UUID().uuidString)-\(name)").path
}

@Test func traceSample() {
    let scheduler = TestScheduler()
    let graph = Graph()
    let price = graph.input(10)
    let total = price.map { $0 * 2 }
    let observation = total.observe { _ in }
    let recorder = TapeRecorder(scheduler: scheduler)
    let tracer = TraceRecorder(paradigm: "Incremental") { total.inspect() }
    let following = tracer.follow(recorder)   // a step after each input, while kept
    recorder.channel("price") { (value: Int) in price.write(value) }.send(12)
    print(tracer.trace.steps[0].changed)  // the ids of the nodes that changed
    #expect(tracer.trace.steps[0].changed.count == 2)
    following.disconnect()
    observation.disconnect()
}

@Test func devToolsPageSample() throws {
    let tracer = TraceRecorder(paradigm: "Test") { Inspection(paradigm: "Test", nodes: [], edges: [], statistics: [:]) }
    let path = temporaryPath("cart.html")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let page = DevToolsPage(trace: tracer.trace, title: "Cart")
    try page.write(to: path)    // then open the file in a browser
    #expect(FileManager.default.fileExists(atPath: path))
}

@Test func devToolsOverviewSample() throws {
    let path = temporaryPath("prices.html")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let scheduler = TestScheduler()
    let recorder = TapeRecorder(scheduler: scheduler)
    let graph = Graph()
    let price = graph.input(10)
    let total = price.map { $0 * 3 }
    let tracer = TraceRecorder(paradigm: "Incremental") { total.inspect() }
    let following = tracer.follow(recorder)
    let prices = recorder.channel("price") { (value: Int) in price.write(value) }
    prices.send(12)
    try DevToolsPage(trace: tracer.trace, title: "Prices").write(to: path)
    #expect(try String(contentsOfFile: path, encoding: .utf8).contains("Prices"))
    following.disconnect()
}

@Test func historyTraceSample() {
    enum Counter: Action { case increment }
    let store = Store(initialState: 0, scheduler: TestScheduler())
    let reducer = store.register(Reducer<Int, Counter> { state, _ in state += 1 })
    let history = store.recordHistory()
    store.dispatch(Counter.increment)
    let trace = history.trace(of: store)   // DevToolsPage(trace: trace) draws it
    #expect(trace.steps.first?.diff.first?.new == "1")
    reducer.disconnect()
    history.disconnect()
}

@Test func devToolsServerSample() throws {
    let graph = Graph()
    let price = graph.input(10)
    let total = price.map { $0 * 2 }
    let recorder = TapeRecorder(scheduler: TestScheduler())
    let server = try DevToolsServer(following: recorder, paradigm: "Incremental") { total.inspect() }
    print("devtools: \(server.url)")
    // … the program runs; its tape channels' inputs appear on the page …
    server.stop()
    #expect(server.url.hasPrefix("http://127.0.0.1:"))
    #expect(server.watchers == 0)
}

@Test func stateChangesSample() throws {
    enum Counter: Action { case increment }
    let store = Store(initialState: 0, scheduler: TestScheduler())
    let reducer = store.register(Reducer<Int, Counter> { state, _ in state += 1 })
    let recorder = TapeRecorder(scheduler: TestScheduler())
    let server = try DevToolsServer(following: recorder, paradigm: "Resin", diff: store.stateChanges()) {
        store.inspect()
    }
    #expect(server.url.hasPrefix("http://127.0.0.1:"))
    server.stop()
    reducer.disconnect()
}
