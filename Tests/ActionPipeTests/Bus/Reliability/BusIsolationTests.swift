import ActionPipe
import Testing

private struct IsoEvent: BusEvent {
    typealias Feedback = Int
    let number: Int
}
private let isoEvents = BusTopic(IsoEvent.self)

/// An actor whose state a subscriber changes directly, isolated to it.
private actor IsoInbox {
    var received: [Int] = []
    func add(_ number: Int) -> Int {
        received.append(number)
        return received.count
    }
}

/// Subscribers on an actor run isolated to it, as state observers `on:` an actor do.
@Suite("Bus: subscribers isolated to an actor")
struct BusIsolationTests {
    @Test(
        "A subscriber on an actor gets it isolated, every event once, and its feedback is collected"
    )
    func isolatedToAnActor() async {
        let bus = EventBus(name: "iso")
        let inbox = IsoInbox()
        bus.subscribe(isoEvents, on: inbox) { inbox, event in inbox.add(event.number) }
        for number in 1...50 { bus.publish(IsoEvent(number: number)) }
        let summary = await bus.publishAndWait(IsoEvent(number: 51))
        #expect(summary.values == [51])
        #expect(await inbox.received.sorted() == Array(1...51))
    }

    @Test("A subscriber on the main actor runs isolated to it")
    func isolatedToTheMainActor() async {
        let bus = EventBus(name: "iso")
        bus.subscribe(isoEvents, on: MainActor.shared) { _, event in
            MainActor.preconditionIsolated()
            return event.number * 2
        }
        let summary = await bus.publishAndWait(IsoEvent(number: 21))
        #expect(summary.values == [42])
    }

    @Test("The subscription keeps its actor until it is cancelled, then releases it")
    func actorKeptUntilCancelled() async {
        let bus = EventBus(name: "iso")
        var inbox: IsoInbox? = IsoInbox()
        weak let watched = inbox
        let token = bus.subscribe(isoEvents, on: inbox!) { inbox, event in inbox.add(event.number) }
        inbox = nil
        #expect(watched != nil)
        let summary = await bus.publishAndWait(IsoEvent(number: 1))
        #expect(summary.values == [1])
        #expect(token.cancel())
        #expect(watched == nil)
    }
}
