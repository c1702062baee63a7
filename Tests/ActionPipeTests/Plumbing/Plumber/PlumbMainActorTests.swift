import ActionPipe
import ActionPipeShared
import ActionPipeTesting
import Dispatch
import Synchronization
import Testing

/// A view model as an app has one: main-actor state, changed by the sink and the stop
/// observer directly (no `MainActor.assumeIsolated`: that this file compiles is half of
/// what it tests).
@MainActor
private final class PlumbViewModel {
    var received: [Int] = []
    var stops: [String] = []
    var count = 0
    var isCancelled = false
    var countAfterCancel = 0
    var sinkToken: RegistrationToken?
    var stopToken: RegistrationToken?

    func bind(to plumber: PipelinePlumber<Int>) {
        sinkToken = plumber.sink(on: .mainActor) { packet in
            self.received.append(packet.payload)
        }
        stopToken = plumber.onStop(on: .mainActor) { stop in
            self.stops.append("\(stop.stage ?? "sink"): \(stop.packet.payload)")
        }
    }
}

/// Sends `payloads` from a background task while the main actor waits, blocked: the
/// deliveries stay queued until the caller next suspends.
@MainActor
private func sendBlockingTheMainActor(_ plumber: PipelinePlumber<Int>, _ payloads: Range<Int>) {
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        for payload in payloads { plumber.send(payload, from: 1) }
        done.signal()
    }
    done.wait()
}

/// `sink(on: .mainActor)`, `onStop(on: .mainActor)` and `port.process` from the main actor.
@Suite("Plumbing: the sink and the stop observer on the main actor (on: .mainActor)")
struct PlumbMainActorTests {
    @Test("1,000 packets sent from a background task reach the main-actor sink in order")
    @MainActor
    func backgroundSendsInOrder() async {
        let plumber = PipelinePlumber<Int>(name: "main")
        plumber.addStage("even") { packet in packet.payload % 2 == 0 ? .pass : .stop("odd") }
        let model = PlumbViewModel()
        model.bind(to: plumber)
        await Task.detached {
            for payload in 0..<2_000 { plumber.send(payload, from: 1) }
        }.value
        await MainActorDeliveries.drain()
        #expect(model.received == Array(stride(from: 0, to: 2_000, by: 2)))
        #expect(model.received.count == 1_000)
        #expect(model.stops.count == 1_000)
        #expect(model.stops.first == "even: 1" && model.stops.last == "even: 1999")
    }

    @Test("A send on the main actor reaches the main-actor sink and stop observer")
    @MainActor
    func mainActorSend() async {
        let plumber = PipelinePlumber<Int>(name: "main")
        plumber.addStage("positive") { packet in packet.payload > 0 ? .pass : .stop("zero") }
        let model = PlumbViewModel()
        model.bind(to: plumber)
        plumber.send(3, from: 1)
        plumber.send(0, from: 1)
        // At once when nothing else is queued (other suites' deliveries may be).
        await MainActorDeliveries.drain()
        #expect(model.received == [3])
        #expect(model.stops == ["positive: 0"])
    }

    @Test("Packets from a port's drain task run the sink on the main actor")
    @MainActor
    func portPacketsReachTheMainActor() async {
        let port = PlumbingPort<Int>(9)
        let plumber = try! PipelinePlumber<Int>(name: "main").addPort(port)
        plumber.addStage("later") { packet in
            await Task.yield()
            return .pass
        }
        let model = PlumbViewModel()
        let token = plumber.sink(on: .mainActor) { packet in
            MainActor.assertIsolated()
            MainActor.preconditionIsolated()
            model.received.append(packet.payload)
        }
        await Task.detached { for payload in 0..<100 { port.emit(payload) } }.value
        var waits = 0
        while model.received.count < 100 && waits < 5_000 {
            await MainActorDeliveries.drain()
            try? await Task.sleep(for: .milliseconds(1))
            waits += 1
        }
        #expect(model.received == Array(0..<100))
        token.cancel()
    }

    @Test("After cancel() on the main actor, no queued delivery reaches the sink")
    @MainActor
    func cancelDropsQueuedDeliveries() async {
        let plumber = PipelinePlumber<Int>(name: "main")
        let model = PlumbViewModel()
        let token = plumber.sink(on: .mainActor) { _ in
            model.count += 1
            if model.isCancelled { model.countAfterCancel += 1 }
        }
        let senders = (0..<2).map { _ in
            Task.detached {
                for payload in 0..<5_000 { plumber.send(payload, from: 1) }
            }
        }
        var waits = 0
        while model.count < 10 && waits < 5_000 {
            try? await Task.sleep(for: .milliseconds(1))
            waits += 1
        }
        #expect(token.cancel())
        model.isCancelled = true
        for sender in senders { await sender.value }
        await MainActorDeliveries.drain()
        #expect(model.count > 0)
        #expect(model.countAfterCancel == 0)
    }

    @Test("A main-actor sink replaced by another sink gets no queued delivery")
    @MainActor
    func replacedSinkDropsQueuedDeliveries() async {
        let plumber = PipelinePlumber<Int>(name: "main")
        let model = PlumbViewModel()
        let first = plumber.sink(on: .mainActor) { _ in model.count += 1 }
        sendBlockingTheMainActor(plumber, 0..<10)
        plumber.sink { _ in }  // replaces it while its deliveries are queued
        #expect(!first.isActive)
        await MainActorDeliveries.drain()
        #expect(model.count == 0)
    }

    @Test("cancel() of a main-actor stop observer drops its queued deliveries")
    @MainActor
    func cancelStopObserver() async {
        let plumber = PipelinePlumber<Int>(name: "main")
        plumber.addStage("gate") { _ in .stop("closed") }
        let model = PlumbViewModel()
        model.bind(to: plumber)
        sendBlockingTheMainActor(plumber, 0..<10)
        #expect(model.stopToken?.cancel() == true)
        await MainActorDeliveries.drain()
        #expect(model.stops.isEmpty)
        plumber.send(1, from: 1)
        #expect(model.stops.isEmpty)
    }

    @Test(
        "A main-actor caller is still on the main actor after await port.process, and so are its stages"
    )
    @MainActor
    func portProcessKeepsTheMainActor() async {
        let port = PlumbingPort<Int>(5)
        let plumber = try! PipelinePlumber<Int>(name: "main").addPort(port)
        let stageRuns = TestLock(0)
        plumber.addStage("sync") { packet in
            MainActor.assertIsolated()
            stageRuns.withLock { $0 += 1 }
            return .pass
        }
        plumber.addStage("async") { packet in
            MainActor.assertIsolated()
            await Task.yield()
            MainActor.assertIsolated()
            packet.payload *= 10
            return .pass
        }
        let model = PlumbViewModel()
        model.bind(to: plumber)
        for payload in 1...20 {
            let outcome = await port.process(payload)
            MainActor.assertIsolated()
            MainActor.preconditionIsolated()
            model.count += outcome.delivered?.payload ?? 0
        }
        #expect(model.count == 2_100)
        #expect(stageRuns.withLock { $0 } == 20)
        await MainActorDeliveries.drain()
        #expect(model.received == (1...20).map { $0 * 10 })
    }

    @Test("A main-actor caller is still on the main actor after await plumber.process")
    @MainActor
    func plumberProcessKeepsTheMainActor() async {
        let plumber = PipelinePlumber<Int>(name: "main")
        plumber.addStage("async") { packet in
            MainActor.assertIsolated()
            await Task.yield()
            return .pass
        }
        let outcome = await plumber.process(1, from: 1)
        MainActor.assertIsolated()
        #expect(outcome.wasDelivered)
    }

    @Test("The owner forms hand the owner to the sink and stop observer, and end with it")
    @MainActor
    func ownerForms() async {
        let plumber = PipelinePlumber<Int>(name: "owned")
        plumber.addStage("positive") { packet in packet.payload > 0 ? .pass : .stop("negative") }
        var model: PlumbViewModel? = PlumbViewModel()
        weak let weakModel = model
        plumber.sink(owner: model!, on: .mainActor) { model, packet in
            model.received.append(packet.payload)
        }
        plumber.onStop(owner: model!, on: .mainActor) { model, stop in
            model.stops.append("\(stop.stage ?? "sink"): \(stop.packet.payload)")
        }
        plumber.send(1, from: 1)
        plumber.send(-2, from: 1)
        _ = await Task.detached { plumber.send(3, from: 1) }.value
        await MainActorDeliveries.drain()
        #expect(model?.received == [1, 3])
        #expect(model?.stops == ["positive: -2"])
        // The plumber does not keep the owner; once it is gone nothing is delivered.
        model = nil
        #expect(weakModel == nil)
        plumber.send(4, from: 1)
        plumber.send(-5, from: 1)
        await MainActorDeliveries.drain()
        #expect(weakModel == nil)
    }
}
