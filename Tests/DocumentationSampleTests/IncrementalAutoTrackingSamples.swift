// swift-format-ignore-file
// (The samples are kept exactly as the documentation writes them.)

// The samples of Incremental's article "Auto-tracking" and of the doc comments of
// `computed`, `untracked`, `effect` and `effectScope`, verbatim.

import Incremental
import ReactiveCore
import Testing

@Suite("Samples: Incremental auto-tracking")
struct IncrementalAutoTrackingSamples {
    @Test func overview() {
        let graph = Graph()
        let price = graph.input(10)
        let quantity = graph.input(3)
        let member = graph.input(false)
        let discount = graph.input(20)

        let total = graph.computed {
            let gross = price.value * quantity.value
            return member.value ? gross - gross * discount.value / 100 : gross
        }
        #expect(total.value == 30)
        discount.write(50)      // not read while member is false: nothing recomputes
        member.write(true)
        #expect(total.value == 15)
    }

    @Test func effects() {
        let graph = Graph()
        let query = graph.input("")
        var searches: [String] = []
        var cancelled: [String] = []

        let search = graph.effect {
            let text = query.value
            guard !text.isEmpty else { return }
            searches.append(text)
            graph.onCleanup { cancelled.append(text) }   // before the next run, and on disposal
        }
        query.write("swift")
        query.write("swift signals")
        search.dispose()
        #expect(searches == ["swift", "swift signals"])
        #expect(cancelled == ["swift", "swift signals"])
    }

    @Test func scopes() {
        let graph = Graph()
        let items = graph.input(["milk"])
        let selected = graph.input(0)
        var log: [String] = []

        let screen = graph.effectScope {
            graph.effect {
                let count = items.value.count
                log.append("\(count) items")
                graph.effect { log.append("row \(selected.value) of \(count)") }
            }
        }
        items.write(["milk", "bread"])     // the outer effect re-runs; its old inner one is disposed
        selected.write(1)
        screen.dispose()
        selected.write(0)                  // nothing runs
        #expect(log == ["1 items", "row 0 of 1", "2 items", "row 0 of 2", "row 1 of 2"])
    }

    @Test func untracked() {
        let graph = Graph()
        let amount = graph.input(12)
        let currency = graph.input("EUR")
        var runs = 0
        let label = graph.computed {
            runs += 1
            return "\(amount.value) \(graph.untracked { currency.value })"
        }
        #expect(label.value == "12 EUR")
        currency.write("USD")
        #expect(label.value == "12 EUR")   // not an input: still the old text
        amount.write(13)
        #expect(label.value == "13 USD")
        #expect(runs == 2)
    }

    @Test func computedDocComment() {
        let graph = Graph()
        let first = graph.input("Ada")
        let last = graph.input("Lovelace")
        let showLast = graph.input(true)
        let name = graph.computed { showLast.value ? "\(first.value) \(last.value)" : first.value }
        #expect(name.value == "Ada Lovelace")
        showLast.write(false)
        #expect(name.value == "Ada")
    }

    @Test func untrackedDocComment() {
        let graph = Graph()
        let price = graph.input(2)
        let quantity = graph.input(3)
        let currency = graph.input("EUR")
        let logged = graph.computed {
            let total = price.value * quantity.value
            let unit = graph.untracked { currency.value }   // a currency change recomputes nothing
            return "\(total) \(unit)"
        }
        #expect(logged.value == "6 EUR")
        currency.write("USD")
        #expect(logged.value == "6 EUR")
    }

    @Test func effectDocComment() {
        let graph = Graph()
        let count = graph.input(0)
        let effect = graph.effect {
            print("count is", count.value)                    // prints "count is 0"
            graph.onCleanup { print("leaving", count.value) } // runs before the next run
        }
        count.write(1)      // prints "leaving 1", then "count is 1"
        effect.dispose()    // prints "leaving 1"
        #expect(effect.isDisposed)
    }

    @Test func effectScopeDocComment() {
        let graph = Graph()
        let items = graph.input(["milk"])
        let title = graph.input("")
        var saved: [[String]] = []
        func save(_ items: [String]) { saved.append(items) }
        let screen = graph.effectScope {
            graph.effect { title.value = "\(items.value.count) items" }
            graph.effect { save(items.value) }
        }
        screen.dispose()   // both effects stop
        items.write(["milk", "bread"])
        #expect(title.value == "1 items")
        #expect(saved == [["milk"]])
    }
}

@Suite("Samples: Incremental map and flatMap of many values")
struct IncrementalVariadicSamples {
    @Test func mapOfMany() {
        let graph = Graph()
        let name = graph.input("Ada")
        let age = graph.input(36)
        let isMember = graph.input(true)
        let label = map(name, age, isMember) { name, age, isMember in
            "\(name), \(age)\(isMember ? " ★" : "")"
        }
        #expect(label.value == "Ada, 36 ★")
    }

    @Test func flatMapOfMany() {
        let graph = Graph()
        let useMetric = graph.input(false)
        let precision = graph.input(1)
        let celsius = graph.input(20.0)
        let fahrenheit = celsius.map { $0 * 9 / 5 + 32 }
        let shown = flatMap(useMetric, precision) { metric, digits in
            (metric ? celsius : fahrenheit).map { String(format: "%.\(digits)f", $0) }
        }
        #expect(shown.value == "68.0")
    }
}

@Suite("Samples: Incremental freeze, depend(on:) and necessaryIfAlive")
struct IncrementalToolkitSamples {
    @Test func freeze() {
        let graph = Graph()
        let results = graph.input([String]())
        let firstResult = results.freeze { !$0.isEmpty }   // the first non-empty results, kept
        let connection = firstResult.observe { _ in }
        results.write(["a"])
        results.write(["b"])
        #expect(firstResult.value == ["a"])
        connection.disconnect()
    }

    @Test func dependOn() {
        let graph = Graph()
        let total = graph.input(3)
        let auditLog = graph.input("audit").map { $0.uppercased() }
        let shown = total.depend(on: auditLog)   // auditLog stays up to date while shown is observed
        let connection = shown.observe { _ in }
        #expect(auditLog.isNecessary)
        connection.disconnect()
    }

    @Test func necessaryIfAlive() {
        let graph = Graph()
        let rows = graph.input(Array(1...100))
        let expensiveReport = rows.map { $0.reduce(0, +) }
        let warm = expensiveReport.necessaryIfAlive()   // reading warm.value computes nothing more
        #expect(warm.value == 5050)
        #expect(expensiveReport.isNecessary)
    }
}

@Suite("Samples: Incremental clock toolkit")
struct IncrementalClockSamples {
    @Test func incrementalStepFunction() {
        let graph = Graph()
        let scheduler = TestScheduler()
        let clock = GraphClock(graph: graph, scheduler: scheduler)
        let start = clock.now
        let schedule = graph.input(StepFunction(initial: 10, steps: [(start + .seconds(60), 12)]))
        let price = clock.stepFunction(schedule)   // follows a new schedule as soon as it is written
        scheduler.advance(by: .seconds(60))
        #expect(price.value == 12)
    }

    @Test func watchNowAndIntervals() {
        let graph = Graph()
        let scheduler = TestScheduler()
        let clock = GraphClock(graph: graph, scheduler: scheduler)
        let start = clock.now
        let ticks = clock.atIntervals(.seconds(1))
        let now = clock.watchNow()                    // changes with every tick
        let elapsed = map(ticks, now) { _, now in start.duration(to: now) }
        scheduler.advance(by: .seconds(3))
        #expect(elapsed.value == .seconds(3))
    }

    @Test func snapshot() {
        let graph = Graph()
        let scheduler = TestScheduler()
        let clock = GraphClock(graph: graph, scheduler: scheduler)
        let marketOpens = clock.now + .seconds(30)
        let price = graph.input(100)
        let openingPrice = clock.snapshot(price, at: marketOpens, before: 0)
        scheduler.advance(by: .seconds(30))
        price.write(101)
        #expect(openingPrice.value == 100)
    }
}

@Suite("Samples: Incremental memoize")
struct IncrementalMemoizeSamples {
    @Test func memoize() {
        let graph = Graph()
        let items = graph.input(["milk", "bread"])
        let selected = graph.input(0)
        let row = graph.memoize { (id: Int) in items.map { $0[id] } }   // one node per id
        let shown = selected.flatMap { row($0) }                        // reused when selected comes back
        #expect(shown.value == "milk")
    }

    @Test func weakMemoize() {
        let graph = Graph()
        let items = graph.input(["milk", "bread"])
        let row = graph.weakMemoize { (id: Int) in items.map { $0[id] } }
        #expect(row(1).value == "bread")
    }
}

@Suite("Samples: Incremental expert nodes")
struct IncrementalExpertSamples {
    @Test func expertNode() {
        let graph = Graph()
        let prices = [graph.input(3).i, graph.input(4).i]
        var total = 0
        let sum = graph.expertNode { total }
        for price in prices {
            var last = 0
            sum.addDependency(ExpertDependency(price) { new in
                total += new - last
                last = new
            })
        }
        #expect(sum.value == 7)
    }
}
