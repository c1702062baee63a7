import ActionPipe
import ActionPipeTesting
import Testing

/// An event with a payload that says who published it and when, in that publisher's order.
struct KitTick: BusEvent {
    let source: Int
    let sequence: Int
}

@Suite("ActionPipeTesting: recorders", .hangBound)
struct RecorderTests {
    @Test("values from several threads are all recorded, each thread's in its order")
    func manyThreads() async {
        let bus = EventBus(name: "kit.threads")
        let ticks = BusRecorder(bus, BusTopic(KitTick.self))
        let sources = 4
        let perSource = 500
        await withTaskGroup(of: Void.self) { group in
            for source in 0..<sources {
                group.addTask {
                    for sequence in 0..<perSource {
                        bus.publish(KitTick(source: source, sequence: sequence))
                    }
                }
            }
        }
        let events = ticks.events
        #expect(events.count == sources * perSource)
        for source in 0..<sources {
            let sequences = events.filter { $0.source == source }.map(\.sequence)
            #expect(sequences == Array(0..<perSource))
        }
    }

    @Test("waitForCount resumes exactly when the count is reached, with the values")
    func waitResumesAtTheCount() async {
        let recorder = Recorder<Int>()
        let waiter = Task { await recorder.waitForCount(3) }
        // The waiter registers on its own task; the test waits for that without sleeping.
        while recorder.waiterCount == 0 { await Task.yield() }
        recorder.record(1)
        recorder.record(2)
        #expect(recorder.waiterCount == 1)  // two values: still waiting
        recorder.record(3)
        #expect(recorder.waiterCount == 0)  // resumed by the third record, before it returned
        #expect(await waiter.value == [1, 2, 3])
    }

    @Test("several waiters resume at their own counts; a reached count returns at once")
    func severalWaiters() async {
        let recorder = Recorder<String>()
        let two = Task { await recorder.waitForCount(2) }
        let four = Task { await recorder.waitForCount(4) }
        while recorder.waiterCount < 2 { await Task.yield() }
        recorder.record("a")
        recorder.record("b")
        #expect(await two.value == ["a", "b"])
        #expect(recorder.waiterCount == 1)
        recorder.record("c")
        recorder.record("d")
        #expect(await four.value == ["a", "b", "c", "d"])
        #expect(await recorder.waitForCount(1) == ["a", "b", "c", "d"])
        #expect(recorder.waiterCount == 0)
    }

    @Test("a cancelled wait returns early with what there is")
    func cancelledWait() async {
        let recorder = Recorder<Int>()
        recorder.record(1)
        let waiter = Task { await recorder.waitForCount(10) }
        while recorder.waiterCount == 0 { await Task.yield() }
        waiter.cancel()
        #expect(await waiter.value == [1])
        #expect(recorder.waiterCount == 0)

        let cancelledFirst = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await recorder.waitForCount(10)
        }
        #expect(await cancelledFirst.value == [1])
        #expect(recorder.waiterCount == 0)
    }

    @Test("take returns what was recorded and starts over; last and count follow")
    func take() {
        let recorder = Recorder<Int>()
        #expect(recorder.last == nil)
        recorder.record(1)
        recorder.record(2)
        #expect(recorder.last == 2)
        #expect(recorder.take() == [1, 2])
        #expect(recorder.count == 0)
        recorder.record(3)
        #expect(recorder.values == [3])
    }

    @Test("a bus recorder waits for events published on another thread")
    func busWaits() async {
        let bus = EventBus(name: "kit.wait")
        let ticks = BusRecorder(bus, BusTopic(KitTick.self))
        let publisher = Task.detached {
            for sequence in 0..<3 { bus.publish(KitTick(source: 0, sequence: sequence)) }
        }
        let events = await ticks.waitForCount(3)
        #expect(events.map(\.sequence) == [0, 1, 2])
        await publisher.value
    }

    @Test("a bus recorder answers with the feedback it is given")
    func busFeedback() {
        struct Question: BusEvent {
            typealias Feedback = String
            let text: String
        }
        let bus = EventBus(name: "kit.feedback")
        let questions = BusRecorder(bus, BusTopic(Question.self), name: "echo") { $0.text }
        let answers = Recorder<String>()
        bus.publish(Question(text: "why")) { answers.record("\($0)") }
        #expect(answers.values == ["echo handled: why"])
        #expect(questions.events.map(\.text) == ["why"])
    }

    @Test("an observation recorder records a property's and a path's values")
    func observation() {
        let counter = ObservedProperty(0)
        let seen = ObservationRecorder(counter, .initial)
        counter.value = 1
        counter.value = 1
        #expect(seen.values == [0, 1, 1])

        let distinct = ObservationRecorder(ObservedPath(counter), .skipEqual)
        counter.value = 1
        counter.value = 2
        #expect(distinct.values == [2])
        #expect(seen.take() == [0, 1, 1, 1, 2])
    }

    @Test("plumbing recorders record sunk packets and stops")
    func plumbing() {
        let plumber = PipelinePlumber<Int>(name: "kit")
        plumber.addStage("even") { packet in packet.payload % 2 == 0 ? .pass : .stop("odd") }
        let sunk = PlumbingSinkRecorder(plumber)
        let stops = PlumbingStopRecorder(plumber)
        for payload in 0..<5 { plumber.send(payload, from: 1) }
        #expect(sunk.payloads == [0, 2, 4])
        #expect(sunk.packets.map(\.port) == [1, 1, 1])
        #expect(stops.summaries == ["even: refused: odd", "even: refused: odd"])
        #expect(stops.stops.map(\.packet.payload) == [1, 3])
    }
}
