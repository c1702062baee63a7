import ActionPipe
import Foundation
import Synchronization
import Testing

/// Captured by a stage: its `deinit` calls back into the plumber that released it. If the
/// plumber released a cancelled stage with its lock held, the thread would hang.
private final class PlumbReentrantCapture: Sendable {
    let plumber: PipelinePlumber<Int>
    let log: Log
    init(_ plumber: PipelinePlumber<Int>, log: Log) {
        self.plumber = plumber
        self.log = log
    }
    deinit {
        let log = log
        plumber.addStage("from deinit") { packet in
            log.append("from deinit \(packet.payload)")
            return .pass
        }
        log.append(plumber.send(7, from: 1).wasDelivered ? "sent" : "stopped")
    }
}

/// Stages, the sink and the stop observer are registrations: each returns a
/// `RegistrationToken` that removes it.
@Suite("Plumbing: stages, sink and stop observer return registration tokens")
struct PlumbTokenTests {
    @Test("cancelling a stage's token removes that stage: later packets skip it")
    func cancelStage() {
        let log = Log()
        let plumber = PipelinePlumber<Int>(name: "share")
        let a = plumber.addStage("a") { _ in
            log.append("a")
            return .pass
        }
        let b = plumber.addStage("b") { _ in
            log.append("b")
            return .pass
        }
        plumber.addStage("c") { _ in
            log.append("c")
            return .pass
        }
        #expect(a.isActive && b.isActive && a != b)
        #expect(b.description.hasPrefix("share/b#"))
        #expect(plumber.send(1, from: 1).wasDelivered)
        #expect(log.take() == ["a", "b", "c"])

        #expect(b.cancel())
        #expect(!b.isActive)
        #expect(!b.cancel())
        #expect(a.isActive)
        #expect(plumber.stageNames == ["a", "c"])
        #expect(plumber.send(2, from: 1).wasDelivered)
        #expect(log.take() == ["a", "c"])

        #expect(a.cancel())
        plumber.addStage("d") { _ in
            log.append("d")
            return .pass
        }
        #expect(plumber.stageNames == ["c", "d"])
        #expect(plumber.send(3, from: 1).wasDelivered)
        #expect(log.take() == ["c", "d"])
    }

    @Test("every addStage overload returns a token; without its async stages the plumber is sync")
    func everyOverload() {
        struct Positive: PlumbingStage {
            func receive(_ packet: inout PlumbingPacket<Int>) -> PlumbingVerdict {
                packet.payload > 0 ? .pass : .stop("not positive")
            }
        }
        struct Later: AsyncPlumbingStage {
            func receive(_ packet: inout PlumbingPacket<Int>) async -> PlumbingVerdict { .pass }
        }
        let plumber = PipelinePlumber<Int>()
        let tokens = [
            plumber.addStage(Positive()),
            plumber.addStage(Later()),
            plumber.addStage("sync") { _ in .pass },
            plumber.addStage("async") { _ in
                await Task.yield()
                return .pass
            },
        ]
        #expect(Set(tokens).count == 4)
        #expect(!plumber.isSynchronous)
        #expect(tokens[1].cancel())
        #expect(!plumber.isSynchronous)
        #expect(tokens[3].cancel())
        #expect(plumber.isSynchronous)
        #expect(plumber.stageNames == ["Positive", "sync"])
        #expect(plumber.send(1, from: 1).wasDelivered)
        #expect(tokens[0].cancel() && tokens[2].cancel())
        #expect(plumber.stageNames.isEmpty)
        #expect(plumber.send(0, from: 1).wasDelivered)
    }

    @Test(
        "a replaced sink's or observer's token is inactive and cancels nothing; with no sink a packet is still delivered to its caller"
    )
    func replacedSink() throws {
        let log = Log()
        let plumber = PipelinePlumber<Int>(name: "p")
        let first = plumber.sink { log.append("first \($0.payload)") }
        #expect(first.isActive)
        #expect(first.description.hasPrefix("p/sink#"))
        let second = plumber.sink { log.append("second \($0.payload)") }
        #expect(!first.isActive)
        #expect(!first.cancel())
        plumber.send(1, from: 1)
        #expect(log.take() == ["second 1"])

        let gate = plumber.addStage("gate") { packet in packet.payload > 0 ? .pass : .stop("no") }
        let firstStop = plumber.onStop { log.append("first stop \($0.packet.payload)") }
        let secondStop = plumber.onStop { log.append("second stop \($0.packet.payload)") }
        #expect(!firstStop.isActive && !firstStop.cancel())
        plumber.send(0, from: 1)
        #expect(log.take() == ["second stop 0"])

        // No sink: the packet is delivered (returned to its caller) and goes nowhere else.
        #expect(second.cancel())
        #expect(!second.isActive && !second.cancel())
        #expect(plumber.send(2, from: 1).delivered?.payload == 2)
        let port = PlumbingPort<Int>(5)
        try plumber.addPort(port)
        port.emit(3)
        #expect(log.take().isEmpty)  // not a stop either

        #expect(secondStop.cancel())
        #expect(plumber.send(0, from: 1).stop?.stage == "gate")
        #expect(log.take().isEmpty)
        #expect(gate.isActive)
    }

    @Test("cancelling releases what the stage, sink or observer captured")
    func cancelReleasesCaptures() {
        let plumber = PipelinePlumber<Int>()
        weak var weakStage: Tracked?
        weak var weakSink: Tracked?
        weak var weakObserver: Tracked?
        let tokens: [RegistrationToken]
        do {
            let stage = Tracked("stage")
            let sink = Tracked("sink")
            let observer = Tracked("observer")
            (weakStage, weakSink, weakObserver) = (stage, sink, observer)
            tokens = [
                plumber.addStage("capture") { _ in
                    _ = stage.name
                    return .pass
                },
                plumber.sink { _ in _ = sink.name },
                plumber.onStop { _ in _ = observer.name },
            ]
            plumber.send(1, from: 1)
        }
        #expect(weakStage != nil && weakSink != nil && weakObserver != nil)
        #expect(tokens[0].cancel())
        #expect(weakStage == nil)
        #expect(tokens[1].cancel())
        #expect(weakSink == nil)
        #expect(tokens[2].cancel())
        #expect(weakObserver == nil)
    }

    @Test("a packet in flight finishes with the stages it started with, then the stage is released")
    func inFlightKeepsItsStages() async {
        let gate = PlumbGate()
        let entered = PlumbInbox<Int>()
        let plumber = PipelinePlumber<[String]>()
        weak var weakCapture: Tracked?
        let later: RegistrationToken
        do {
            let capture = Tracked("later")
            weakCapture = capture
            plumber.addStage("wait") { packet in
                entered.put(1)
                await gate.wait()
                packet.payload.append("wait")
                return .pass
            }
            later = plumber.addStage("later") { packet in
                packet.payload.append(capture.name)
                return .pass
            }
        }
        let running = Task { await plumber.process([], from: 1) }
        _ = await entered.wait(for: 1)
        #expect(later.cancel())
        #expect(plumber.stageNames == ["wait"])
        #expect(weakCapture != nil)  // the running packet still holds it
        await gate.open()
        #expect(await running.value.delivered?.payload == ["wait", "later"])
        #expect(weakCapture == nil)
        #expect(await plumber.process([], from: 1).delivered?.payload == ["wait"])
    }

    @Test("a released stage whose deinit adds a stage and sends on the same plumber does not hang")
    func releaseCallsBack() async {
        let plumber = PipelinePlumber<Int>()
        let log = Log()
        let token = Box<RegistrationToken?>(nil)
        do {
            let capture = PlumbReentrantCapture(plumber, log: log)
            token.set(
                plumber.addStage("captures") { _ in
                    _ = capture.log
                    return .pass
                })
        }
        let finished = await runOnThreads(1) { _ in
            _ = token.value?.cancel()
        }
        #expect(finished, "the stage was released under the plumber's lock")
        #expect(log.all == ["from deinit 7", "sent"])
        #expect(plumber.stageNames == ["from deinit"])
    }

    @Test(
        "4 threads send while another adds and cancels stages: every packet reaches the sink exactly once",
        .hangBound)
    func concurrentAddAndCancel() async {
        let perThread = 20_000
        let received = TestLock<[Int]>([])
        let plumber = PipelinePlumber<Int>()
        plumber.sink { packet in received.withLock { $0.append(packet.payload) } }
        let added = Counter()
        let cancelled = Counter()
        let sendersDone = Counter()
        let wrong = Counter()
        let finished = await runOnThreads(5) { thread in
            if thread == 4 {
                // Keeps up to 4 stages installed, cancelling the oldest as it adds one.
                var live: [RegistrationToken] = []
                while sendersDone.value < 4 || added.value < 10 {
                    let round = added.value
                    live.append(plumber.addStage("churn \(round)") { _ in .pass })
                    added.increment()
                    if live.count > 4 || round.isMultiple(of: 7) {
                        let oldest = live.removeFirst()
                        if oldest.cancel() { cancelled.increment() } else { wrong.increment() }
                        if oldest.isActive || oldest.cancel() { wrong.increment() }
                    }
                    if round.isMultiple(of: 3) { sched_yield() }
                }
                for token in live where token.cancel() { cancelled.increment() }
            } else {
                for index in 0..<perThread {
                    let payload = thread * perThread + index
                    if plumber.send(payload, from: thread).delivered?.payload != payload {
                        wrong.increment()
                    }
                }
                sendersDone.increment()
            }
        }
        #expect(finished)
        #expect(wrong.value == 0)
        let all = received.withLock { $0 }
        #expect(all.count == 4 * perThread)
        #expect(Set(all) == Set(0..<(4 * perThread)))
        #expect(cancelled.value == added.value)
        #expect(plumber.stageNames.isEmpty)
    }

    @Test("a RegistrationBag cancels plumbing tokens: on cancelAll and when released")
    func bag() {
        let log = Log()
        let plumber = PipelinePlumber<Int>()
        let bag = RegistrationBag()
        plumber.addStage("gate") { packet in packet.payload > 0 ? .pass : .stop("no") }
            .store(in: bag)
        plumber.sink { log.append("sink \($0.payload)") }.store(in: bag)
        plumber.onStop { log.append("stop \($0.packet.payload)") }.store(in: bag)
        #expect(bag.count == 3)
        plumber.send(0, from: 1)
        plumber.send(1, from: 1)
        #expect(log.take() == ["stop 0", "sink 1"])
        bag.cancelAll()
        #expect(plumber.stageNames.isEmpty)
        #expect(plumber.send(0, from: 1).wasDelivered)
        #expect(log.take().isEmpty)

        do {
            let scoped = RegistrationBag()
            plumber.addStage("scoped") { _ in .pass }.store(in: scoped)
            #expect(plumber.stageNames == ["scoped"])
        }
        #expect(plumber.stageNames.isEmpty)
    }

    @Test("a token does not keep its plumber; once the plumber is gone it is inactive")
    func tokenOutlivesPlumber() {
        weak var weakPlumber: PipelinePlumber<Int>?
        let tokens: [RegistrationToken]
        do {
            let plumber = PipelinePlumber<Int>()
            weakPlumber = plumber
            tokens = [
                plumber.addStage("a") { _ in .pass }, plumber.sink { _ in },
                plumber.onStop { _ in },
            ]
            #expect(tokens.allSatisfy { $0.isActive })
        }
        #expect(weakPlumber == nil)
        #expect(tokens.allSatisfy { !$0.isActive && !$0.cancel() })
    }
}
