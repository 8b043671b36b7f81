import Foundation
import ReactiveCore

// Effects: starting, pacing, cancelling and finishing what reducers ask for, and the inbox
// that brings their actions back. Documentation/Internals/Resin.md says why a running
// effect's unowned(unsafe) owner is always alive.

extension Engine {
    /// Makes what effects post reach the store through the scheduler, in the domain that
    /// created the store.
    func deliverEffectsAutomatically() {
        takesEffectActionsManually = false
        let drain = IsolatedClosure { [weak self] in self?.drainInbox() }
        let scheduler = scheduler
        // Weak: the inbox holds this closure, so a strong capture would be a cycle that
        // leaks the inbox and the scheduler with every store (found by LeakSanitizer).
        inbox.setWake { [weak inbox] in
            inbox?.keep(scheduler.schedule(after: .zero) { drain() })
        }
    }

    /// Starts `effect` for `owner` once the action being processed has been, or now.
    func perform(_ steps: [EffectStep], owner: FocusNode) {
        let steps = scoped(steps, for: owner)
        if isProcessing {
            pendingEffects.append((steps, owner))
        } else {
            start(steps, owner: owner)
            checkInvariants()
        }
    }

    /// The scope of the effects `owner`'s registrations ask for: that of the nearest presented
    /// child or stack element it is in (the feature instance), else the store's own, `0`.
    func effectScope(of owner: FocusNode) -> Int {
        // No presented child or stack element anywhere: every effect is in the store's scope.
        guard overridingFoci > 0 else { return 0 }
        var node: FocusNode? = owner
        while let current = node {
            if current.effectScope != 0 { return current.effectScope }
            node = current.effectParent
        }
        return 0
    }

    /// `steps` with their ids in the scope of `owner` (see ``EffectID``).
    func scoped(_ steps: [EffectStep], for owner: FocusNode) -> [EffectStep] {
        let scope = effectScope(of: owner)
        return scope == 0 ? steps : steps.map { $0.scoped(to: scope) }
    }

    func start(_ steps: [EffectStep], owner: FocusNode?, sequence: Int? = nil, cause: StoreTask? = nil) {
        #if RESIN_INTERNAL_CHECKS
            // R5: effects start only between actions, after reduce and commit. A running
            // effect's `unowned(unsafe)` owner and a `StoreTask`'s count rely on it.
            resinCheck(!isProcessing, "R5", "an effect started while an action was being processed")
        #endif
        // A focus whose part is gone (its element was removed, by the same action or since a
        // debounce took the effect) starts nothing: what it would start could never be
        // cancelled by the focus, which already went. Its cancellations still apply.
        // A replay starts nothing either: the actions effects sent are in the log it replays.
        let steps = isReplaying || owner?.isInAbsentPart == true ? steps.filter(\.isCancellation) : steps
        for step in steps {
            switch step {
            case .run(let ids, let operation):
                startRun(ids: ids, operation, owner: owner, sequence: sequence, cause: cause)
            case .send(let action):
                if takesEffectActionsManually {
                    // A test store receives it like any action an effect sends.
                    inbox.post(.action(action, EffectHandle(number: -1)))
                } else {
                    dispatch(action)
                }
            case .cancel(let id):
                cancelEffects(id: id)
                removePacer(id)?.cancel()
            case .cancelRunning(let id):
                cancelEffects(id: id)
            case .pace(let id, let rule, let pause, let inner):
                pace(inner, id: id, rule: rule, pause: pause, owner: owner)
            case .concatenate(let ids, let groups):
                startSequence(ids: ids, groups: groups, owner: owner, parent: sequence, cause: cause)
            }
        }
    }

    func pace(_ steps: [EffectStep], id: EffectID, rule: PacingRule, pause: Duration, owner: FocusNode?) {
        let pacer: Pacer<PacedEffect>
        if let existing = pacers[id], existing.rule == rule, pauses[id] == pause {
            pacer = existing
        } else {
            pacers[id]?.cancel()
            pacer = Pacer(rule, pause: pause, scheduler: scheduler) { [weak self] paced in
                guard let self else { return }
                start(paced.steps, owner: paced.owner)
                if let current = pacers[id], !current.isPacing { removePacer(id) }
            }
            pacer.onIdle = { [weak self] in
                if let self, let current = pacers[id], !current.isPacing { removePacer(id) }
            }
            pacers[id] = pacer
            pauses[id] = pause
        }
        owner?.ownedPacers.insert(id)
        pacer.send(PacedEffect(steps: steps, owner: owner, ownerID: owner.map(ObjectIdentifier.init)))
        if !pacer.isPacing, pacers[id] === pacer { removePacer(id) }
    }

    /// Forgets the pacer for `id` (and its pause); returns it.
    @discardableResult
    func removePacer(_ id: EffectID) -> Pacer<PacedEffect>? {
        pauses[id] = nil
        return pacers.removeValue(forKey: id)
    }

    func startRun(
        ids: [EffectID], _ operation: @escaping @Sendable (Send<any Action>) async -> Void, owner: FocusNode?,
        sequence: Int?, cause: StoreTask?
    ) {
        let number = nextEffect
        nextEffect += 1
        let handle = EffectHandle(number: number)
        let send = Send<any Action>(inbox: inbox, handle: handle)
        let inbox = inbox
        let dependencies = overridingFoci == 0 ? dependencies : dependencies(for: owner, send: send)
        let task = Task {
            await Dependencies.$current.withValue(dependencies) {
                await Dependencies.$readingEffect.withValue(handle) { await operation(send) }
            }
            // What the effect's `send` is given from now on comes from a task that outlived
            // it: reported and dropped.
            handle.complete()
            inbox.post(.finished(handle))
        }
        running[number] = RunningEffect(
            ids: ids, handle: handle, task: task, owner: owner, sequence: sequence, cause: cause)
        cause?.runs.insert(number)
        for id in ids { runningByID[id, default: []].insert(number) }
        owner?.ownedEffects.insert(number)
        if let sequence { sequences[sequence]?.members.insert(.run(number)) }
    }

    /// The store's dependencies as changed by the overrides of `owner` and the foci it is
    /// inside, the outermost first, so the nearest wins.
    func dependencies(for owner: FocusNode?, send: Send<any Action>) -> Dependencies {
        var overrides: [DependencyOverride] = []
        var node = owner
        while let current = node {
            if let override = current.dependencyOverride { overrides.append(override) }
            node = current.effectParent
        }
        var result = dependencies
        for override in overrides.reversed() { override(&result, send) }
        return result
    }

    /// Cancels the concatenations and the effects running under `id`; forgets them at once.
    /// A concatenation that goes takes what it has not started with it. An effect cancelled
    /// inside a concatenation that goes on ends its part: the next part starts.
    func cancelEffects(id: EffectID) {
        for number in sequencesByID[id] ?? [] { cancelSequence(number, advancingParent: true) }
        for number in runningByID[id] ?? [] { cancel(number: number) }
    }

    func cancel(number: Int) {
        guard let effect = running[number] else { return }
        forget(number, effect)
        endCancelled(number, effect)
        if let sequence = effect.sequence { advance(sequence, past: .run(number)) }
    }

    /// Cancels the forgotten effect `number`, and keeps it among the ``ending`` effects until
    /// its task ends.
    private func endCancelled(_ number: Int, _ effect: RunningEffect) {
        ending[number] = describe(effect)
        effect.handle.cancel()
        effect.task.cancel()
    }

    /// Forgets the running effect `number` everywhere the engine lists it.
    private func forget(_ number: Int, _ effect: RunningEffect) {
        running[number] = nil
        for id in effect.ids { removeNumber(number, under: id, from: &runningByID) }
        effect.owner?.ownedEffects.remove(number)
        effect.cause?.ended(run: number)
    }

    private func removeNumber(_ number: Int, under id: EffectID, from index: inout [EffectID: Set<Int>]) {
        guard var numbers = index[id] else { return }
        numbers.remove(number)
        index[id] = numbers.isEmpty ? nil : numbers
    }

    /// Cancels what `task`'s action started and still runs: its outermost concatenations
    /// (with the parts they have not started), then its effects.
    func cancel(_ task: StoreTask) {
        for number in task.sequences {
            // The ones it started inside its own go with them.
            guard let sequence = sequences[number] else { continue }
            if let parent = sequence.parent, task.sequences.contains(parent) { continue }
            cancelSequence(number, advancingParent: true)
        }
        for number in task.runs { cancel(number: number) }
        checkInvariants()
    }

    /// Cancels every concatenation, effect, debounce and throttle under way; returns how
    /// many there were.
    func cancelEverything() -> Int {
        let count = sequences.count + running.count + pacers.count
        for (number, sequence) in sequences where sequence.parent == nil {
            cancelSequence(number, advancingParent: false)
        }
        for number in running.keys { cancel(number: number) }
        for id in Array(pacers.keys) { removePacer(id)?.cancel() }
        checkInvariants()
        return count
    }

    // MARK: Concatenations

    func startSequence(ids: [EffectID], groups: [[EffectStep]], owner: FocusNode?, parent: Int?, cause: StoreTask?) {
        let number = nextSequence
        nextSequence += 1
        sequences[number] = RunningSequence(
            ids: ids, groups: groups[...], owner: owner, ownerID: owner.map(ObjectIdentifier.init), parent: parent,
            cause: cause)
        cause?.sequences.insert(number)
        for id in ids { sequencesByID[id, default: []].insert(number) }
        if let parent { sequences[parent]?.members.insert(.sequence(number)) }
        advance(number, past: nil)
    }

    /// Notes that `member` of concatenation `number` ended; once its current group has
    /// nothing running, starts the next one, or ends the concatenation after its last.
    func advance(_ number: Int, past member: SequenceMember?) {
        #if RESIN_INTERNAL_CHECKS
            resinCheck(!isProcessing, "R6", "a concatenation moves on while an action is processed")
        #endif
        if let member { sequences[number]?.members.remove(member) }
        while let sequence = sequences[number], sequence.members.isEmpty {
            guard let group = sequence.groups.first else {
                endSequence(number)
                return
            }
            sequences[number]?.groups.removeFirst()
            start(group, owner: sequence.owner, sequence: number, cause: sequence.cause)
        }
    }

    /// Forgets a concatenation that ran its last group, and moves its parent on.
    private func endSequence(_ number: Int) {
        guard let sequence = sequences.removeValue(forKey: number) else { return }
        for id in sequence.ids { removeNumber(number, under: id, from: &sequencesByID) }
        sequence.cause?.ended(sequence: number)
        if let parent = sequence.parent { advance(parent, past: .sequence(number)) }
    }

    /// Cancels a concatenation: what it runs, the concatenations it started, and the groups
    /// it has not started. Its parent moves on if `advancingParent` (a parent being cancelled
    /// does not).
    func cancelSequence(_ number: Int, advancingParent: Bool) {
        guard let sequence = sequences.removeValue(forKey: number) else { return }
        for id in sequence.ids { removeNumber(number, under: id, from: &sequencesByID) }
        sequence.cause?.ended(sequence: number)
        for member in sequence.members {
            switch member {
            case .run(let run):
                guard let effect = running[run] else { continue }
                forget(run, effect)
                endCancelled(run, effect)
            case .sequence(let child):
                cancelSequence(child, advancingParent: false)
            }
        }
        if advancingParent, let parent = sequence.parent { advance(parent, past: .sequence(number)) }
    }

    /// Cancels what `node` and the foci inside it started and is still running or waiting: a
    /// presented child was replaced by one of another identity.
    func cancelEffects(inside node: FocusNode) {
        if node.hasOwnedEffects { cancelEffects(ownedBy: node) }
        for child in node.childList() { cancelEffects(inside: child) }
    }

    /// Cancels what `node` started and is still running or waiting: its focus went away
    /// (freed, or its optional slice became absent).
    func cancelEffects(ownedBy node: FocusNode) {
        cancelEffects(numbers: node.ownedEffects, pacers: node.ownedPacers, owner: ObjectIdentifier(node))
        node.ownedEffects.removeAll()
        node.ownedPacers.removeAll()
    }

    /// Cancels the running effects `numbers`, and the debounces and throttles among `ids`
    /// that hold an effect of `owner`. A pacer holding another focus's effect (which asked
    /// under the same id after `owner` did) keeps it: that effect belongs to the focus that
    /// asked for it, and goes only with that focus.
    ///
    /// `owner` is an identifier, not a reference: this runs from the focus's `deinit`.
    func cancelEffects(numbers: Set<Int>, pacers ids: Set<EffectID>, owner: ObjectIdentifier) {
        // Its concatenations first, so that cancelling their effects starts nothing more; the
        // outermost ones only (a concatenation's groups run for its owner, so the ones it
        // started go with it, and it must not move on to its next group meanwhile).
        let owned = sequences.filter { $0.value.ownerID == owner }
        for (number, sequence) in owned where sequence.parent.map({ owned[$0] == nil }) ?? true {
            cancelSequence(number, advancingParent: true)
        }
        for number in numbers { cancel(number: number) }
        for id in ids {
            guard let held = pacers[id]?.held, held.ownerID == owner else { continue }
            removePacer(id)?.cancel()
        }
    }

    /// Dispatches what effects sent, in order, and forgets the effects that finished.
    /// Returns the actions it dispatched.
    @discardableResult
    func drainInbox() -> [any Action] {
        var dispatched: [any Action] = []
        for message in inbox.take() {
            switch message {
            case .action(let action, let handle):
                guard !handle.isCancelled else { continue }
                dispatched.append(action)
                dispatch(action)
            case .failed(let error, let handle):
                guard !handle.isCancelled else { continue }
                unhandledErrorHandler(error)
            case .sentAfterCompletion(let action):
                Engine.reportSentAfterCompletion(action)
            case .finished(let handle):
                forgetEffect(handle.number)
            }
        }
        checkInvariants()
        return dispatched
    }

    /// Whether an effect's action waits to be taken.
    var hasWaitingActions: Bool { inbox.hasWaitingActions }

    /// Forgets the effects that finished, and keeps the errors effects reported in
    /// `unhandledErrors` (a test store's mode).
    func takeFinished() {
        let (finished, failed, late) = inbox.takeFinishedAndFailed()
        for (error, handle) in failed where !handle.isCancelled { unhandledErrors.append(error) }
        sentAfterCompletion += late
        for handle in finished { forgetEffect(handle.number) }
        checkInvariants()
    }

    /// The errors effects threw that no `catch:` handler took, since the last call (a test
    /// store's mode).
    func takeUnhandledErrors() -> [any Error] {
        takeFinished()
        defer { unhandledErrors.removeAll() }
        return unhandledErrors
    }

    /// The actions effects' `send` was given after the effect completed, since the last call
    /// (a test store's mode); dropped, not dispatched.
    func takeSentAfterCompletion() -> [any Action] {
        takeFinished()
        defer { sentAfterCompletion.removeAll() }
        return sentAfterCompletion
    }

    /// Takes the next waiting action from an effect that was not cancelled, without
    /// dispatching it; forgets finished effects on the way, and keeps the errors it passes
    /// in `unhandledErrors` (a test store's mode).
    func takeNextAction() -> (any Action)? {
        while let message = inbox.popFirst() {
            switch message {
            case .action(let action, let handle):
                if !handle.isCancelled { return action }
            case .failed(let error, let handle):
                if !handle.isCancelled { unhandledErrors.append(error) }
            case .sentAfterCompletion(let action):
                sentAfterCompletion.append(action)
            case .finished(let handle):
                forgetEffect(handle.number)
            }
        }
        return nil
    }

    func forgetEffect(_ number: Int) {
        ending[number] = nil
        guard let effect = running[number] else { return }
        forget(number, effect)
        if let sequence = effect.sequence { advance(sequence, past: .run(number)) }
    }
}

/// An effect waiting in a debounce or a throttle, with the focus that asked for it.
struct PacedEffect {
    let steps: [EffectStep]
    /// Not retained: a focus cancels, in its `deinit`, the pacers that hold an effect of
    /// its own, which drops it; so a held effect's owner is alive.
    unowned(unsafe) let owner: FocusNode?
    /// The owner's identity, to compare while the owner's `deinit` runs (when the reference
    /// itself must not be loaded).
    let ownerID: ObjectIdentifier?
}

/// Writes a focus's current state into its graph input.
protocol FocusRefreshing: AnyObject {
    /// Writes the focus's part into its input; returns whether it changed (by the focus's
    /// cutoff; without one, or with no input alive, always).
    func refresh() -> Bool
    /// Whether the focus's part is an absent optional (an element that is gone).
    var isAbsent: Bool { get }
}

extension Engine {
    /// The action types a debug build has warned about going nowhere.
    private static let warnedWentNowhere = LockedState<Set<ObjectIdentifier>>([])

    /// The default ``actionWentNowhereHandler``: in a debug build, a line on standard error,
    /// once per action type; nothing in release.
    static func warnOnceWentNowhere(_ action: any Action, _ reason: String) {
        #if DEBUG
            guard warnedWentNowhere.withLock({ $0.insert(ObjectIdentifier(type(of: action))).inserted }) else {
                return
            }
            FileHandle.standardError.write(
                Data(
                    "Resin: \(action) went nowhere: \(reason); it changed nothing (warned once per action type)\n".utf8)
            )
        #endif
    }

    /// What a live store does with an action an effect's `send` was given after the effect
    /// completed: it drops it, and says so on standard error.
    static func reportSentAfterCompletion(_ action: any Action) {
        FileHandle.standardError.write(
            Data(
                "Resin: an effect sent \(action) after it completed, and the action was dropped; await the work that sends it inside the effect's operation\n"
                    .utf8))
    }

    /// The default ``Store/unhandledErrorHandler``: a line on standard error.
    static func reportUnhandledError(_ error: any Error) {
        FileHandle.standardError.write(
            Data(
                "Resin: an effect threw \(error), and no catch: handler took it; pass catch: to .run, or set the store's unhandledErrorHandler\n"
                    .utf8))
    }
}
