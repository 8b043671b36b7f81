import Glue
import Incremental
import OpenCombine
import ReactiveCore

/// The kairo suite (../shared/BENCHMARKS.md): eight small graphs, each iteration a series of
/// writes, each checked for its values and for how often its effects ran.
///
/// Incremental, Observation, OpenCombine and the baseline run all eight; Glue runs the ones
/// its operators express directly (deep, broad, diamond, triangle). Where an implementation
/// runs effects a different number of times (OpenCombine's glitches, Observation's lack of
/// memoized derived values), its check states the count it really has, and RESULTS.md says
/// why.
enum KairoCases {
    static var all: [BenchmarkCase] {
        let avoidable = "1 + 1,000 batched writes; c5 stays 6"
        let broad = "50 batched writes, 50 effects each"
        let deep = "50 writes through a chain of 50"
        let diamond = "500 writes; sum of 5 branches"
        let triangle = "100 writes; sum of a chain of 10"
        let mux = "20 writes into 100 sources"
        let repeated = "100 writes; one value reads the source 30 times"
        let unstable = "100 writes; dependencies switch with parity"
        var cases: [BenchmarkCase] = []
        for implementation in ["Incremental", "Observation", "OpenCombine", "Baseline"] {
            cases += [
                BenchmarkCase("kairo/avoidable", implementation, iteration: avoidable, events: 1_001) {
                    try avoidablePropagation(implementation)
                },
                BenchmarkCase("kairo/broad", implementation, iteration: broad, events: 50) {
                    try broadPropagation(implementation)
                },
                BenchmarkCase("kairo/deep", implementation, iteration: deep, events: 50) {
                    try deepPropagation(implementation)
                },
                BenchmarkCase("kairo/diamond", implementation, iteration: diamond, events: 500) {
                    try diamondPropagation(implementation)
                },
                BenchmarkCase("kairo/triangle", implementation, iteration: triangle, events: 100) {
                    try trianglePropagation(implementation)
                },
                BenchmarkCase("kairo/mux", implementation, iteration: mux, events: 20) {
                    try muxPropagation(implementation)
                },
                BenchmarkCase("kairo/repeated", implementation, iteration: repeated, events: 100) {
                    try repeatedObservers(implementation)
                },
                BenchmarkCase("kairo/unstable", implementation, iteration: unstable, events: 100) {
                    try unstablePropagation(implementation)
                },
            ]
        }
        cases += [
            BenchmarkCase("kairo/broad", "Glue", iteration: broad, events: 50) { glueBroad() },
            BenchmarkCase("kairo/deep", "Glue", iteration: deep, events: 50) { glueDeep() },
            BenchmarkCase("kairo/diamond", "Glue", iteration: diamond, events: 500) { glueDiamond() },
            BenchmarkCase("kairo/triangle", "Glue", iteration: triangle, events: 100) { glueTriangle() },
        ]
        return cases
    }

    static func unknown(_ implementation: String) -> CheckFailure {
        CheckFailure(description: "no kairo implementation named \(implementation)")
    }
}

// MARK: Avoidable propagation

/// head → c1 = head → c2 = 0 → c3 = busy() + c2 + 1 → c4 = c3 + 2 → c5 = c4 + 3; an effect
/// reads c5 and calls busy(). With a cutoff at c2, nothing below it runs again.
func avoidablePropagation(_ implementation: String) throws -> any ScenarioRunner {
    let below = Counter()  // runs of c3 (the busy work below c2)
    let effect = Counter()
    func c3(_ c2: Int) -> Int {
        below.runs += 1
        _ = busy()  // the work below c2: once per run of c3
        return c2 + 1
    }
    func expectQuiet(_ name: String, effectRuns: Int, belowRuns: Int) throws {
        try check(effect.last == 6, "\(name): c5 is \(effect.last), expected 6")
        try check(effect.runs == effectRuns, "\(name): the effect ran \(effect.runs) times, expected \(effectRuns)")
        try check(below.runs == belowRuns, "\(name): c3 ran \(below.runs) times, expected \(belowRuns)")
    }
    func runEffect(_ c5: Int) {
        effect.runs += 1
        effect.last = c5
        _ = busy()
    }
    switch implementation {
    case "Incremental":
        let graph = Graph()
        let head = graph.input(0)
        let c2 = head.map { $0 }.map { _ in 0 }
        let c5 = c2.map(c3).map { $0 + 2 }.map { $0 + 3 }
        let connection = c5.observe(runEffect)
        return ClosureRunner(keep: [connection, graph]) {
            effect.runs = 0
            below.runs = 0
            graph.batch { head.write(1) }
            for index in 0..<1_000 { graph.batch { head.write(index) } }
            try expectQuiet("Incremental", effectRuns: 0, belowRuns: 0)
        }
    case "Observation":
        // Memoized derived values: c2 recomputes to 0 and is not written, so nothing below runs.
        let head = ObservedCell(0)
        let effects = ObservationEffects()
        let c1 = effects.derived { head.value }
        let c2 = effects.derived {
            _ = c1.value
            return 0
        }
        let c3Cell = effects.derived { c3(c2.value) }
        let c4 = effects.derived { c3Cell.value + 2 }
        let c5 = effects.derived { c4.value + 3 }
        effects.effect { runEffect(c5.value) }
        return ClosureRunner(keep: [effects, c5]) {
            effect.runs = 0
            below.runs = 0
            effects.batch { head.value = 1 }
            for index in 0..<1_000 { effects.batch { head.value = index } }
            try expectQuiet("Observation", effectRuns: 0, belowRuns: 0)
        }
    case "OpenCombine":
        let head = CurrentValueSubject<Int, Never>(0)
        // removeDuplicates() is how a Combine user stops a value that did not change.
        let cancellable = head.map { $0 }.map { _ in 0 }.removeDuplicates().map(c3).map { $0 + 2 }.map { $0 + 3 }
            .sink(receiveValue: runEffect)
        return ClosureRunner(keep: [cancellable]) {
            effect.runs = 0
            below.runs = 0
            head.send(1)
            for index in 0..<1_000 { head.send(index) }
            try expectQuiet("OpenCombine", effectRuns: 0, belowRuns: 0)
        }
    case "Baseline":
        final class State {
            var head = 0
            var c2 = 0
        }
        let state = State()
        runEffect(c3(0) + 5)
        let write: (Int) -> Void = { value in
            state.head = value
            let c2 = 0
            guard c2 != state.c2 else { return }
            state.c2 = c2
            runEffect(c3(c2) + 5)
        }
        return ClosureRunner {
            effect.runs = 0
            below.runs = 0
            write(1)
            for index in 0..<1_000 { write(index) }
            try expectQuiet("baseline", effectRuns: 0, belowRuns: 0)
        }
    default: throw KairoCases.unknown(implementation)
    }
}

// MARK: Broad propagation

/// 50 branches a = head + i, b = a + 1, an effect on each b. One iteration: 50 batched writes.
func broadPropagation(_ implementation: String) throws -> any ScenarioRunner {
    let effect = Counter()
    let branches = 50
    func expect(_ name: String, head: Int) throws {
        try check(effect.last == head + branches, "\(name): the last b is \(effect.last), expected \(head + branches)")
    }
    func expectRuns(_ name: String) throws {
        try check(effect.runs == branches * branches, "\(name): \(effect.runs) effect runs, expected 2,500")
    }
    /// Counts every effect run and keeps the last branch's value, whatever order effects run in.
    let recordBranch: (Int, Int) -> Void = { index, value in
        effect.runs += 1
        if index == branches - 1 { effect.last = value }
    }
    // Writes 1...50 then -1...-50 on alternate iterations, so every write changes the head.
    let series = AlternatingWrites(branches)
    func values() -> [Int] { series.next() }
    switch implementation {
    case "Incremental":
        let graph = Graph()
        let head = graph.input(0)
        let connections = (0..<branches).map { index in
            head.map { $0 + index }.map { $0 + 1 }.observe { recordBranch(index, $0) }
        }
        return KairoRunner(
            "Incremental", keep: [connections, graph], values: values, effect: effect, check: expect, finish: expectRuns
        ) { value in
            graph.batch { head.write(value) }
        }
    case "Observation":
        let head = ObservedCell(0)
        let effects = ObservationEffects()
        for index in 0..<branches {
            let a = effects.derived { head.value + index }
            let b = effects.derived { a.value + 1 }
            effects.effect { recordBranch(index, b.value) }
        }
        return KairoRunner(
            "Observation", keep: [effects], values: values, effect: effect, check: expect, finish: expectRuns
        ) { value in
            effects.batch { head.value = value }
        }
    case "OpenCombine":
        let head = CurrentValueSubject<Int, Never>(0)
        let cancellables = (0..<branches).map { index in
            head.map { $0 + index }.map { $0 + 1 }.sink { recordBranch(index, $0) }
        }
        return KairoRunner(
            "OpenCombine", keep: [cancellables], values: values, effect: effect, check: expect, finish: expectRuns
        ) { value in
            head.send(value)
        }
    case "Baseline":
        var effects: [(Int) -> Void] = []
        for index in 0..<branches { effects.append { head in recordBranch(index, head + index + 1) } }
        return KairoRunner(
            "baseline", keep: [], values: values, effect: effect, check: expect, finish: expectRuns
        ) { value in
            for run in effects { run(value) }
        }
    default: throw KairoCases.unknown(implementation)
    }
}

// MARK: Deep propagation

/// A chain of 50 derived values, each + 1, and one effect at the end. 50 writes.
func deepPropagation(_ implementation: String) throws -> any ScenarioRunner {
    let effect = Counter()
    let depth = 50
    let record = effect.record
    func expect(_ name: String, head: Int) throws {
        try check(
            effect.last == head + depth, "\(name): the end of the chain is \(effect.last), expected \(head + depth)")
    }
    func expectRuns(_ name: String) throws {
        try check(effect.runs == depth, "\(name): \(effect.runs) effect runs, expected 50")
    }
    let series = AlternatingWrites(depth)
    func values() -> [Int] { series.next() }
    switch implementation {
    case "Incremental":
        let graph = Graph()
        let head = graph.input(0)
        var node: I<Int> = head
        for _ in 0..<depth { node = node.map { $0 + 1 } }
        let connection = node.observe(record)
        return KairoRunner(
            "Incremental", keep: [connection, graph], values: values, effect: effect, check: expect, finish: expectRuns
        ) { value in
            graph.batch { head.write(value) }
        }
    case "Observation":
        let head = ObservedCell(0)
        let effects = ObservationEffects()
        var node = effects.derived { head.value + 1 }
        for _ in 1..<depth { node = effects.derived { [node] in node.value + 1 } }
        effects.effect { [node] in record(node.value) }
        return KairoRunner(
            "Observation", keep: [effects], values: values, effect: effect, check: expect, finish: expectRuns
        ) { value in
            effects.batch { head.value = value }
        }
    case "OpenCombine":
        let head = CurrentValueSubject<Int, Never>(0)
        var node = head.eraseToAnyPublisher()
        for _ in 0..<depth { node = node.map { $0 + 1 }.eraseToAnyPublisher() }
        let cancellable = node.sink(receiveValue: record)
        return KairoRunner(
            "OpenCombine", keep: [cancellable], values: values, effect: effect, check: expect, finish: expectRuns
        ) { value in
            head.send(value)
        }
    case "Baseline":
        var node: (Int) -> Int = { $0 }
        for _ in 0..<depth { node = { [node] in node($0) + 1 } }
        return KairoRunner(
            "baseline", keep: [], values: values, effect: effect, check: expect, finish: expectRuns
        ) { value in
            record(node(value))
        }
    default: throw KairoCases.unknown(implementation)
    }
}

// MARK: Diamond

/// Five branches of head + 1, their sum, an effect on the sum. 500 writes.
func diamondPropagation(_ implementation: String) throws -> any ScenarioRunner {
    let effect = Counter()
    let width = 5
    let writes = 500
    let record = effect.record
    func expect(_ name: String, head: Int) throws {
        try check(
            effect.last == (head + 1) * width, "\(name): the sum is \(effect.last), expected \((head + 1) * width)")
    }
    func expectRuns(_ name: String, _ expected: Int) throws {
        try check(effect.runs == expected, "\(name): \(effect.runs) effect runs, expected \(expected)")
    }
    let series = AlternatingWrites(writes)
    func values() -> [Int] { series.next() }
    switch implementation {
    case "Incremental":
        let graph = Graph()
        let head = graph.input(0)
        let branches = (0..<width).map { _ in head.map { $0 + 1 } }
        let connection = mapN(branches) { $0.reduce(0, +) }.observe(record)
        return KairoRunner(
            "Incremental", keep: [connection, graph], values: values, effect: effect, check: expect,
            finish: { try expectRuns($0, writes) }
        ) { value in
            graph.batch { head.write(value) }
        }
    case "Observation":
        let head = ObservedCell(0)
        let effects = ObservationEffects()
        let branches = (0..<width).map { _ in effects.derived { head.value + 1 } }
        let sum = effects.derived { branches.reduce(0) { $0 + $1.value } }
        effects.effect { record(sum.value) }
        return KairoRunner(
            "Observation", keep: [effects], values: values, effect: effect, check: expect,
            finish: { try expectRuns($0, writes) }
        ) { value in
            effects.batch { head.value = value }
        }
    case "OpenCombine":
        // OpenCombine 0.14 has no combineLatest; zip pairs the branches' emissions, and each
        // write makes every branch emit once, so the sum is emitted once per write.
        let head = CurrentValueSubject<Int, Never>(0)
        let branches: [AnyPublisher<Int, Never>] = (0..<width).map { _ in head.map { $0 + 1 }.eraseToAnyPublisher() }
        var sum: AnyPublisher<Int, Never> = branches[0]
        for branch in branches.dropFirst() { sum = sum.zip(branch) { $0 + $1 }.eraseToAnyPublisher() }
        let cancellable = sum.sink(receiveValue: record)
        return KairoRunner(
            "OpenCombine", keep: [cancellable], values: values, effect: effect, check: expect,
            finish: { try expectRuns($0, writes) }
        ) { value in
            head.send(value)
        }
    case "Baseline":
        return KairoRunner(
            "baseline", keep: [], values: values, effect: effect, check: expect, finish: { try expectRuns($0, writes) }
        ) { value in
            var sum = 0
            for _ in 0..<width { sum += value + 1 }
            record(sum)
        }
    default: throw KairoCases.unknown(implementation)
    }
}

// MARK: Triangle

/// A chain of 10 (+ 1 each), the sum of every link, an effect on the sum. 100 writes.
func trianglePropagation(_ implementation: String) throws -> any ScenarioRunner {
    let effect = Counter()
    let width = 10
    let writes = 100
    let record = effect.record
    /// Links head + 1 ... head + 10: their sum is 10·head + 55.
    func expect(_ name: String, head: Int) throws {
        try check(effect.last == 10 * head + 55, "\(name): the sum is \(effect.last), expected \(10 * head + 55)")
    }
    func expectRuns(_ name: String, _ expected: Int) throws {
        try check(effect.runs == expected, "\(name): \(effect.runs) effect runs, expected \(expected)")
    }
    let series = AlternatingWrites(writes)
    func values() -> [Int] { series.next() }
    switch implementation {
    case "Incremental":
        let graph = Graph()
        let head = graph.input(0)
        var links: [I<Int>] = []
        var node: I<Int> = head
        for _ in 0..<width {
            node = node.map { $0 + 1 }
            links.append(node)
        }
        let connection = mapN(links) { $0.reduce(0, +) }.observe(record)
        return KairoRunner(
            "Incremental", keep: [connection, graph], values: values, effect: effect, check: expect,
            finish: { try expectRuns($0, writes) }
        ) { value in
            graph.batch { head.write(value) }
        }
    case "Observation":
        let head = ObservedCell(0)
        let effects = ObservationEffects()
        var links: [ObservedDerived<Int>] = []
        var node = effects.derived { head.value + 1 }
        links.append(node)
        for _ in 1..<width {
            node = effects.derived { [node] in node.value + 1 }
            links.append(node)
        }
        let sum = effects.derived { [links] in links.reduce(0) { $0 + $1.value } }
        effects.effect { record(sum.value) }
        return KairoRunner(
            "Observation", keep: [effects], values: values, effect: effect, check: expect,
            finish: { try expectRuns($0, writes) }
        ) { value in
            effects.batch { head.value = value }
        }
    case "OpenCombine":
        let head = CurrentValueSubject<Int, Never>(0)
        var links: [AnyPublisher<Int, Never>] = []
        var node = head.eraseToAnyPublisher()
        for _ in 0..<width {
            node = node.map { $0 + 1 }.eraseToAnyPublisher()
            links.append(node)
        }
        var sum = links[0]
        // Every link emits once per write, so zip (OpenCombine 0.14 has no combineLatest)
        // pairs them: one sum per write.
        for link in links.dropFirst() { sum = sum.zip(link) { $0 + $1 }.eraseToAnyPublisher() }
        let cancellable = sum.sink(receiveValue: record)
        return KairoRunner(
            "OpenCombine", keep: [cancellable], values: values, effect: effect, check: expect,
            finish: { try expectRuns($0, writes) }
        ) { value in
            head.send(value)
        }
    case "Baseline":
        return KairoRunner(
            "baseline", keep: [], values: values, effect: effect, check: expect, finish: { try expectRuns($0, writes) }
        ) { value in
            var sum = 0
            var link = value
            for _ in 0..<width {
                link += 1
                sum += link
            }
            record(sum)
        }
    default: throw KairoCases.unknown(implementation)
    }
}

// MARK: Mux

/// 100 sources gathered into one derived index, split into 100 derived values, each + 1,
/// each with an effect. Writes sources 0..<10 with i, then with 2i.
func muxPropagation(_ implementation: String) throws -> any ScenarioRunner {
    let sources = 100
    final class Splits {
        var values: [Int]
        var runs = 0
        init(_ count: Int) { values = Array(repeating: 0, count: count) }
    }
    let splits = Splits(sources)
    let record: (Int, Int) -> Void = { index, value in
        splits.runs += 1
        splits.values[index] = value
    }
    final class Phase { var round = 0 }
    let phase = Phase()
    /// The writes of one iteration: (source, value); values differ from the last iteration's.
    func writes() -> [(Int, Int)] {
        defer { phase.round += 1 }
        let offset = phase.round.isMultiple(of: 2) ? 1 : 1_000
        return (0..<10).map { ($0, $0 + offset) } + (0..<10).map { ($0, 2 * $0 + offset) }
    }
    func expect(_ name: String, source: Int, value: Int) throws {
        try check(
            splits.values[source] == value + 1,
            "\(name): split \(source) is \(splits.values[source]), expected \(value + 1)")
    }
    func expectRuns(_ name: String, _ expected: Int) throws {
        try check(splits.runs == expected, "\(name): \(splits.runs) effect runs, expected \(expected)")
        splits.runs = 0
    }
    switch implementation {
    case "Incremental":
        let graph = Graph()
        let heads = (0..<sources).map { _ in graph.input(0) }
        let mux = mapN(heads) { $0 }
        let connections = (0..<sources).map { index in
            mux.map { $0[index] }.map { $0 + 1 }.observe { record(index, $0) }
        }
        splits.runs = 0
        return ClosureRunner(keep: [connections, graph]) {
            for (source, value) in writes() {
                graph.batch { heads[source].write(value) }
                try expect("Incremental", source: source, value: value)
            }
            // Only the split whose source changed reaches its effect; source 0 is written the
            // same value twice (0 + offset, then 2·0 + offset), so 19 of the 20 writes change.
            try expectRuns("Incremental", 19)
        }
    case "Observation":
        let heads = (0..<sources).map { _ in ObservedCell(0) }
        let effects = ObservationEffects()
        let mux = effects.derived { heads.map(\.value) }
        for index in 0..<sources {
            let split = effects.derived { mux.value[index] }
            let plusOne = effects.derived { split.value + 1 }
            effects.effect { record(index, plusOne.value) }
        }
        splits.runs = 0
        return ClosureRunner(keep: [effects]) {
            for (source, value) in writes() {
                effects.batch { heads[source].value = value }
                try expect("Observation", source: source, value: value)
            }
            // Every split recomputes from the new index, but only the one that changed is
            // written, so only its effect runs.
            try expectRuns("Observation", 19)
        }
    case "OpenCombine":
        let heads = (0..<sources).map { _ in CurrentValueSubject<Int, Never>(0) }
        // A running index: the sources merged (flatMap over them; OpenCombine 0.14 has no
        // merge or combineLatest), each change updating its slot.
        let mux = heads.enumerated().map { index, head in head.map { (index, $0) } }.publisher.flatMap { $0 }
            .scan(Array(repeating: 0, count: sources)) { index, change in
                var index = index
                index[change.0] = change.1
                return index
            }
            .share()
        let cancellables = (0..<sources).map { index in
            mux.map { $0[index] }.removeDuplicates().map { $0 + 1 }.sink { record(index, $0) }
        }
        heads.forEach { $0.send(0) }  // subscribers attached after the first values: send them again
        splits.runs = 0
        return ClosureRunner(keep: [cancellables]) {
            for (source, value) in writes() {
                heads[source].send(value)
                try expect("OpenCombine", source: source, value: value)
            }
            try expectRuns("OpenCombine", 19)
        }
    case "Baseline":
        var index = Array(repeating: 0, count: sources)
        return ClosureRunner {
            for (source, value) in writes() {
                let old = index[source]
                index[source] = value
                if old != value { record(source, value + 1) }
                try expect("baseline", source: source, value: value)
            }
            try expectRuns("baseline", 19)
        }
    default: throw KairoCases.unknown(implementation)
    }
}

// MARK: Repeated observers

/// One derived value that reads the source 30 times and sums. 100 writes.
func repeatedObservers(_ implementation: String) throws -> any ScenarioRunner {
    let effect = Counter()
    let reads = 30
    let writes = 100
    let record = effect.record
    func expect(_ name: String, head: Int) throws {
        try check(effect.last == reads * head, "\(name): the sum is \(effect.last), expected \(reads * head)")
    }
    func expectRuns(_ name: String) throws {
        try check(effect.runs == writes, "\(name): \(effect.runs) effect runs, expected \(writes)")
    }
    let series = AlternatingWrites(writes)
    func values() -> [Int] { series.next() }
    switch implementation {
    case "Incremental":
        let graph = Graph()
        let head = graph.input(0)
        // A computation gets its input's value once; reading it thirty times is a loop.
        let connection = head.map { value in (0..<reads).reduce(0) { sum, _ in sum + value } }.observe(record)
        return KairoRunner(
            "Incremental", keep: [connection, graph], values: values, effect: effect, check: expect, finish: expectRuns
        ) { value in
            graph.batch { head.write(value) }
        }
    case "Observation":
        let head = ObservedCell(0)
        let effects = ObservationEffects()
        let sum = effects.derived {
            var sum = 0
            for _ in 0..<reads { sum += head.value }
            return sum
        }
        effects.effect { record(sum.value) }
        return KairoRunner(
            "Observation", keep: [effects], values: values, effect: effect, check: expect, finish: expectRuns
        ) { value in
            effects.batch { head.value = value }
        }
    case "OpenCombine":
        // A publisher delivers its value once; reading it thirty times is a loop in the map.
        let head = CurrentValueSubject<Int, Never>(0)
        let cancellable = head.map { value in (0..<reads).reduce(0) { sum, _ in sum + value } }.sink(
            receiveValue: record)
        return KairoRunner(
            "OpenCombine", keep: [cancellable], values: values, effect: effect, check: expect, finish: expectRuns
        ) { value in
            head.send(value)
        }
    case "Baseline":
        return KairoRunner(
            "baseline", keep: [], values: values, effect: effect, check: expect, finish: expectRuns
        ) { value in
            var sum = 0
            for _ in 0..<reads { sum += value }
            record(sum)
        }
    default: throw KairoCases.unknown(implementation)
    }
}

// MARK: Unstable

/// double = 2h, inverse = −h; a derived value sums 20 terms of (h odd ? double : inverse), so
/// its dependencies switch with the parity of h. 100 writes.
func unstablePropagation(_ implementation: String) throws -> any ScenarioRunner {
    let effect = Counter()
    let terms = 20
    let writes = 100
    let record = effect.record
    func expected(_ head: Int) -> Int { terms * (head % 2 != 0 ? 2 * head : -head) }
    func expect(_ name: String, head: Int) throws {
        try check(effect.last == expected(head), "\(name): the sum is \(effect.last), expected \(expected(head))")
    }
    func expectRuns(_ name: String, _ runs: Int) throws {
        try check(effect.runs == runs, "\(name): \(effect.runs) effect runs, expected \(runs)")
    }
    final class Phase { var offset = 1 }
    let phase = Phase()
    func values() -> [Int] {
        defer { phase.offset = phase.offset == 1 ? 1_001 : 1 }
        return (0..<writes).map { $0 + phase.offset }
    }
    switch implementation {
    case "Incremental":
        let graph = Graph()
        let head = graph.input(0)
        let double = head.map { 2 * $0 }
        let inverse = head.map { -$0 }
        let sum = head.map { $0 % 2 != 0 }.flatMap { odd in odd ? double : inverse }.map { value in
            (0..<terms).reduce(0) { sum, _ in sum + value }
        }
        let connection = sum.observe(record)
        return KairoRunner(
            "Incremental", keep: [connection, graph], values: values, effect: effect, check: expect,
            finish: { try expectRuns($0, writes) }
        ) { value in
            graph.batch { head.write(value) }
        }
    case "Observation":
        let head = ObservedCell(0)
        let effects = ObservationEffects()
        let double = effects.derived { 2 * head.value }
        let inverse = effects.derived { -head.value }
        let sum = effects.derived {
            var sum = 0
            for _ in 0..<terms { sum += head.value % 2 != 0 ? double.value : inverse.value }
            return sum
        }
        effects.effect { record(sum.value) }
        return KairoRunner(
            "Observation", keep: [effects], values: values, effect: effect, check: expect,
            finish: { try expectRuns($0, writes) }
        ) { value in
            effects.batch { head.value = value }
        }
    case "OpenCombine":
        // Switching dependencies: map each parity to the publisher to follow, switchToLatest.
        let head = CurrentValueSubject<Int, Never>(0)
        let double = head.map { 2 * $0 }
        let inverse = head.map { -$0 }
        let cancellable = head.map { $0 % 2 != 0 }.removeDuplicates()
            .map { odd in odd ? double.eraseToAnyPublisher() : inverse.eraseToAnyPublisher() }
            .switchToLatest()
            .map { value in (0..<terms).reduce(0) { sum, _ in sum + value } }
            .sink(receiveValue: record)
        return ClosureRunner(keep: [cancellable]) {
            effect.runs = 0
            for value in values() {
                head.send(value)
                try expect("OpenCombine", head: value)
            }
            // switchToLatest follows one branch at a time, but a write that switches may reach
            // the effect twice: through the branch being left (if the subject delivers to it
            // first, a glitched value) and through the branch joined (its current value).
            try check(
                (writes...(2 * writes)).contains(effect.runs),
                "OpenCombine: \(effect.runs) effect runs, expected between \(writes) and \(2 * writes)")
        }
    case "Baseline":
        return KairoRunner(
            "baseline", keep: [], values: values, effect: effect, check: expect, finish: { try expectRuns($0, writes) }
        ) { value in
            let term = value % 2 != 0 ? 2 * value : -value
            var sum = 0
            for _ in 0..<terms { sum += term }
            record(sum)
        }
    default: throw KairoCases.unknown(implementation)
    }
}

// MARK: Glue

/// Glue's observables: a `Variable` source, derived values by `map` and the arithmetic
/// operators (glitch-free: they join transactions), effects by `subscribe`.
func glueDeep() -> any ScenarioRunner {
    let effect = Counter()
    let head = Variable(0)
    var node = AnyObservableValue(head)
    for _ in 0..<50 { node = AnyObservableValue(node.map { $0 + 1 }) }
    let connection = node.futureValues.subscribe { value in
        effect.runs += 1
        effect.last = value
    }
    let series = AlternatingWrites(50)
    return ClosureRunner(keep: [connection], finish: { connection.disconnect() }) {
        effect.runs = 0
        for value in series.next() {
            head.value = value
            try check(effect.last == value + 50, "Glue: the end of the chain is \(effect.last)")
        }
        try check(effect.runs == 50, "Glue: \(effect.runs) effect runs, expected 50")
    }
}

func glueBroad() -> any ScenarioRunner {
    let effect = Counter()
    let head = Variable(0)
    let connections = (0..<50).map { index in
        head.map { $0 + index }.map { $0 + 1 }.futureValues.subscribe { value in
            effect.runs += 1
            if index == 49 { effect.last = value }
        }
    }
    let series = AlternatingWrites(50)
    return ClosureRunner(keep: [connections], finish: { connections.forEach { $0.disconnect() } }) {
        effect.runs = 0
        for value in series.next() {
            head.value = value
            try check(effect.last == value + 50, "Glue: last b is \(effect.last)")
        }
        try check(effect.runs == 2_500, "Glue: \(effect.runs) effect runs, expected 2,500")
    }
}

func glueDiamond() -> any ScenarioRunner {
    let effect = Counter()
    let head = Variable(0)
    let branches = (0..<5).map { _ in AnyObservableValue(head.map { $0 + 1 }) }
    let sum = branches.dropFirst().reduce(branches[0]) { AnyObservableValue($0 + $1) }
    let connection = sum.futureValues.subscribe { value in
        effect.runs += 1
        effect.last = value
    }
    let series = AlternatingWrites(500)
    return ClosureRunner(keep: [connection], finish: { connection.disconnect() }) {
        effect.runs = 0
        for value in series.next() {
            head.value = value
            try check(effect.last == (value + 1) * 5, "Glue: the sum is \(effect.last)")
        }
        try check(effect.runs == 500, "Glue: \(effect.runs) effect runs, expected 500 (glitch-free)")
    }
}

func glueTriangle() -> any ScenarioRunner {
    let effect = Counter()
    let head = Variable(0)
    var links: [AnyObservableValue<Int>] = []
    var node = AnyObservableValue(head)
    for _ in 0..<10 {
        node = AnyObservableValue(node.map { $0 + 1 })
        links.append(node)
    }
    let sum = links.dropFirst().reduce(links[0]) { AnyObservableValue($0 + $1) }
    let connection = sum.futureValues.subscribe { value in
        effect.runs += 1
        effect.last = value
    }
    let series = AlternatingWrites(100)
    return ClosureRunner(keep: [connection], finish: { connection.disconnect() }) {
        effect.runs = 0
        for value in series.next() {
            head.value = value
            try check(effect.last == 10 * value + 55, "Glue: the sum is \(effect.last)")
        }
        try check(effect.runs == 100, "Glue: \(effect.runs) effect runs, expected 100 (glitch-free)")
    }
}
