import ReactiveCore
import Testing

@Suite("Subscribable.values")
struct SubscriptionValuesTests {
    @Test("values arrive in order, and leaving the loop disconnects")
    func breakDisconnects() async {
        let source = LocalSource()
        var iterator = source.values.makeAsyncIterator()
        #expect(source.subscriberCount == 1)
        for value in 1...3 { source.send(value) }
        var seen: [Int] = []
        while let value = await iterator.next() {
            seen.append(value)
            if value == 3 { break }
        }
        #expect(seen == [1, 2, 3])
        _ = consume iterator
        #expect(source.subscriberCount == 0)
    }

    @Test("a for-await loop sees a value sent on subscription, and disconnects when it breaks")
    func forAwaitLoop() async {
        let source = LocalSource(current: 1)
        var seen: [Int] = []
        for await value in source.values {
            seen.append(value)
            if value == 3 { break }
            source.send(value + 1)
        }
        #expect(seen == [1, 2, 3])
        #expect(source.subscriberCount == 0)
    }

    @Test("cancelling the iterating task disconnects")
    func cancellationDisconnects() async {
        let source = SharedSource()
        let received = Log<Int>()
        let task = Task {
            for await value in source.values {
                received.append(value)
            }
        }
        var polls = 0
        while source.subscriberCount == 0 && polls < 100_000 {
            await Task.yield()
            polls += 1
        }
        #expect(source.subscriberCount == 1)
        source.send(1)
        task.cancel()
        await task.value
        #expect(source.subscriberCount == 0)
        #expect(received.all.allSatisfy { $0 == 1 })
    }

    @Test("bufferingNewest keeps only the latest values")
    func bufferingNewest() async {
        let source = LocalSource()
        var iterator = source.values(bufferingPolicy: .bufferingNewest(1)).makeAsyncIterator()
        for value in 1...3 { source.send(value) }
        #expect(await iterator.next() == 3)
    }

    @Test("bufferingOldest keeps only the first values")
    func bufferingOldest() async {
        let source = LocalSource()
        var iterator = source.values(bufferingPolicy: .bufferingOldest(2)).makeAsyncIterator()
        for value in 1...3 { source.send(value) }
        source.send(4)
        #expect(await iterator.next() == 1)
        #expect(await iterator.next() == 2)
        source.send(5)
        #expect(await iterator.next() == 5)
    }

    @Test("the default policy keeps every value")
    func unbounded() async {
        let source = LocalSource()
        var iterator = source.values.makeAsyncIterator()
        for value in 0..<1_000 { source.send(value) }
        var seen: [Int] = []
        for _ in 0..<1_000 {
            if let value = await iterator.next() { seen.append(value) }
        }
        #expect(seen == Array(0..<1_000))
    }

    @Test("each iterator subscribes on its own")
    func independentIterators() async {
        let source = LocalSource()
        let values = source.values
        var first = values.makeAsyncIterator()
        var second = values.makeAsyncIterator()
        #expect(source.subscriberCount == 2)
        source.send(9)
        #expect(await first.next() == 9)
        #expect(await second.next() == 9)
    }
}
