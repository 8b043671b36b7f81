// expect-error: no exact matches in call to instance method 'then' || cannot convert value of type '@Sendable (isolated Counter)
// A method isolated to an actor instance cannot be called synchronously from a chain.
import Signals

actor Counter {
    var total = 0
    func add(_ value: Int) { total += value }
}

func connect(_ signal: Signal<Int>, to counter: Counter, in observables: ObservableCollection) {
    signal.fired.then(call: Counter.add, on: counter).append(to: observables)
}
