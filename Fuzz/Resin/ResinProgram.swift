import FuzzSupport
import Incremental
import ReactiveCore
import Resin

/// A program decoded from bytes for a store: reducers of several kinds registered and
/// unregistered on the root, on stored properties, on array positions and on elements by id;
/// dispatches from the program and from observers while they are told of a change; observers
/// of foci added and dropped. The reference is a plain value to which the registered
/// reducers' rules are applied, in registration order, for each action. After every step,
/// the store's state must equal the reference and every observer's last value its focus's
/// value on the reference. Middleware that asks for effects comes and goes: for a `Bump` it
/// sends an `Add` (which the reference applies with the `Bump`: additions commute), for an
/// `Insert` it runs an effect under the element's id, for a `Remove` it cancels that effect;
/// the scheduler advances, so effects finish and their ends come back. The engine's internal
/// checks (R5: no effect starts while an action is processed) run throughout. Once the
/// program drops everything, the store must be freed. Any difference stops the process.
enum ResinProgram {
    struct Item: Identifiable, Hashable {
        let id: Int
        var value: Int
    }

    struct State: Hashable {
        var slots = [0, 0, 0, 0]
        var items: [Item] = []
        var total = 0
    }

    struct Add: Action {
        var slot: Int
        var by: Int
    }
    struct Bump: Action { var id: Int }
    struct Insert: Action { var id: Int }
    struct Remove: Action { var id: Int }

    /// What a registration does, on the reference.
    enum Rule {
        /// On the root: `total += by` for every `Add`.
        case total
        /// On `slots[slot]`: `+= by` for an `Add` to that slot.
        case slot(Int)
        /// On the element with `id`, while present: `value += 1` for a `Bump` of it.
        case bump(Int)
        /// On `items`: appends an absent id for `Insert`, removes a present one for `Remove`.
        case membership

        func apply(_ action: any Action, to state: inout State) {
            switch (self, action) {
            case (.total, let add as Add): state.total &+= add.by
            case (.slot(let slot), let add as Add) where add.slot == slot: state.slots[slot] &+= add.by
            case (.bump(let id), let bump as Bump) where bump.id == id:
                if let index = state.items.firstIndex(where: { $0.id == id }) { state.items[index].value += 1 }
            case (.membership, let insert as Insert):
                if !state.items.contains(where: { $0.id == insert.id }) {
                    state.items.append(Item(id: insert.id, value: 0))
                }
            case (.membership, let remove as Remove):
                state.items.removeAll { $0.id == remove.id }
            default: break
            }
        }

        func register(on store: Store<State>) -> Connection {
            switch self {
            case .total:
                return store.register(Reducer<State, Add> { $0.total &+= $1.by })
            case .slot(let slot):
                return store.focus(\.slots[slot]).register(
                    Reducer<Int, Add> { value, add in if add.slot == slot { value &+= add.by } })
            case .bump(let id):
                return store.focus(\.items, id: id).register(
                    presentOnly: Reducer<Item, Bump> { item, bump in if bump.id == id { item.value += 1 } })
            case .membership:
                let items = store.focus(\.items)
                return Connection(grouping: [
                    items.register(
                        Reducer<[Item], Insert> { items, insert in
                            if !items.contains(where: { $0.id == insert.id }) {
                                items.append(Item(id: insert.id, value: 0))
                            }
                        }),
                    items.register(Reducer<[Item], Remove> { items, remove in items.removeAll { $0.id == remove.id } }),
                ])
            }
        }
    }

    /// What an observer watches, and what it was told last.
    final class Watch {
        let read: (State) -> AnyHashable
        var last: AnyHashable?
        var connection: Connection?
        /// An action it dispatches once, the next time it is told of a change.
        var pending: (any Action)?
        /// How it dispatches: to the store, from inside the delivery, and to the reference.
        var dispatching: ((any Action) -> Void)?

        init(read: @escaping (State) -> AnyHashable) {
            self.read = read
        }
    }

    static func action(_ reader: inout ProgramReader) -> any Action {
        switch reader.small(4) {
        case 0: Add(slot: reader.small(4), by: reader.small(9) - 4)
        case 1: Bump(id: reader.small(5))
        case 2: Insert(id: reader.small(5))
        default: Remove(id: reader.small(5))
        }
    }

    /// Middleware asking for effects: a sent `Add` for a `Bump`, an effect under the element's
    /// id for an `Insert` (it ends at once), its cancellation for a `Remove`.
    static func effectMiddleware() -> Middleware<State> {
        Middleware { action, context in
            switch action {
            case let bump as Bump: context.perform(Effect<any Action>.send(Add(slot: bump.id % 4, by: 1)))
            case let insert as Insert: context.run(id: "item \(insert.id)") { _ in }
            case let remove as Remove: context.cancel(id: "item \(remove.id)")
            default: break
            }
            return .pass
        }
    }

    /// Runs the program `bytes` decodes.
    static func run(_ bytes: [UInt8]) {
        var reader = ProgramReader(bytes)
        weak var weakStore: Store<State>?
        do {
            let scheduler = TestScheduler()
            let store = Store(initialState: State(), scheduler: scheduler)
            weakStore = store
            var reference = State()
            var registrations: [(rule: Rule, connection: Connection)] = []
            var effects: Connection?
            var watches: [Watch] = []
            var queued: [any Action] = []

            func dispatch(_ action: any Action) {
                queued.append(action)
                // Dispatched by an observer during a delivery: the store queues it behind the
                // action under way, and so does the reference.
                guard queued.count == 1 else {
                    store.dispatch(action)
                    return
                }
                store.dispatch(action)
                // The reference: one action at a time, those dispatched meanwhile after it.
                while let next = queued.first {
                    for registration in registrations { registration.rule.apply(next, to: &reference) }
                    if effects != nil, let bump = next as? Bump {
                        let sent = Add(slot: bump.id % 4, by: 1)
                        for registration in registrations { registration.rule.apply(sent, to: &reference) }
                    }
                    queued.removeFirst()
                }
            }

            func watch(_ which: Int) -> Watch {
                let watch: Watch
                switch which % 4 {
                case 0:
                    watch = Watch { AnyHashable($0.total) }
                    watch.connection = store.focus(\.total).state.observe { [unowned watch] in watch.told($0) }
                case 1:
                    let slot = which / 4 % 4
                    watch = Watch { AnyHashable($0.slots[slot]) }
                    watch.connection = store.focus(\.slots[slot]).state.observe { [unowned watch] in watch.told($0) }
                case 2:
                    let id = which / 4 % 5
                    watch = Watch { state in AnyHashable(state.items.first { $0.id == id }) }
                    watch.connection = store.focus(\.items, id: id).state.observe { [unowned watch] in watch.told($0) }
                default:
                    watch = Watch { AnyHashable($0) }
                    watch.connection = store.state.observe { [unowned watch] in watch.told($0) }
                }
                return watch
            }

            while let opcode = reader.next() {
                switch opcode % 8 {
                case 6:
                    if let registered = effects {
                        registered.disconnect()
                        effects = nil
                    } else {
                        effects = store.register(effectMiddleware())
                    }
                case 7:
                    scheduler.advance(by: .seconds(reader.small(3)))
                case 0, 1:
                    dispatch(action(&reader))
                case 2 where registrations.count < 12:
                    let rule: Rule
                    switch reader.small(4) {
                    case 0: rule = .total
                    case 1: rule = .slot(reader.small(4))
                    case 2: rule = .bump(reader.small(5))
                    default: rule = .membership
                    }
                    registrations.append((rule, rule.register(on: store)))
                case 3:
                    guard let index = reader.index(below: registrations.count) else { break }
                    registrations.remove(at: index).connection.disconnect()
                case 4 where watches.count < 12:
                    let made = watch(reader.small(80))
                    made.dispatching = { dispatch($0) }
                    watches.append(made)
                default:
                    if let index = reader.index(below: watches.count) {
                        if reader.small(2) == 0 {
                            watches.remove(at: index).connection?.disconnect()
                        } else {
                            watches[index].pending = action(&reader)
                        }
                    }
                }
                precondition(
                    store.state.value == reference,
                    "ResinFuzz: the store holds \(store.state.value), the reference \(reference)")
                for watch in watches {
                    precondition(
                        watch.last == watch.read(reference),
                        "ResinFuzz: an observer was last told \(String(describing: watch.last)), the reference says \(watch.read(reference))"
                    )
                }
            }
            for watch in watches { watch.connection?.disconnect() }
            for registration in registrations { registration.connection.disconnect() }
            effects?.disconnect()
        }
        precondition(weakStore == nil, "ResinFuzz: the store outlived its registrations and observers")
    }
}

extension ResinProgram.Watch {
    /// Records what the observer was told and, if it holds an action, dispatches it (once).
    func told<Value: Hashable>(_ value: Value) {
        last = AnyHashable(value)
        if let action = pending {
            pending = nil
            dispatching?(action)
        }
    }
}
