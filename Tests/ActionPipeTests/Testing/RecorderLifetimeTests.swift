import ActionPipe
import ActionPipeTesting
import Testing

@Suite("ActionPipeTesting: a recorder's registration ends with it")
struct RecorderLifetimeTests {
    @Test("a released bus recorder is unsubscribed; cancel() unsubscribes and keeps the events")
    func busRecorder() {
        let bus = EventBus(name: "kit.release")
        weak var released: BusRecorder<KitTick>?
        var token: RegistrationToken?
        do {
            let recorder = BusRecorder(bus, BusTopic(KitTick.self))
            released = recorder
            token = recorder.token
            #expect(bus.subscriptionCount == 1)
            bus.publish(KitTick(source: 0, sequence: 0))
            #expect(recorder.count == 1)
        }
        #expect(released == nil)
        #expect(token?.isActive == false)
        #expect(bus.subscriptionCount == 0)
        #expect(bus.publish(KitTick(source: 0, sequence: 1)).handledCount == 0)

        let kept = BusRecorder(bus, BusTopic(KitTick.self))
        bus.publish(KitTick(source: 0, sequence: 2))
        #expect(kept.cancel())
        #expect(!kept.cancel())
        bus.publish(KitTick(source: 0, sequence: 3))
        #expect(kept.events.map(\.sequence) == [2])
        #expect(bus.subscriptionCount == 0)
    }

    @Test("a released observation recorder stops observing; its values are not touched again")
    func observationRecorder() {
        let counter = ObservedProperty(0)
        weak var released: ObservationRecorder<Int>?
        var values: Recorder<Int>?
        do {
            let recorder = ObservationRecorder(counter)
            released = recorder
            values = recorder.recorder
            #expect(counter.observerCount == 1)
            counter.value = 1
        }
        #expect(released == nil)
        #expect(counter.observerCount == 0)
        counter.value = 2
        #expect(values?.values == [1])

        let kept = ObservationRecorder(counter)
        #expect(kept.cancel())
        #expect(counter.observerCount == 0)
        #expect(kept.token.isActive == false)
    }

    @Test("released plumbing recorders remove the sink and the stop observer")
    func plumbingRecorders() {
        let plumber = PipelinePlumber<Int>(name: "kit.release")
        plumber.addStage("gate") { packet in packet.payload > 0 ? .pass : .stop("zero") }
        weak var releasedSink: PlumbingSinkRecorder<Int>?
        weak var releasedStops: PlumbingStopRecorder<Int>?
        var tokens: [RegistrationToken] = []
        var sunk: Recorder<PlumbingPacket<Int>>?
        var stopped: Recorder<PlumbingOutcome<Int>>?
        do {
            let sink = PlumbingSinkRecorder(plumber)
            let stops = PlumbingStopRecorder(plumber)
            releasedSink = sink
            releasedStops = stops
            tokens = [sink.token, stops.token]
            sunk = sink.recorder
            stopped = stops.recorder
            plumber.send(1, from: 1)
            plumber.send(0, from: 1)
        }
        #expect(releasedSink == nil)
        #expect(releasedStops == nil)
        #expect(tokens.allSatisfy { !$0.isActive })
        #expect(plumber.send(2, from: 1).wasDelivered)  // returned: no sink any more
        plumber.send(0, from: 1)
        #expect(sunk?.values.map(\.payload) == [1])
        #expect(stopped?.count == 1)
    }

    @Test("a recorder is not replaced by the app's sink, and released removes only itself")
    func replacedSink() {
        let plumber = PipelinePlumber<Int>()
        let later = Recorder<Int>()
        var recorded: Recorder<PlumbingPacket<Int>>?
        do {
            let first = PlumbingSinkRecorder(plumber)
            recorded = first.recorder
            plumber.sink { later.record($0.payload) }
            #expect(first.token.isActive)
            plumber.send(4, from: 1)
        }
        plumber.send(5, from: 1)
        #expect(later.values == [4, 5])
        #expect(recorded?.values.map(\.payload) == [4])
    }
}
