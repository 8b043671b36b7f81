import ReactiveCore
import TestSupport
import Testing

@Suite("Broadcaster")
struct BroadcasterTests {
    /// What a sink does when it receives a value: scripted per (sink, value) from a seed, so
    /// that the broadcaster and the reference run the same program.
    enum Action: Equatable {
        /// Send a value (always smaller than the one received, so that sending ends).
        case send(Int)
        /// Remove the sink with this id (it may be the receiving sink, or one already gone).
        case remove(Int)
        /// Add a new sink (it gets the next id), unless there are 8 already.
        case add
    }

    struct Script {
        var actions: [Int: [Action]] = [:]

        /// The actions of `sink` on receiving `value`; made on first use, from `random`.
        mutating func actions(sink: Int, value: Int, sinks: Int, using random: inout SeededGenerator) -> [Action] {
            let key = sink * 1_000 + value
            if let actions = actions[key] { return actions }
            // At most one send per reception, of a smaller value, and at most 8 sinks (both
            // sides refuse a ninth): a send of 2 makes at most 1 + 8 + 64 values to deliver.
            var made: [Action] = []
            var sends = 0
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                switch Int.random(in: 0..<6, using: &random) {
                case 0...2 where value > 0 && sends == 0:
                    sends += 1
                    made.append(.send(Int.random(in: 0..<value, using: &random)))
                case 3: made.append(.remove(Int.random(in: 0..<max(1, sinks), using: &random)))
                case 4 where sinks < 8: made.append(.add)
                default: break
                }
            }
            actions[key] = made
            return made
        }
    }

    /// The rules written out plainly: a queue of values; each value goes to the sinks that
    /// existed when its delivery began, in order, skipping those removed by then.
    struct Reference {
        var script: Script
        var random: SeededGenerator
        var sinks: [(id: Int, active: Bool)] = []
        var queue: [Int] = []
        var isDelivering = false
        var log: [String] = []

        mutating func add() { sinks.append((sinks.count, true)) }

        mutating func send(_ value: Int) {
            queue.append(value)
            if isDelivering { return }
            isDelivering = true
            while !queue.isEmpty {
                let value = queue.removeFirst()
                let end = sinks.count
                for index in 0..<end where sinks[index].active {
                    let id = sinks[index].id
                    log.append("\(id) got \(value)")
                    for action in script.actions(sink: id, value: value, sinks: sinks.count, using: &random) {
                        switch action {
                        case .send(let next): send(next)
                        case .remove(let other): if other < sinks.count { sinks[other].active = false }
                        case .add: if sinks.count < 8 { add() }
                        }
                    }
                }
            }
            isDelivering = false
        }
    }

    /// The broadcaster, driven by the same script.
    final class Subject {
        let broadcaster = Broadcaster<Int>()
        var script: Script
        var random: SeededGenerator
        var keys: [Int] = []
        var log: [String] = []

        init(script: Script, random: SeededGenerator) {
            self.script = script
            self.random = random
        }

        func add() {
            let id = keys.count
            keys.append(
                broadcaster.add { [unowned self] value in
                    log.append("\(id) got \(value)")
                    for action in script.actions(sink: id, value: value, sinks: keys.count, using: &random) {
                        switch action {
                        case .send(let next): broadcaster.send(next)
                        case .remove(let other): if other < keys.count { broadcaster.remove(keys[other]) }
                        case .add: if keys.count < 8 { add() }
                        }
                    }
                })
        }
    }

    @Test(
        "random sinks that send, add and remove during deliveries match the plainly written rules",
        arguments: 1...40 as ClosedRange<UInt64>)
    func model(seed: UInt64) {
        // Both sides make the script lazily in the same order of (sink, value) pairs, so they
        // draw the same actions from generators with the same seed.
        var reference = Reference(script: Script(), random: SeededGenerator(seed: seed))
        let subject = Subject(script: Script(), random: SeededGenerator(seed: seed))
        var driver = SeededGenerator(seed: seed &+ 1_000)
        for _ in 0..<3 {
            reference.add()
            subject.add()
        }
        for step in 0..<30 {
            if Int.random(in: 0..<5, using: &driver) == 0 {
                reference.add()
                subject.add()
            } else {
                let value = Int.random(in: 0..<3, using: &driver)
                reference.send(value)
                subject.broadcaster.send(value)
            }
            // The first difference only: a diff of two long logs is slow to print.
            let common = min(subject.log.count, reference.log.count)
            if let first = (0..<common).first(where: { subject.log[$0] != reference.log[$0] })
                ?? (subject.log.count == reference.log.count ? nil : common)
            {
                Issue.record(
                    "seed \(seed), step \(step), entry \(first): \(subject.log.dropFirst(first).prefix(5)) against \(reference.log.dropFirst(first).prefix(5))"
                )
                return
            }
            #expect(subject.broadcaster.count == reference.sinks.count { $0.active })
        }
    }

    @Test("a sink added skipping queued values receives only values sent after it was added")
    func skippingQueued() {
        let broadcaster = Broadcaster<Int>()
        var plain: [Int] = []
        var skipping: [Int] = []
        var lateSkipping: [Int] = []
        let first = broadcaster.add { value in
            switch value {
            case 1:
                broadcaster.send(2)
                broadcaster.send(3)
                _ = broadcaster.add { plain.append($0) }
                _ = broadcaster.add({ skipping.append($0) }, skippingQueued: true)
                broadcaster.send(4)
            case 2:
                // Delivered from the queue with 3 and 4 still waiting.
                _ = broadcaster.add({ lateSkipping.append($0) }, skippingQueued: true)
                broadcaster.send(5)
            default:
                break
            }
        }
        broadcaster.send(1)
        #expect(plain == [2, 3, 4, 5])
        #expect(skipping == [4, 5])
        #expect(lateSkipping == [5])
        // Outside a delivery nothing waits: both kinds receive every value.
        var idleSkipping: [Int] = []
        _ = broadcaster.add({ idleSkipping.append($0) }, skippingQueued: true)
        broadcaster.send(6)
        #expect(idleSkipping == [6])
        #expect(skipping == [4, 5, 6])
        broadcaster.remove(first)
    }

    @Test("a sink's connection removes it; a broadcaster is Subscribable")
    func subscribable() {
        let broadcaster = Broadcaster<Int>()
        var seen: [Int] = []
        let connection = broadcaster.subscribe { seen.append($0) }
        broadcaster.send(1)
        connection.disconnect()
        broadcaster.send(2)
        #expect(seen == [1])
        #expect(broadcaster.isEmpty)
    }

    @Test("a connection keeps its broadcaster alive until it disconnects; sending to no sinks does nothing")
    func connectionKeepsBroadcaster() {
        weak var weakBroadcaster: Broadcaster<Int>?
        var seen: [Int] = []
        var connection: Connection?
        do {
            let broadcaster = Broadcaster<Int>()
            weakBroadcaster = broadcaster
            connection = broadcaster.subscribe { seen.append($0) }
        }
        weakBroadcaster?.send(1)
        #expect(seen == [1])
        connection?.disconnect()
        #expect(weakBroadcaster == nil)
        let empty = Broadcaster<Int>()
        empty.send(2)
        #expect(empty.isEmpty && seen == [1])
    }

    @Test("removing a sink returns it, once; unknown keys return nil")
    func removeReturnsTheSink() {
        let broadcaster = Broadcaster<Int>()
        let key = broadcaster.add { _ in }
        #expect(broadcaster.remove(key) != nil)
        #expect(broadcaster.remove(key) == nil)
        #expect(broadcaster.remove(99) == nil)
    }

    @Test("a broadcaster and its sinks are freed when the last reference goes")
    func freed() {
        final class Probe {}
        weak var weakBroadcaster: Broadcaster<Int>?
        weak var weakProbe: Probe?
        do {
            let broadcaster = Broadcaster<Int>()
            let probe = Probe()
            weakBroadcaster = broadcaster
            weakProbe = probe
            _ = broadcaster.add { _ in _ = probe }
            broadcaster.send(1)
        }
        #expect(weakBroadcaster == nil)
        #expect(weakProbe == nil)
    }
}

@Suite("SerialQueue")
struct SerialQueueTests {
    @Test("items submitted while one is processed wait, first in first out, never nested")
    func fifo() {
        let queue = SerialQueue<Int>()
        var log: [String] = []
        func submit(_ item: Int) {
            queue.submit(item) { item in
                log.append("begin \(item)")
                #expect(queue.isProcessing)
                if item == 1 {
                    submit(2)
                    submit(3)
                }
                if item == 2 { submit(4) }
                log.append("end \(item)")
            }
        }
        submit(1)
        #expect(log == ["begin 1", "end 1", "begin 2", "end 2", "begin 3", "end 3", "begin 4", "end 4"])
        #expect(!queue.isProcessing)
        submit(5)
        #expect(log.suffix(2) == ["begin 5", "end 5"])
    }

    @Test("runIfIdle runs its body as the item in process when idle, and refuses while processing")
    func runIfIdle() {
        let queue = SerialQueue<Int>()
        var log: [String] = []
        func process(_ item: Int) {
            log.append("item \(item)")
            let ran = queue.runIfIdle({ log.append("never") }, then: process)
            #expect(!ran)
        }
        let ran = queue.runIfIdle(
            {
                log.append("body")
                #expect(queue.isProcessing)
                queue.submit(1, process)
                queue.submit(2, process)
                log.append("body end")
            }, then: process)
        #expect(ran)
        #expect(log == ["body", "body end", "item 1", "item 2"])
        #expect(!queue.isProcessing)
    }
}
