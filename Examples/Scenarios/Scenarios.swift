import ReactiveCore

extension Scenario {
    /// Every shared scenario, in the order the tour shows them.
    public static let all: [Scenario] = [counter, derived, diamond, list, search, teardown]

    /// The scenario named `id`, if there is one.
    public static func named(_ id: String) -> Scenario? {
        all.first { $0.id == id }
    }

    /// An input observed while it is written three times.
    public static let counter = Scenario(
        id: "counter",
        summary: "an input starts at 0 and is set to 1, 2, 3; the observer sees each value",
        expected: ScenarioOutcome(values: [0, 1, 2, 3]),
        updates: 4,
        pickWhen:
            "any of them: one value and one observer is what every paradigm does, and plain closures suffice"
    ) { makeGraph, _ in
        counterBody(makeGraph())
    }

    /// A derived value that follows its input.
    public static let derived = Scenario(
        id: "derived",
        summary: "b = a × 10 follows a as a goes 1, 2, 3",
        expected: ScenarioOutcome(values: [10, 20, 30]),
        updates: 2,
        pickWhen:
            "any of them; Incremental and Resin recompute only what is observed, and Glue computes on read"
    ) { makeGraph, recorder in
        derivedBody(makeGraph(), recorder)
    }

    /// The diamond: does the observer of D ever see a mix of old and new?
    public static let diamond = Scenario(
        id: "diamond",
        summary: "b = a + 1, c = 2a, d = b + c; a goes 1, 2, 3; every d should be 3a + 1",
        expected: ScenarioOutcome(values: [4, 7, 10]),
        updates: 2,
        pickWhen:
            "SignalGraph (with its joins), Glue, Incremental, Resin or Cycle when an observer must never see a mix of old and new values"
    ) { makeGraph, recorder in
        diamondBody(makeGraph(), recorder)
    }

    /// Teardown frees the graph, its cells and its observers.
    public static let teardown = Scenario(
        id: "teardown",
        summary: "a diamond is built, observed, disconnected and dropped; everything is freed",
        expected: ScenarioOutcome(values: [4, 7], freed: true),
        updates: 2,
        pickWhen:
            "SignalGraph when you want teardown mistakes caught (debug assertions name them); every paradigm frees everything once disconnected"
    ) { makeGraph, recorder in
        // The graph is made in this statement and released at its end, so only the graph's
        // own references (and any leak) can keep it alive when `isFreed` looks.
        let (outcome, isFreed) = teardownBody(makeGraph(), recorder)
        return ScenarioOutcome(values: outcome.values, glitches: outcome.glitches, freed: isFreed())
    }
}

private func counterBody<G: CellGraph>(_ graph: G) -> ScenarioOutcome {
    var seen: [Int] = []
    let counter = graph.input(0)
    let connection = graph.observe(counter) { seen.append($0) }
    for value in 1...3 { graph.set(counter, to: value) }
    connection.disconnect()
    graph.set(counter, to: 4)
    return ScenarioOutcome(values: seen)
}

private func derivedBody<G: CellGraph>(_ graph: G, _ recorder: Recorder) -> ScenarioOutcome {
    var seen: [Int] = []
    let a = graph.input(1)
    let b = graph.map(a, recorder.counting { $0 * 10 })
    let connection = graph.observe(b) { seen.append($0) }
    for value in 2...3 { graph.set(a, to: value) }
    connection.disconnect()
    return ScenarioOutcome(values: seen)
}

private func diamondBody<G: CellGraph>(_ graph: G, _ recorder: Recorder) -> ScenarioOutcome {
    var seen: [Int] = []
    let a = graph.input(1)
    let d = diamond(in: graph, from: a, recorder)
    let connection = graph.observe(d) { seen.append($0) }
    for value in 2...3 { graph.set(a, to: value) }
    connection.disconnect()
    return ScenarioOutcome(values: seen, glitches: glitchCount(seen))
}

private func teardownBody<G: CellGraph>(
    _ graph: G, _ recorder: Recorder
) -> (ScenarioOutcome, isFreed: () -> Bool) {
    var seen: [Int] = []
    let a = graph.input(1)
    let d = diamond(in: graph, from: a, recorder)
    let connection = graph.observe(d) { seen.append($0) }
    graph.set(a, to: 2)
    connection.disconnect()
    graph.set(a, to: 3)
    let isFreed = { [weak graph, weak a, weak d] in graph == nil && a == nil && d == nil }
    return (ScenarioOutcome(values: seen, glitches: glitchCount(seen)), isFreed)
}

private func diamond<G: CellGraph>(in graph: G, from a: G.Cell, _ recorder: Recorder) -> G.Cell {
    let b = graph.map(a, recorder.counting { $0 + 1 })
    let c = graph.map(a, recorder.counting { $0 * 2 })
    return graph.combine(b, c, recorder.counting { $0 + $1 })
}

/// How many observed values of d no input state produces: d = 3a + 1 for a in 1...3.
private func glitchCount(_ seen: [Int]) -> Int {
    let consistent = Set((1...3).map { 3 * $0 + 1 })
    return seen.filter { !consistent.contains($0) }.count
}
