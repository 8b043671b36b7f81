import Foundation
import ReactiveCore
import Resin
import TestSupport
import Testing

private struct Entries: Codable, Equatable, Sendable {
    var values: [Int]
}

private struct Ledger: Equatable {
    var entries: Entries
    var title = ""
}

private struct Bump: Action { var index: Int }
private struct Rename: Action { var title: String }
private struct Touch: Action {}

/// A root store of `size` entries with a reducer for each action, on a test scheduler and an
/// in-memory storage.
@MainActor
private final class LedgerStore {
    let scheduler = TestScheduler()
    let store: Store<Ledger>
    let storage = PersistenceStorage.inMemory()
    private var registrations: [Connection] = []

    init(size: Int) {
        var dependencies = Dependencies()
        dependencies.persistenceStorage = storage
        store = Store(
            initialState: Ledger(entries: Entries(values: Array(repeating: 0, count: size))), scheduler: scheduler,
            dependencies: dependencies)
        registrations = [
            store.register(Reducer<Ledger, Bump> { ledger, bump in ledger.entries.values[bump.index] += 1 }),
            store.register(Reducer<Ledger, Rename> { ledger, rename in ledger.title = rename.title }),
        ]
    }

    /// Where the entries' storage is now. Read from a copy that is let go at once, so that
    /// reading keeps nothing.
    var entriesAddress: Int {
        store.state.value.entries.values.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) }
    }

    func persist() -> Persistence<Entries> {
        store.focus(\.entries).persist(
            .inMemory("ledger"), debounce: .seconds(60), maximumDelay: .seconds(600), pollInterval: nil)
    }

    func stored() throws -> Entries? {
        try storage.data(at: .memory("ledger")).map { try JSONDecoder().decode(Entries.self, from: $0) }
    }
}

@Suite("Resin: a persisted part costs per change what a small one costs")
@MainActor
struct PersistenceScaleTests {
    @Test("a change of a persisted part nobody observes is made in place: the part is not copied, whatever its size")
    func changedInPlace() throws {
        let ledger = LedgerStore(size: 10_000)
        let persistence = ledger.persist()
        persistence.flush()
        // The write keeps what it wrote (to tell the next change), so the first change copies.
        ledger.store.dispatch(Bump(index: 1))
        for index in [7, 9_999, 3] {
            let before = ledger.entriesAddress
            ledger.store.dispatch(Bump(index: index))
            // A copy is made while the old storage lives, so it lies elsewhere.
            #expect(ledger.entriesAddress == before, "the change of entry \(index) copied the entries")
        }
        #expect(persistence.hasPendingChanges)
        persistence.flush()
        var expected = Array(repeating: 0, count: 10_000)
        for index in [1, 7, 9_999, 3] { expected[index] += 1 }
        #expect(try ledger.stored() == Entries(values: expected))
        #expect(!persistence.hasPendingChanges)
        #expect(persistence.writeCount == 2)
    }

    @Test("a change beside the persisted part is not written; a change back to what is stored is not either")
    func noOps() throws {
        let ledger = LedgerStore(size: 100)
        let persistence = ledger.persist()
        persistence.flush()
        #expect(persistence.writeCount == 1)
        ledger.store.dispatch(Rename(title: "March"))
        #expect(!persistence.hasPendingChanges, "the title is not part of the persisted entries")
        ledger.store.dispatch(Bump(index: 4))
        #expect(persistence.hasPendingChanges)
        // Undone by hand: the entries are what is stored again.
        let undo = ledger.store.register(Reducer<Ledger, Touch> { ledger, _ in ledger.entries.values[4] -= 1 })
        ledger.store.dispatch(Touch())
        #expect(!persistence.hasPendingChanges)
        ledger.scheduler.advance(by: .seconds(61))
        #expect(persistence.writeCount == 1, "nothing new was written")
        undo.disconnect()
    }

    @Test("an action that leaves a persisted part equal wakes no observer of the store")
    func unchangedPartWakesNobody() {
        let ledger = LedgerStore(size: 100)
        let persistence = ledger.persist()
        var rootWakes = 0
        let root = ledger.store.state.observe { _ in rootWakes += 1 }
        let wakesAtStart = rootWakes
        // No store object of the focus is kept: only the persistence and this reducer hold it.
        let same = ledger.store.focus(\.entries).register(Reducer<Entries, Touch> { entries, _ in entries = entries })
        ledger.store.dispatch(Touch())
        #expect(rootWakes == wakesAtStart)
        _ = (persistence, root, same)
    }

    @Test(
        "a middleware that dispatches as the persistence loads is answered after the load; the focus goes with the persistence"
    )
    func reentrantLoadAndLifetime() throws {
        let ledger = LedgerStore(size: 10)
        try ledger.storage.store(
            JSONEncoder().encode(Entries(values: Array(repeating: 5, count: 10))), at: .memory("ledger"))
        let middleware = ledger.store.register(
            Middleware<Ledger> { action, context in
                // Queued behind the load: it changes the loaded entries, not the ones before.
                if action is PersistedStateLoaded<Entries> { context.dispatch(Bump(index: 0)) }
                return .pass
            })
        var persistence: Persistence<Entries>? = ledger.persist()
        #expect(ledger.store.state.value.entries.values == [6] + Array(repeating: 5, count: 9))
        #expect(persistence?.hasPendingChanges == true)
        #expect(ledger.store.focusChildCountForTesting == 1, "the focus lives while the persistence does")
        persistence = nil
        #expect(try ledger.stored()?.values[0] == 6, "released, it wrote what was pending")
        #expect(ledger.store.focusChildCountForTesting == 0, "and let go of its focus")
        middleware.disconnect()
    }
}
