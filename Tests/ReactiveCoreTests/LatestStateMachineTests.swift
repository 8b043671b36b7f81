import TestSupport
import Testing

@testable import ReactiveCore

/// `machine.begin()`, which must not be `nil`.
private func begin(_ machine: inout LatestStateMachine<String>) throws -> (LatestTicket, String?) {
    let begun = machine.begin()
    return try #require(begun)
}

@Suite("The switch-to-latest state machine")
struct LatestStateMachineTests {
    @Test("each value supersedes the work before it; only the current work's result passes")
    func supersedes() throws {
        var machine = LatestStateMachine<String>()
        #expect(!machine.isRunning)
        let (first, none) = try begin(&machine)
        #expect(none == nil)
        #expect(machine.started("a", for: first) == nil)
        #expect(machine.result(of: first) == .pass)
        let (second, superseded) = try begin(&machine)
        #expect(superseded == "a")
        #expect(machine.result(of: first) == .drop)
        #expect(machine.started("b", for: second) == nil)
        #expect(machine.result(of: second) == .pass)
        machine.finished(first)  // a superseded work's end changes nothing
        #expect(machine.isRunning)
        machine.finished(second)
        #expect(!machine.isRunning)
        #expect(machine.result(of: second) == .drop)
    }

    @Test("work started for a ticket already superseded is handed back to cancel")
    func lateStart() throws {
        var machine = LatestStateMachine<String>()
        let (first, _) = try begin(&machine)
        let (second, superseded) = try begin(&machine)
        #expect(superseded == nil)  // the first had not started yet
        #expect(machine.started("a", for: first) == "a")
        #expect(machine.started("b", for: second) == nil)
        #expect(machine.cancel() == "b")
    }

    @Test("after cancel, nothing begins and no result passes")
    func cancelled() throws {
        var machine = LatestStateMachine<String>()
        let (ticket, _) = try begin(&machine)
        #expect(machine.cancel() == nil)  // begun, not started: nothing to cancel
        #expect(machine.result(of: ticket) == .drop)
        #expect(machine.begin() == nil)
        #expect(machine.cancel() == nil)
    }

    @Test(
        "random begins, starts, ends and results match a reference that keeps the latest ticket",
        arguments: [1, 2, 3] as [UInt64])
    func modelBased(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var machine = LatestStateMachine<Int>()
        var tickets: [LatestTicket] = []
        var latest: Int?  // index of the current ticket in `tickets`, nil when idle
        var started: [Int: Int] = [:]  // ticket index → work
        var cancelled: Set<Int> = []
        for step in 0..<2_000 {
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                let (ticket, superseded) = machine.begin()!
                let expected = latest.flatMap { started[$0] }
                #expect(superseded == expected, "seed \(seed), step \(step)")
                if let superseded { cancelled.insert(superseded) }
                tickets.append(ticket)
                latest = tickets.count - 1
            case 1 where !tickets.isEmpty:
                let index = Int.random(in: 0..<tickets.count, using: &random)
                guard started[index] == nil else { continue }
                started[index] = step
                let handedBack = machine.started(step, for: tickets[index])
                #expect((handedBack == nil) == (index == latest), "seed \(seed), step \(step)")
            case 2 where !tickets.isEmpty:
                let index = Int.random(in: 0..<tickets.count, using: &random)
                machine.finished(tickets[index])
                if index == latest { latest = nil }
            default:
                guard !tickets.isEmpty else { continue }
                let index = Int.random(in: 0..<tickets.count, using: &random)
                #expect(
                    (machine.result(of: tickets[index]) == .pass) == (index == latest), "seed \(seed), step \(step)")
            }
            #expect(machine.isRunning == (latest != nil))
        }
    }
}
