// expect-error: loses global actor 'MainActor'
// A closure isolated to the main actor cannot be a `then(do:)` action: the action runs on the
// chain's executor. Use `then(call:on:)` with a main-actor method, which runs on the main actor.
import Signals

@MainActor final class Screen {
    var shown: [Int] = []
    func show(_ value: Int) { shown.append(value) }
}

@MainActor func connect(_ signal: Signal<Int>, to screen: Screen, in observables: ObservableCollection) {
    signal.fired.then { @MainActor value in screen.show(value) }.append(to: observables)
}
