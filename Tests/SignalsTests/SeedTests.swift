import Dispatch
import Foundation
import Signals
import TestSupport
import Testing

@Suite("The seed's samples")
struct SeedTests {
    @Test("Signal(value:): a new chain gets the last message, on the main queue by default")
    func signalSample() async {
        let printed = Log<Int>()
        let signal = Signal<Int>(value: 15)
        let observables = ObservableCollection()
        signal
            .fired
            .then {
                dispatchPrecondition(condition: .onQueue(.main))
                printed.append($0)
            }
            .append(to: observables)
        signal.fire(with: 20)
        await drainMain()
        #expect(printed.all == [15, 20])
    }

    @Test("Property: ten increments, each sent to didSet")
    func propertySample() async {
        let printed = Log<String>()
        let property = Property<Int>(value: 0)
        let observables = ObservableCollection()
        property
            .didSet
            .then { printed.append("Value changed to \($0)") }
            .append(to: observables)
        for _ in 0..<10 {
            property.value += 1
        }
        await drainMain()
        #expect(printed.all == (0...10).map { "Value changed to \($0)" })
    }

    @Test("OnceOnlyTimer and PeriodicTimer on virtual time")
    func timerSamples() async {
        let scheduler = TestScheduler()
        let once = OnceOnlyTimer(scheduler: scheduler)
        let periodic = PeriodicTimer(interval: .seconds(10), scheduler: scheduler)
        let log = Log<String>()
        let observables = ObservableCollection()
        once.fired.noDispatch().then { log.append("Waited for 10 seconds.") }.append(to: observables)
        periodic.fired.noDispatch().then { log.append("Timer has been triggered") }.append(to: observables)
        once.fire(after: .seconds(10))
        periodic.activate()
        scheduler.advance(by: .seconds(30))
        periodic.invalidate()
        scheduler.advance(by: .seconds(30))
        #expect(log.all.filter { $0.hasPrefix("Waited") }.count == 1)
        #expect(log.all.filter { $0.hasPrefix("Timer") }.count == 3)
        #expect(!periodic.isActive && !once.isPending)
    }

    @Test("then(call:on:) calls a method on a target held weakly")
    func thenCallSample() async {
        let property = Property<Int>(value: 56)
        let observables = ObservableCollection()
        var target: Target? = Target()
        weak let weakTarget = target
        property.didSet.noDispatch().then(call: Target.update, on: target!).append(to: observables)
        property.value = 67
        #expect(target?.log.all == [56, 67])
        target = nil
        #expect(weakTarget == nil)
        property.value = 68
    }

    @Test("filter, map and dispatch(qos:) then back to the main queue")
    func filterMapDispatchSamples() async {
        let property = Property(value: 45)
        let observables = ObservableCollection()
        let log = Log<String>()
        let done = Gate()
        property
            .didSet
            .dispatch(qos: .userInitiated)
            .filter { $0 >= 100 }
            .map { 2 * $0 }
            .then {
                dispatchPrecondition(condition: .notOnQueue(.main))
                log.append("global \($0)")
            }
            .dispatch(to: .main)
            .then {
                dispatchPrecondition(condition: .onQueue(.main))
                log.append("main \($0)")
                done.open()
            }
            .append(to: observables)
        property.value = 50
        property.value = 150
        await done.wait()
        #expect(log.all == ["global 300", "main 300"])
    }
}
