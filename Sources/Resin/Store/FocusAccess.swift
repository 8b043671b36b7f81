import Incremental
import ReactiveCore

/// Lets a focus tell whether its part is an absent optional without knowing its type.
protocol OptionalPart {
    var isNone: Bool { get }
}

extension Optional: OptionalPart {
    var isNone: Bool { self == nil }
}

/// Reads and writes one focus's state in the root state, and keeps its graph input.
///
/// Ownership keeps a focus in the tree exactly while it is needed: the input owns the
/// access (``Input/owner``), the access owns its ``FocusNode``, and a node owns its parent.
/// So a focus lives while its state input lives (held by a store object, an observer, a
/// derived value), while a registration on it lives (it holds the access), or while a focus
/// inside it lives (its reads go through this access). The node and the access refer to
/// the input weakly; when the input is gone and the focus is still needed (a registration),
/// the next store object for it makes a new input.
class FocusAccess<State>: FocusRefreshing, InputOwner {
    let get: () -> State
    let modify: ((inout State) -> Void) -> Void
    let node: FocusNode
    /// The focus's cutoff: `==` for `Equatable` slices, `===` for class instances.
    let isEqual: ((State, State) -> Bool)?
    private unowned let graph: Graph
    /// The live input. Not retained (it owns this access) and not weak (a weak reference
    /// would slow every retain of the input): the input clears it in its `deinit`
    /// (``inputWillEnd()``).
    private unowned(unsafe) var weakInput: Input<State>?
    /// The part as last refreshed, to tell a change, kept while an input lives or the focus
    /// has foci inside it (whose refresh a change decides). It shares its storage with the
    /// input's value (copy-on-write), so it costs no copy the input would not cost; a focus
    /// that neither an input nor a focus inside it reads keeps nothing, so that a reducer
    /// changes its part in place (see ``refresh()``).
    private var last: State?
    /// What is told when the part may have changed (a ``Persistence``), by number.
    private var watchers: [Int: () -> Void] = [:]
    private var nextWatcher = 0

    init(
        node: FocusNode, graph: Graph, get: @escaping () -> State,
        modify: @escaping ((inout State) -> Void) -> Void
    ) {
        self.get = get
        self.modify = modify
        self.node = node
        self.graph = graph
        isEqual = Cutoff<State>.default.isEqual
        node.refresher = self
    }

    deinit {
        node.refresher = nil
    }

    func inputWillEnd() {
        weakInput = nil
        if !comparesPart { last = nil }
    }

    /// Whether the focus keeps its part to tell a change: while an input lives (its
    /// observers wake only on a change), a focus inside it does (its refresh follows this
    /// one's change), or a reducer of its own may leave it as it was (an action that changes
    /// nothing wakes nobody).
    private var comparesPart: Bool {
        weakInput != nil || node.hasChildren || node.comparedReducers > 0
    }

    /// Calls `watcher` after each refresh that may have changed the part, until the returned
    /// connection disconnects. It is told in the commit of the action, before observers are;
    /// it may be told of a change that left the part as it was (a focus nobody reads is not
    /// compared: see ``refresh()``), so a watcher compares when it needs to know.
    func watch(_ watcher: @escaping () -> Void) -> Connection {
        let number = nextWatcher
        nextWatcher += 1
        watchers[number] = watcher
        return Connection(isolated: { [weak self] in self?.watchers[number] = nil })
    }

    /// Tells every watcher that the part may have changed.
    final func notifyWatchers() {
        guard !watchers.isEmpty else { return }
        for watcher in watchers.values { watcher() }
    }

    /// The focus's state input: the live one, or a new one holding the current part.
    var input: Input<State> {
        if let input = weakInput { return input }
        let input = makeInput()
        input.owner = self
        weakInput = input
        return input
    }

    func makeInput() -> Input<State> {
        let value = get()
        last = value
        return graph.input(value)
    }

    func refresh() -> Bool {
        guard comparesPart else {
            // Nothing needs to tell a change of the part from an action that left it as it
            // was: no input (observers), no focus inside it, no reducer of its own that may
            // leave it unchanged. So it is neither compared nor kept (a copy kept here would
            // make the next reducer copy the whole part, and comparing costs what the part
            // is big), and counts as changed: it is refreshed only by a change above it or
            // beside it, or by a reducer that always changes it, and nothing climbs from it
            // but to its watchers, who compare when they need to.
            last = nil
            notifyWatchers()
            return true
        }
        let value = get()
        if let isEqual, let last, isEqual(last, value) { return false }
        last = value
        weakInput?.write(value)
        notifyWatchers()
        return true
    }

    var isAbsent: Bool {
        (get() as? any OptionalPart)?.isNone ?? false
    }
}

/// The engine of a root store.
///
/// The root state lives in the root graph input itself and is mutated there in place: a
/// second copy would make every dispatch copy the whole state (copy-on-write), so a change
/// to one of 1,000 parts would cost as much as the state is big.
final class RootEngine<Root>: Engine {
    private(set) var rootInput: Input<Root>!

    init(state: Root, scheduler: any Scheduler, dependencies: Dependencies) {
        super.init(scheduler: scheduler, dependencies: dependencies)
        rootInput = graph.input(state)
        rootInput.setCutoff(.alwaysPropagate)
    }
}

/// The root focus: reads and mutates the state inside the root input, which the engine
/// keeps.
final class RootAccess<Root>: FocusAccess<Root> {
    private let rootInput: Input<Root>

    init(engine: RootEngine<Root>, node: FocusNode) {
        let input = engine.rootInput!
        rootInput = input
        super.init(
            node: node, graph: engine.graph,
            get: { input.value },
            modify: { body in input.mutateWithoutPropagating(body) })
    }

    /// The root input, which the engine owns; it does not own this access (that would be a
    /// cycle through `rootInput`): the root store and the foci inside it do.
    override var input: Input<Root> { rootInput }

    /// The root state always changes: comparing a whole app state would cost as much as it
    /// is big.
    override func refresh() -> Bool {
        rootInput.markChanged()
        notifyWatchers()
        return true
    }

    override var isAbsent: Bool { false }
}
