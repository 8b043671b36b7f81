import ReactiveCore

/// One question of the conformance table, asked of every paradigm through its adapter: the
/// answer is what the paradigm did, measured, never what it is said to do.
public struct ConformanceCategory: Sendable, Identifiable {
    /// A short name: glitches, dynamic dependencies, equality cutoff, batching, reentrancy,
    /// disposal.
    public let id: String
    /// The question, as the table's first column shows it.
    public let question: String
    /// What the check does, in one sentence.
    public let procedure: String
    private let check: @Sendable (AnyParadigmAdapter) -> String

    /// The answer of `adapter`'s paradigm.
    public func answer(_ adapter: some ParadigmAdapter) -> String {
        check(AnyParadigmAdapter(adapter))
    }

    /// Every category, in the table's order.
    public static let all: [ConformanceCategory] = [
        ConformanceCategory(
            id: "glitches",
            question: "Does an observer of a diamond see only consistent values?",
            procedure: "d = (a + 1) + 2a is observed, then a is written twice; a value no single a gives is a glitch.",
            check: { glitches($0.makeGraph()) }),
        ConformanceCategory(
            id: "dynamic dependencies",
            question: "Is a branch not taken left unread?",
            procedure:
                "r = c ? x : y is observed with c true, then y is written; the count is how many times r chose again.",
            check: { dynamicDependencies($0.makeGraph()) }),
        ConformanceCategory(
            id: "equality cutoff",
            question: "Is a derived value that did not change kept from observers?",
            procedure: "b = a / 10 is observed, then a goes from 1 to 2 (b stays 0).",
            check: { equalityCutoff($0.makeGraph()) }),
        ConformanceCategory(
            id: "batching",
            question: "Do writes made together reach observers as one change?",
            procedure: "a + b is observed, then a and b are written in the paradigm's batch (or one after the other).",
            check: { batching($0.makeGraph()) }),
        ConformanceCategory(
            id: "reentrancy",
            question: "What does a write made by an observer do?",
            procedure: "an observer of a writes a again when it sees 1; the other observer of a records what it sees.",
            check: { reentrancy($0.makeGraph()) }),
        ConformanceCategory(
            id: "disposal",
            question: "Is everything freed after teardown?",
            procedure: "a diamond is built, observed, disconnected and released; weak references tell what is left.",
            check: { Scenario.named("teardown")?.run($0).outcome.freed == true ? "yes" : "**no**" }),
    ]

    /// The conformance table as a DocC article: the shared scenarios and these categories, a
    /// row each, a column per paradigm of `adapters`, each cell measured now.
    public static func article(adapters: [AnyParadigmAdapter]) -> String {
        var lines = [
            "# Conformance table",
            "",
            "What every paradigm does, measured: the shared scenarios and the reactivity questions, run now.",
            "",
            "## Overview",
            "",
            "A test (`Tests/ParadigmTests/ConformanceTableTests.swift`) writes this page: it runs every shared",
            "scenario and every question below through each paradigm's adapter and the hand-written baseline,",
            "and fails if the page it makes differs from the one committed, so the page cannot disagree with",
            "the code. The semantics matrix explains the rules behind the answers; each module's *Semantics*",
            "article states them exactly.",
            "",
            "### The shared scenarios",
            "",
            "As expected, or the paradigm's documented difference (see the shared suite's article).",
            "",
            "| scenario | " + adapters.map(\.name).joined(separator: " | ") + " |",
            "| --- |" + String(repeating: " --- |", count: adapters.count),
        ]
        for scenario in Scenario.all {
            let cells = adapters.map { adapter -> String in
                let run = scenario.run(adapter)
                let (expected, reason) = scenario.expectation(for: adapter)
                guard run.outcome == expected else { return "**unexpected**: \(run.outcome)" }
                return reason == nil ? "as expected" : "documented difference"
            }
            lines.append("| \(scenario.id) | " + cells.joined(separator: " | ") + " |")
        }
        lines += [
            "",
            "### Reactivity questions",
            "",
            "| question | " + adapters.map(\.name).joined(separator: " | ") + " |",
            "| --- |" + String(repeating: " --- |", count: adapters.count),
        ]
        for category in all {
            let cells = adapters.map { category.answer($0) }
            lines.append("| **\(category.id)**: \(category.question) | " + cells.joined(separator: " | ") + " |")
        }
        lines += ["", "How each question is asked:", ""]
        for category in all { lines.append("- **\(category.id)**: \(category.procedure)") }
        lines += [
            "",
            "Errors are not in the shared vocabulary: each module's *Semantics* article says what a",
            "failing computation does there.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}

private func glitches<Graph: CellGraph>(_ graph: Graph) -> String {
    let a = graph.input(1)
    let d = graph.combine(graph.map(a) { $0 + 1 }, graph.map(a) { $0 * 2 }, +)
    var seen: [Int] = []
    let connection = graph.observe(d) { seen.append($0) }
    graph.set(a, to: 2)
    graph.set(a, to: 3)
    connection.disconnect()
    let inconsistent = seen.filter { ($0 - 1) % 3 != 0 }.count
    return inconsistent == 0 ? "glitch-free" : "shows \(inconsistent) mixed value\(inconsistent == 1 ? "" : "s")"
}

private func dynamicDependencies<Graph: CellGraph>(_ graph: Graph) -> String {
    let (condition, x, y) = (graph.input(1), graph.input(10), graph.input(20))
    var choices = 0
    let r = graph.select(condition, x, y) { condition in
        choices += 1
        return condition != 0
    }
    var seen: [Int] = []
    let connection = graph.observe(r) { seen.append($0) }
    choices = 0
    graph.set(y, to: 21)
    let afterUnread = choices
    graph.set(condition, to: 0)
    connection.disconnect()
    guard seen.last == 21 else { return "**wrong value**: \(seen)" }
    return afterUnread == 0 ? "yes: not read" : "no: chose again"
}

private func equalityCutoff<Graph: CellGraph>(_ graph: Graph) -> String {
    let a = graph.input(1)
    let b = graph.map(a) { $0 / 10 }
    var seen: [Int] = []
    let connection = graph.observe(b) { seen.append($0) }
    graph.set(a, to: 2)
    connection.disconnect()
    return seen.count == 1 ? "yes: not delivered" : "no: delivered again"
}

private func batching<Graph: CellGraph>(_ graph: Graph) -> String {
    let (a, b) = (graph.input(1), graph.input(2))
    let sum = graph.combine(a, b, +)
    var seen: [Int] = []
    let connection = graph.observe(sum) { seen.append($0) }
    graph.batch {
        graph.set(a, to: 10)
        graph.set(b, to: 20)
    }
    connection.disconnect()
    let changes = seen.dropFirst()
    guard changes.last == 30 else { return "**wrong value**: \(seen)" }
    return changes.count == 1 ? "yes: one change" : "no: \(changes.count) changes (\(changes.first!) first)"
}

private func reentrancy<Graph: CellGraph>(_ graph: Graph) -> String {
    let a = graph.input(0)
    var seen: [Int] = []
    var depth = 0
    var nested = false
    let writer = graph.observe(a) { value in
        depth += 1
        defer { depth -= 1 }
        if value == 1 { graph.set(a, to: 2) }
    }
    let recorder = graph.observe(a) { value in
        if depth > 0 && value == 2 && seen.last == 0 { nested = true }
        seen.append(value)
    }
    graph.set(a, to: 1)
    writer.disconnect()
    recorder.disconnect()
    guard seen.last == 2 else { return "**ends at \(seen.last.map(String.init) ?? "nothing")**" }
    if nested { return "delivered at once, inside the delivery (the next observer skips 1)" }
    return seen.contains(1) ? "queued: the next observer sees 1, then 2" : "coalesced: the next observer sees 2 only"
}
