import ActionPipe
import Foundation
import Synchronization
import Testing

/// The read side's promise, under one slow reader: what a cancelled registration captured is
/// released when `cancel()` returns, or by the last call (publish, delivery) still running
/// with it. A reader that is parked (blocked in a synchronous handler, or suspended in an
/// async one) may keep alive the snapshot it read, and nothing retired after it.
///
/// Each spec parks one reader of a snapshot, then runs 5,000 rounds of {register something
/// capturing a fresh tracked object; use it once, so that a snapshot holding it is built and
/// read; cancel it} on the same pipe, bus or property. None of those snapshots is the one
/// the parked reader holds, and no reader uses them once their round ends; so while the
/// reader is still parked, at most ``bound`` tracked objects may be alive (slack for a
/// reclamation that works in batches), and the early rounds' objects must be gone. Once the
/// reader is released and one more change is made, none may be left.
///
/// A read side that counts readers per phase fails this (the scheme the hazard slots
/// replaced): the parked reader keeps its phase's counter above zero, and every snapshot
/// retired after it waits for that phase, so all 5,000 stayed alive.
///
/// Only counts are checked, never times; every wait is on a semaphore, a continuation or a
/// count (the time-outs bound a hang, not speed). Each spec has its own census, so the
/// specs may run side by side.
@Suite("Bounded garbage: one parked reader keeps at most a bounded number of retired snapshots")
struct BoundedGarbageTests {
    /// How many registrations each spec makes, uses once and cancels while its reader is
    /// parked.
    static let rounds = 5_000
    /// How many of the rounds' tracked objects may still be alive while the reader is parked.
    static let bound = 64

    /// Pipe, synchronous reader parked.
    ///
    /// A handler of `garbagePark` on pipe P blocks (a semaphore) inside a call made from a
    /// thread of its own; that call pins P's snapshot (the snapshot cached in P's member).
    /// Meanwhile, on another thread, each round registers a `garbageChurn` handler on P
    /// capturing a tracked object, calls `garbageChurn` once (P's next call rebuilds its
    /// snapshot: the new one holds the handler, and the call checks that the handler
    /// answered), and cancels it (which drops that snapshot from P's cache). No reader is on
    /// any of these snapshots once its round ends, so they must not pile up behind the
    /// parked call: at most ``bound`` tracked objects alive while it is still parked, none
    /// after it returns and one more change is made.
    @Test(
        "Pipe: a call parked in a synchronous handler keeps no cancelled handler alive", .hangBound)
    func pipeSyncReaderParked() async {
        let pipe = ActionPipe(name: "garbage.pipe.sync")
        let census = GarbageCensus("pipe, synchronous reader parked")
        let gate = GarbageParkGate()
        pipe.on(\.garbagePark) { process in
            gate.park()
            return process.arguments + 1
        }
        let parkedResult = Box<Int?>(nil)
        let outcome = await whileParkedOnThread(gate) {
            parkedResult.set(pipe.garbagePark(41))
        } churn: {
            census.churn { object in
                let token = pipe.on(\.garbageChurn) { _ in object.round }
                let answered = pipe.garbageChurn(0) == object.round
                return token.cancel() && answered
            }
        }
        census.expectBoundedWhileParked(outcome)
        #expect(parkedResult.value == 42, "the parked call did not finish with its own handler")
        // One more change on the pipe, after the parked call returned.
        pipe.on(\.garbageChurn) { _ in -1 }.cancel()
        await census.expectAllReleased()
    }

    /// Pipe, asynchronous reader parked.
    ///
    /// The same as ``pipeSyncReaderParked()``, with the parked reader an async call: a task
    /// calls `garbageParkAsync` on P, whose handler suspends on a latch the spec opens. An
    /// async call holds P's snapshot across its handlers' suspensions (it may end on another
    /// thread), so a suspended call is a reader that may last arbitrarily long. The
    /// rounds run synchronously on a thread of their own meanwhile: at most ``bound`` tracked
    /// objects alive while the call is suspended, none after it returns and one more change is
    /// made.
    @Test(
        "Pipe: an async call suspended in its handler keeps no cancelled handler alive", .hangBound)
    func pipeAsyncReaderParked() async throws {
        let pipe = ActionPipe(name: "garbage.pipe.async")
        let census = GarbageCensus("pipe, async reader suspended")
        let latch = GarbageAsyncLatch()
        pipe.on(\.garbageParkAsync) { process in
            await latch.wait()
            return process.arguments + 1
        }
        let parked = Task { try await pipe.garbageParkAsync(41) }
        await latch.arrived.wait(for: 1)
        let reading = Box<GarbageReading?>(nil)
        let finished = await runOnThreads(1, timeout: GarbageParkGate.timeout) { _ in
            reading.set(
                census.churn { object in
                    let token = pipe.on(\.garbageChurn) { _ in object.round }
                    let answered = pipe.garbageChurn(0) == object.round
                    return token.cancel() && answered
                })
        }
        // Still suspended: only `open()` below resumes it.
        let stillParked = latch.holdsReader
        latch.open()
        let result = try await parked.value
        census.expectBoundedWhileParked(
            GarbageOutcome(finished: finished, parked: stillParked, reading: reading.value))
        #expect(result == 42, "the suspended call did not finish with its own handler")
        pipe.on(\.garbageChurn) { _ in -1 }.cancel()
        await census.expectAllReleased()
    }

    /// Bus, synchronous subscriber parked.
    ///
    /// A subscriber of `GarbageParkEvent` blocks inside a publish made from a thread of its
    /// own; that publish pins the bus's route table (the snapshot of every event type's
    /// routes), not only its own type's routes. A first publish, which does not park, builds
    /// the type's routes: a publish that finds its routes stale (as the first after a
    /// subscribe does) rebuilds them and delivers with them retained, not pinned, so it would
    /// not be the reader this spec is about (with it, the spec passes today). Meanwhile each
    /// round subscribes to ANOTHER event type, `GarbageChurnEvent`, with a handler capturing
    /// a tracked object, publishes one (the publish finds the type's routes stale, rebuilds
    /// them with the handler and installs them in a new table; it must reach exactly that
    /// handler), and cancels (a new table without the type). The parked publish has nothing
    /// to do with those tables: at most ``bound`` tracked objects alive while it is parked,
    /// none after it returns and one more change is made.
    @Test(
        "Bus: a publish parked in a subscriber keeps no cancelled subscription of another type",
        .hangBound)
    func busSyncSubscriberParked() async {
        let bus = EventBus(name: "garbage.bus.sync")
        let census = GarbageCensus("bus, synchronous subscriber parked")
        let gate = GarbageParkGate()
        bus.subscribe(BusTopic(GarbageParkEvent.self)) { event in
            if event.parks { gate.park() }
        }
        #expect(bus.publish(GarbageParkEvent(parks: false)).handledCount == 1)
        let parkedHandled = Box<Int?>(nil)
        let outcome = await whileParkedOnThread(gate) {
            parkedHandled.set(bus.publish(GarbageParkEvent(parks: true)).handledCount)
        } churn: {
            census.churn { object in
                let ran = Counter()
                let token = bus.subscribe(BusTopic(GarbageChurnEvent.self)) { event in
                    if event.round == object.round { ran.increment() }
                }
                let handled = bus.publish(GarbageChurnEvent(round: object.round)).handledCount
                return token.cancel() && handled == 1 && ran.value == 1
            }
        }
        census.expectBoundedWhileParked(outcome)
        #expect(parkedHandled.value == 1, "the parked publish did not finish")
        bus.subscribe(BusTopic(GarbageChurnEvent.self)) { _ in }.cancel()
        await census.expectAllReleased()
    }

    /// Observed property, observer parked.
    ///
    /// A set of `level` (an `@Observed` property) made from a thread of its own blocks in an
    /// observer: the set pinned `level`'s observer list, the snapshot of that property alone
    /// (each property has its own list; another property of the same state object would not
    /// touch the pinned one, so the rounds use `level` itself). Meanwhile each round observes
    /// `level` with an observer capturing a tracked object, sets `level` once (the set
    /// rebuilds the list with the new observer and delivers to it: it must get exactly that
    /// value), and cancels (a list of fewer than 64 observers is rebuilt at once). The
    /// parked observer blocks only for the value of the parked set, so the rounds' sets,
    /// delivered to it too, do not wait for it (sets on different threads do not wait for one
    /// another's deliveries: see "Ordering guarantees" in the Observable State guide). At
    /// most ``bound`` tracked objects alive while the first set is parked, none after it
    /// returns and one more change is made.
    @Test(
        "Observed property: a set parked in an observer keeps no cancelled observer alive",
        .hangBound)
    func observedPropertyObserverParked() async {
        let state = GarbageState()
        let census = GarbageCensus("observed property, observer parked")
        let gate = GarbageParkGate()
        let parkValue = -1
        let parkedDeliveries = Counter()
        state.$level.observe { value in
            guard value == parkValue else { return }
            parkedDeliveries.increment()
            gate.park()
        }
        let outcome = await whileParkedOnThread(gate) {
            state.level = parkValue
        } churn: {
            census.churn { object in
                let got = Counter()
                let token = state.$level.observe { value in
                    if value == object.round { got.increment() }
                }
                state.level = object.round
                return token.cancel() && got.value == 1
            }
        }
        census.expectBoundedWhileParked(outcome)
        #expect(parkedDeliveries.value == 1, "the parked set was not delivered once")
        state.$level.observe { _ in }.cancel()
        await census.expectAllReleased()
    }

    /// Plumbing, a packet parked in a synchronous stage.
    ///
    /// A `send` made from a thread of its own blocks in a stage: the send pinned the
    /// plumber's configuration snapshot (its stages and sink). Meanwhile each round adds a
    /// stage capturing a tracked object, sends one packet through it (it must pass that
    /// stage), and removes the stage. At most ``bound`` tracked objects alive while the first
    /// packet is parked, none after it is delivered and one more change is made.
    ///
    /// One round may stay while the packet is parked: stages live in a storage that grows by
    /// doubling and that snapshots share, so the first stage added after the parked packet's
    /// snapshot goes into a free place of that packet's storage (removing it copies the
    /// others to a new one); the storage, and the stage, go when the packet ends.
    @Test(
        "Plumbing: a packet parked in a stage keeps no removed stage alive", .hangBound)
    func plumbingStageParked() async {
        let plumber = PipelinePlumber<Int>()
        let census = GarbageCensus("plumbing, packet parked in a stage")
        let gate = GarbageParkGate()
        plumber.addStage("park") { packet in
            if packet.payload < 0 { gate.park() }
            return .pass
        }
        let parkedDelivered = Box<Bool?>(nil)
        let outcome = await whileParkedOnThread(gate) {
            parkedDelivered.set(plumber.send(-1, from: 1).delivered != nil)
        } churn: {
            census.churn { object in
                let passed = Counter()
                let token = plumber.addStage("round") { packet in
                    if packet.payload == object.round { passed.increment() }
                    return .pass
                }
                let delivered = plumber.send(object.round, from: 1).delivered != nil
                return token.cancel() && delivered && passed.value == 1
            }
        }
        census.expectBoundedWhileParked(outcome, sharingWithTheReader: [0])
        #expect(parkedDelivered.value == true, "the parked packet was not delivered")
        plumber.addStage("last") { _ in .pass }.cancel()
        await census.expectAllReleased()
    }

    /// Bus, a publish suspended while it waits for its subscribers (a guard: it passes today).
    ///
    /// The one asynchronous reader the bus has, `publishAndWait`, suspended while a
    /// subscriber's job waits on a custom executor that the spec runs later. No async path of
    /// the bus or of observed state pins a snapshot across a suspension today:
    /// `publishAndWait` retains its event type's routes (taken through a momentary pin of the
    /// route table), and `.task` / actor / custom-executor subscribers, `events(for:)`,
    /// `values()` and `observe(on:)` are handed their event or value and hold no pin. So this
    /// spec passes on today's code; it states that the rewrite must keep it so (a suspended
    /// `publishAndWait` must not keep alive the tables that later changes to other event
    /// types retire). Rounds as in ``busSyncSubscriberParked()``.
    @Test(
        "Bus (a guard: this reader retains, it does not pin): a suspended publishAndWait keeps no cancelled subscription",
        .hangBound)
    func busPublishAndWaitSuspended() async {
        let bus = EventBus(name: "garbage.bus.async")
        let census = GarbageCensus("bus, publishAndWait suspended")
        let held = Box<[@Sendable () -> Void]>([])
        let handedOver = Tally()
        let later = BusExecutor.custom { job in
            held.set(held.value + [job])
            handedOver.increment()
        }
        let ran = Counter()
        bus.subscribe(BusTopic(GarbageParkEvent.self), on: later) { _ in ran.increment() }
        let waiting = Task { await bus.publishAndWait(GarbageParkEvent(parks: true)) }
        await handedOver.wait(for: 1)
        let reading = Box<GarbageReading?>(nil)
        let finished = await runOnThreads(1, timeout: GarbageParkGate.timeout) { _ in
            reading.set(
                census.churn { object in
                    let got = Counter()
                    let token = bus.subscribe(BusTopic(GarbageChurnEvent.self)) { event in
                        if event.round == object.round { got.increment() }
                    }
                    let handled = bus.publish(GarbageChurnEvent(round: object.round)).handledCount
                    return token.cancel() && handled == 1 && got.value == 1
                })
        }
        // Still suspended: its subscriber's job has not run.
        let stillParked = ran.value == 0
        for job in held.value { job() }
        let summary = await waiting.value
        census.expectBoundedWhileParked(
            GarbageOutcome(finished: finished, parked: stillParked, reading: reading.value))
        #expect(summary.reports.count == 1, "the suspended publish did not reach its subscriber")
        bus.subscribe(BusTopic(GarbageChurnEvent.self)) { _ in }.cancel()
        await census.expectAllReleased()
    }
}

// MARK: - Actions, events and state of the specs

extension Actions {
    /// The call the pipe specs park inside a synchronous handler.
    fileprivate var garbagePark: Action<Int, Int> { .init() }
    /// The call the pipe specs park inside an async handler.
    fileprivate var garbageParkAsync: AsyncAction<Int, Int> { .init() }
    /// The action whose handlers the rounds register, call once and cancel.
    fileprivate var garbageChurn: Action<Int, Int> { .init() }
}

/// The event the bus specs park a subscriber of.
private struct GarbageParkEvent: BusEvent {
    /// Whether the subscriber parks for it (a first event builds the routes without parking).
    let parks: Bool
}

/// The event type the bus specs' rounds subscribe to, publish and cancel: not the parked one.
private struct GarbageChurnEvent: BusEvent {
    let round: Int
}

/// The state object of the observed-property spec.
private final class GarbageState: ObservableState, @unchecked Sendable {
    // `@unchecked`: the wrapper's storage is created once and never reassigned (see
    // `Observed`); the compiler sees a `var`.
    @Observed("garbage.level") var level = 0
}

// MARK: - The census

/// An object a round's registration captures; counts itself in its spec's census.
private final class GarbageObject: Sendable {
    let round: Int
    private let census: GarbageCensus

    init(round: Int, census: GarbageCensus) {
        self.round = round
        self.census = census
        census.count.add(1, ordering: .sequentiallyConsistent)
    }

    deinit { census.count.subtract(1, ordering: .sequentiallyConsistent) }
}

/// A weak reference to one round's object, for a spot check of its release.
private final class GarbageWeakRef: Sendable {
    weak let object: GarbageObject?
    init(_ object: GarbageObject) { self.object = object }
}

/// What a spec saw at the end of its rounds, with its reader still parked.
private struct GarbageReading: Sendable {
    /// Tracked objects alive.
    var alive: Int
    /// The watched early rounds whose object was still alive.
    var earlyAlive: [Int]
    /// Rounds whose registration did not answer once, or whose cancel failed.
    var wrongRounds: Int
}

/// How the parked part of a spec went.
private struct GarbageOutcome {
    /// Whether the threads finished within their time-out.
    var finished: Bool
    /// Whether the reader was parked when the reading was taken (and stayed so until the
    /// spec released it).
    var parked: Bool
    /// The reading, if the rounds ran.
    var reading: GarbageReading?
}

/// One spec's tracked objects: how many are alive (one `Atomic<Int>` per spec), and weak
/// references to a few of them.
private final class GarbageCensus: Sendable {
    let name: String
    let count = Atomic<Int>(0)
    /// The rounds whose object must be gone while the reader is still parked: thousands of
    /// changes came after them.
    static let early = [0, 1, BoundedGarbageTests.rounds / 2]
    /// The rounds watched through weak references: the early ones and the last.
    static let watched = early + [BoundedGarbageTests.rounds - 1]
    private let references = TestLock<[Int: GarbageWeakRef]>([:])

    init(_ name: String) { self.name = name }

    /// Tracked objects alive now.
    var alive: Int { count.load(ordering: .sequentiallyConsistent) }

    /// The watched rounds among `rounds` whose object is still alive.
    func stillAlive(_ rounds: [Int]) -> [Int] {
        let references = references.withLock { $0 }
        return rounds.filter { references[$0]?.object != nil }
    }

    /// Runs the spec's rounds on this thread: `round` registers something capturing the
    /// object it is given, uses it once and cancels it, and returns whether all went as
    /// expected. Returns what is alive afterwards.
    func churn(_ round: (GarbageObject) -> Bool) -> GarbageReading {
        var wrong = 0
        for number in 0..<BoundedGarbageTests.rounds {
            let object = GarbageObject(round: number, census: self)
            if Self.watched.contains(number) {
                references.withLock { $0[number] = GarbageWeakRef(object) }
            }
            if !round(object) { wrong += 1 }
        }
        return GarbageReading(alive: alive, earlyAlive: stillAlive(Self.early), wrongRounds: wrong)
    }

    /// The spec's checks while its reader was parked: every round worked, and at most
    /// ``BoundedGarbageTests/bound`` tracked objects were alive, the early ones gone.
    func expectBoundedWhileParked(
        _ outcome: GarbageOutcome, sharingWithTheReader shared: Set<Int> = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(outcome.finished, "threads did not finish: a hang", sourceLocation: sourceLocation)
        #expect(
            outcome.parked, "the reader was not parked throughout the rounds",
            sourceLocation: sourceLocation)
        guard let reading = outcome.reading else {
            Issue.record(
                "the rounds did not run (the reader never parked)", sourceLocation: sourceLocation)
            return
        }
        let rounds = BoundedGarbageTests.rounds
        let bound = BoundedGarbageTests.bound
        print(
            "BoundedGarbage (\(name)): \(reading.alive) of \(rounds) tracked objects alive "
                + "while the reader was parked (bound \(bound))")
        #expect(
            reading.wrongRounds == 0,
            """
            \(name): in \(reading.wrongRounds) rounds the registration did not answer once or \
            its cancel failed
            """,
            sourceLocation: sourceLocation)
        #expect(
            reading.alive <= bound,
            """
            \(name): \(reading.alive) of \(rounds) cancelled registrations' captures alive while \
            one reader was parked; at most \(bound) may be (a parked reader keeps only the \
            snapshot it read, not those retired after it)
            """,
            sourceLocation: sourceLocation)
        #expect(
            Set(reading.earlyAlive).isSubset(of: shared),
            """
            \(name): the objects of rounds \(reading.earlyAlive) still alive while the reader \
            was parked
            """,
            sourceLocation: sourceLocation)
    }

    /// The spec's checks once its reader has returned and one more change was made: every
    /// tracked object released (waited for: a release may come from a task winding down).
    func expectAllReleased(sourceLocation: SourceLocation = #_sourceLocation) async {
        let released = await eventually { alive == 0 }
        #expect(
            released,
            """
            \(name): \(alive) tracked objects still alive after the reader returned and one more \
            change
            """,
            sourceLocation: sourceLocation)
        #expect(
            stillAlive(Self.watched).isEmpty,
            "\(name): watched rounds \(stillAlive(Self.watched)) still alive at the end",
            sourceLocation: sourceLocation)
    }
}

// MARK: - Parking a reader

/// Where a synchronous reader parks: its handler (or subscriber, or observer) calls
/// ``park()`` and blocks until the spec calls ``release()``.
private final class GarbageParkGate: Sendable {
    /// A bound on a hang, not on speed: far beyond what the rounds take, even under
    /// ThreadSanitizer on a busy machine, and inside the suite's time limit.
    static let timeout: Double = 240
    private let entered = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)
    /// Whether the reader left its park because it was released (not by the time-out).
    private let leftOnRelease = Atomic<Bool>(false)

    /// Called by the parked reader: announces itself, then blocks until ``release()``.
    func park() {
        entered.signal()
        let result = released.wait(timeout: .now() + Self.timeout)
        leftOnRelease.store(result == .success, ordering: .sequentiallyConsistent)
    }

    /// Waits until the reader has parked; `false` if it never did.
    func waitUntilParked() -> Bool {
        entered.wait(timeout: .now() + Self.timeout) == .success
    }

    /// Lets the parked reader go on.
    func release() { released.signal() }

    /// Whether the reader stayed parked until it was released.
    var stayedParked: Bool { leftOnRelease.load(ordering: .sequentiallyConsistent) }
}

/// Runs `park` on one thread (it reaches a reader that parks at `gate`) and, once that reader
/// is parked, `churn` on another; then releases the reader, and returns once both threads
/// have finished. The threads take their turn (``runOnThreads(_:timeout:_:)``).
private func whileParkedOnThread(
    _ gate: GarbageParkGate, park: @escaping @Sendable () -> Void,
    churn: @escaping @Sendable () -> GarbageReading
) async -> GarbageOutcome {
    let reading = Box<GarbageReading?>(nil)
    let finished = await runOnThreads(2, timeout: GarbageParkGate.timeout) { thread in
        if thread == 0 {
            park()
            return
        }
        if gate.waitUntilParked() { reading.set(churn()) }
        gate.release()
    }
    return GarbageOutcome(finished: finished, parked: gate.stayedParked, reading: reading.value)
}

/// Where an async reader parks: its handler awaits ``wait()`` until the spec calls
/// ``open()``. The wait ignores cancellation; it needs no ``HangGuard``: the spec opens it
/// on every path, once its rounds have ended or timed out.
private final class GarbageAsyncLatch: Sendable {
    private let state = TestLock<(open: Bool, waiter: CheckedContinuation<Void, Never>?)>(
        (false, nil))
    /// Counts the readers that have reached ``wait()`` (and are suspended, unless it is open).
    let arrived = Tally()

    /// Suspends until ``open()``.
    func wait() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiter = continuation
                return false
            }
            arrived.increment()
            if now { continuation.resume() }
        }
    }

    /// Whether a reader is suspended here now.
    var holdsReader: Bool { state.withLock { $0.waiter != nil } }

    /// Resumes the reader and lets any later one through.
    func open() {
        let waiter = state.withLock { state in
            defer { state.waiter = nil }
            state.open = true
            return state.waiter
        }
        waiter?.resume()
    }
}
