import ActionPipe
import ActionPipeTesting
import Testing

/// A plumber of `Int` that stops odd payloads at stage "even".
private func linkEvenPlumber(_ name: String) -> PipelinePlumber<Int> {
    let plumber = PipelinePlumber<Int>(name: name)
    plumber.addStage("even") { packet in packet.payload.isMultiple(of: 2) ? .pass : .stop("odd") }
    return plumber
}

@Suite("Connectors: a plumber publishes its outcomes on a bus")
struct ConnectorsPlumbingTests {
    @Test("delivered and stopped packets are published in order; the app's sink and onStop run")
    func publishesInOrder() {
        let bus = EventBus(name: "link.plumbing")
        let recorder = BusRecorder(bus, BusTopic(anySubtypeOf: LinkOutcome.self))
        let stopped = BusRecorder(bus, BusTopic(LinkOutcome.self, .stopped))
        let plumber = linkEvenPlumber("link")
        let log = Log()
        plumber.sink { log.append("sink \($0.payload)") }
        plumber.onStop { log.append("onStop \($0.packet.payload)") }
        plumber.publish(to: bus) { outcome in
            log.append("published \(outcome.delivered?.payload ?? outcome.stop!.packet.payload)")
            return LinkOutcome.of(outcome)
        }
        for payload in 1...4 { plumber.send(payload, from: 1) }
        #expect(
            recorder.events == [
                LinkOutcome(.stopped, 1), LinkOutcome(.delivered, 2), LinkOutcome(.stopped, 3),
                LinkOutcome(.delivered, 4),
            ])
        #expect(stopped.events.map(\.payload) == [1, 3])
        // The app's own sink and stop observer run first, then the connector.
        #expect(
            log.all == [
                "onStop 1", "published 1", "sink 2", "published 2", "onStop 3", "published 3",
                "sink 4", "published 4",
            ])
    }

    @Test("a sink or onStop set after the connector replaces neither; nil publishes nothing")
    func setAfter() {
        let bus = EventBus(name: "link.plumbing.after")
        let recorder = BusRecorder(bus, BusTopic(anySubtypeOf: LinkOutcome.self))
        let plumber = linkEvenPlumber("link.after")
        plumber.publish(to: bus) { $0.wasDelivered ? nil : LinkOutcome.of($0) }
        let sunk = Log()
        let sinkToken = plumber.sink { sunk.append("first \($0.payload)") }
        plumber.sink { sunk.append("second \($0.payload)") }  // replaces the app's sink only
        plumber.onStop { sunk.append("stop \($0.packet.payload)") }
        sinkToken.cancel()  // inactive already: removes nothing
        for payload in 1...4 { plumber.send(payload, from: 1) }
        #expect(recorder.events == [LinkOutcome(.stopped, 1), LinkOutcome(.stopped, 3)])
        #expect(sunk.all == ["stop 1", "second 2", "stop 3", "second 4"])
    }

    @Test("cancelling the token stops it, and only it")
    func cancel() {
        let bus = EventBus(name: "link.plumbing.cancel")
        let recorder = BusRecorder(bus, BusTopic(anySubtypeOf: LinkOutcome.self))
        let plumber = linkEvenPlumber("link.cancel")
        let sunk = PlumbingSinkRecorder(plumber)
        let stops = PlumbingStopRecorder(plumber)
        let token = plumber.publish(to: bus) { LinkOutcome.of($0) }
        let other = plumber.publish(to: bus) { LinkOutcome.of($0) }
        plumber.send(2, from: 1)
        #expect(token.isActive)
        #expect(token.description.hasPrefix("link.cancel/publish to link.plumbing.cancel#"))
        #expect(token.cancel())
        #expect(!token.isActive)
        #expect(!token.cancel())
        plumber.send(4, from: 1)
        plumber.send(5, from: 1)
        #expect(
            recorder.events.map(\.payload) == [2, 2, 4, 5])  // both, then the other only
        #expect(other.isActive)
        #expect(sunk.payloads == [2, 4])
        #expect(stops.stops.map(\.packet.payload) == [5])
    }

    @Test("the connector keeps neither the plumber nor the bus alive")
    func noLeaks() {
        let bus = EventBus(name: "link.plumbing.leaks")
        weak var releasedPlumber: PipelinePlumber<Int>?
        var token: RegistrationToken?
        do {
            let plumber = linkEvenPlumber("link.leaks")
            releasedPlumber = plumber
            token = plumber.publish(to: bus) { LinkOutcome.of($0) }
            plumber.send(2, from: 1)
        }
        #expect(releasedPlumber == nil)
        #expect(token?.isActive == false)

        let plumber = linkEvenPlumber("link.leaks.bus")
        let recorder = PlumbingSinkRecorder(plumber)
        weak var releasedBus: EventBus?
        do {
            let other = EventBus(name: "link.plumbing.gone")
            releasedBus = other
            token = plumber.publish(to: other) { LinkOutcome.of($0) }
            plumber.send(2, from: 1)
        }
        #expect(releasedBus == nil)
        #expect(token?.isActive == true)
        plumber.send(4, from: 1)  // the bus is gone: the connector removes itself
        #expect(token?.isActive == false)
        #expect(recorder.payloads == [2, 4])
        withExtendedLifetime(bus) {}
    }

    @Test("a port's packets, finished on another task, all arrive in order", .hangBound)
    func fromPort() async throws {
        let bus = EventBus(name: "link.plumbing.port")
        let recorder = BusRecorder(bus, BusTopic(anySubtypeOf: LinkOutcome.self))
        let plumber = linkEvenPlumber("link.port")
        let port = PlumbingPort<Int>(1)
        try plumber.addPort(port)
        plumber.publish(to: bus) { LinkOutcome.of($0) }
        for payload in 1...2_000 { port.emit(payload) }
        let events = await recorder.waitForCount(2_000)
        #expect(events.map(\.payload) == Array(1...2_000))
        #expect(events.map(\.subtype) == (1...2_000).map { $0 % 2 == 0 ? .delivered : .stopped })
    }
}
