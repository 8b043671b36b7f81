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
    /// The part as last refreshed, to tell a change also while no input lives. It shares
    /// its storage with the input's value (copy-on-write), so it costs no copy the input
    /// would not cost.
    private var last: State?

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
        let value = get()
        if let isEqual, let last, isEqual(last, value) { return false }
        last = value
        weakInput?.write(value)
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
        return true
    }

    override var isAbsent: Bool { false }
}
