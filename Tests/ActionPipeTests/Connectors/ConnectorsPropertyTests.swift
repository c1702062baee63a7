import ActionPipe
import ActionPipeTesting
import Testing

@Suite("Connectors: an observed property publishes on a bus")
struct ConnectorsPropertyTests {
    @Test("each assignment publishes its event, in order; nil publishes nothing")
    func publishesInOrder() {
        let bus = EventBus(name: "link.property")
        let recorder = BusRecorder(bus, BusTopic(LinkValue.self))
        let progress = ObservedProperty(0)
        progress.publish(to: bus) { $0 == 3 ? nil : LinkValue(value: $0) }
        #expect(recorder.count == 0)  // no `.initial`: nothing until an assignment
        for value in [1, 2, 3, 4, 4] { progress.value = value }
        #expect(recorder.events.map(\.value) == [1, 2, 4, 4])
    }

    @Test(".initial publishes the current value at once; .skipEqual skips repeats")
    func options() {
        let bus = EventBus(name: "link.property.options")
        let recorder = BusRecorder(bus, BusTopic(LinkValue.self))
        let progress = ObservedProperty(7)
        progress.publish([.initial, .skipEqual], to: bus) { LinkValue(value: $0) }
        #expect(recorder.events.map(\.value) == [7])
        for value in [7, 8, 8, 9] { progress.value = value }
        #expect(recorder.events.map(\.value) == [7, 8, 9])
    }

    @Test("cancelling the token stops it, and only it")
    func cancel() {
        let bus = EventBus(name: "link.property.cancel")
        let recorder = BusRecorder(bus, BusTopic(LinkValue.self))
        let progress = ObservedProperty(0)
        let seen = ObservationRecorder(progress)  // the app's own observer
        let token = progress.publish(to: bus) { LinkValue(value: $0) }
        progress.value = 1
        #expect(token.isActive)
        #expect(token.cancel())
        #expect(!token.isActive)
        #expect(!token.cancel())
        progress.value = 2
        #expect(recorder.events.map(\.value) == [1])
        #expect(seen.values == [1, 2])
        #expect(progress.observerCount == 1)
    }

    @Test("the connector keeps neither the state object nor the bus alive")
    func noLeaks() {
        let bus = EventBus(name: "link.property.leaks")
        weak var releasedState: LinkState?
        var token: RegistrationToken?
        do {
            let state = LinkState()
            releasedState = state
            token = state.$count.publish(to: bus) { LinkValue(value: $0) }
            state.count = 1
        }
        #expect(releasedState == nil)
        #expect(token?.isActive == false)

        let state = LinkState()
        weak var releasedBus: EventBus?
        do {
            let other = EventBus(name: "link.property.gone")
            releasedBus = other
            token = state.$count.publish(to: other) { LinkValue(value: $0) }
            state.count = 1
        }
        #expect(releasedBus == nil)
        #expect(state.$count.observerCount == 1)
        state.count = 2  // the bus is gone: the observation removes itself
        #expect(state.$count.observerCount == 0)
        #expect(token?.isActive == false)
        withExtendedLifetime(bus) {}
    }

    @Test("a background writer's events all arrive, in order", .hangBound)
    func backgroundWriter() async {
        let bus = EventBus(name: "link.property.background")
        let recorder = BusRecorder(bus, BusTopic(LinkValue.self))
        let state = LinkState()
        state.$count.publish(to: bus) { LinkValue(value: $0) }
        await Task.detached {
            for value in 1...5_000 { state.count = value }
        }.value
        #expect(recorder.events.map(\.value) == Array(1...5_000))
    }

    @Test("concurrent `+=` writers: one event per write, each value once", .hangBound)
    func concurrentWriters() async {
        let bus = EventBus(name: "link.property.concurrent")
        let recorder = BusRecorder(bus, BusTopic(LinkValue.self))
        let state = LinkState()
        state.$count.publish(to: bus) { LinkValue(value: $0) }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { for _ in 0..<2_500 { state.count += 1 } }
            }
        }
        #expect(state.count == 10_000)
        #expect(recorder.count == 10_000)
        #expect(recorder.events.map(\.value).sorted() == Array(1...10_000))
    }
}
