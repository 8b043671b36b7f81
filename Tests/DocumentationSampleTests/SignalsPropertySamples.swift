// swift-format-ignore-file
// (The samples are kept exactly as the documentation writes them.)

// The samples of Signals' derived properties and commands (doc comments and the article
// "Derived properties and commands"), verbatim, with what they need around them.

import Signals
import Testing

private struct Form: Sendable {
    var name = ""
    var isComplete: Bool { !name.isEmpty }
}

private struct Receipt: Sendable { var number: Int }
private struct Account: Sendable { var name: String }

private final class API: Sendable {
    func submit(_ form: Form) async throws -> Receipt { Receipt(number: form.name.count) }
}

private final class Backend: Sendable {
    func register(_ name: String) async throws -> Account { Account(name: name) }
}

/// A control whose enabled state any thread may set.
private final class EnablableButton: Sendable {
    private let enabled = Property(value: false)
    var isEnabled: Bool {
        get { enabled.value }
        set { enabled.value = newValue }
    }
}

private func show(_ receipt: Receipt) { print(receipt.number) }
private func show(_ account: Account) { print(account.name) }
private func show(_ error: any Error) { print(error) }

@Test func derivedPropertyDocCommentSamples() {
    do {
        let first = Property(value: "Ada")
        let last = Property(value: "Lovelace")
        let full = first.combineLatest(last).map { "\($0) \($1)" }
        print(full.value)  // Ada Lovelace
        #expect(full.value == "Ada Lovelace")
    }
    do {
        let count = Property(value: 2)
        let label = count.map { "\($0) items" }
        print(label.value)  // 2 items
        count.value = 3
        print(label.value)  // 3 items
        #expect(label.value == "3 items")
    }
    do {
        let celsius = Property(value: 20.0)
        let fahrenheit = celsius.map { $0 * 9 / 5 + 32 }
        #expect(fahrenheit.value == 68)
    }
    do {
        let name = Property(value: "Ada")
        let accepted = Property(value: true)
        let canSubmit = name.combineLatest(accepted).map { !$0.isEmpty && $1 }
        #expect(canSubmit.value)
    }
}

@Test func commandDocCommentSample() async throws {
    let form = Property(value: Form(name: "Ada"))
    let api = API()
    let button = EnablableButton()
    let observables = ObservableCollection()

    let isValid = form.map { $0.isComplete }
    let submit = Command(enabledIf: isValid) { (form: Form) in try await api.submit(form) }
    submit.values.then { receipt in show(receipt) }.append(to: observables)
    submit.isEnabled.didSet.then { button.isEnabled = $0 }.append(to: observables)
    submit.apply(form.value)

    #expect(await arrives { submit.values.lastMessage?.number == 3 })
    observables.removeAll()
}

@Test func propertiesAndCommandsArticleSample() async throws {
    let backend = Backend()
    let button = EnablableButton()
    let observables = ObservableCollection()

    let name = Property(value: "")
    let accepted = Property(value: false)
    let canSubmit = name.combineLatest(accepted).map { !$0.isEmpty && $1 }

    let submit = Command(enabledIf: canSubmit) { (name: String) in
        try await backend.register(name)
    }
    submit.isEnabled.didSet.then { button.isEnabled = $0 }.append(to: observables)
    submit.values.then { account in show(account) }.append(to: observables)
    submit.errors.then { error in show(error) }.append(to: observables)

    name.value = "Ada"
    accepted.value = true
    submit.apply(name.value)

    #expect(canSubmit.value)
    #expect(await arrives { submit.values.lastMessage?.name == "Ada" })
    observables.removeAll()
}

/// Whether `condition` holds within a bounded number of yields (the execution runs in a task).
private func arrives(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<1_000_000 where !condition() { await Task.yield() }
    return condition()
}
