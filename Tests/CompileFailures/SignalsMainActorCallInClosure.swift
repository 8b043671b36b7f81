// expect-error: call to main actor-isolated instance method 'show' in a synchronous nonisolated context
// A modifier's closure is nonisolated, even when the chain is built on the main actor.
import Signals

@MainActor final class Screen {
    var shown: [Int] = []
    func show(_ value: Int) -> Int {
        shown.append(value)
        return value
    }
}

@MainActor func connect(_ signal: Signal<Int>, to screen: Screen, in observables: ObservableCollection) {
    signal.fired.map { screen.show($0) }.append(to: observables)
}
