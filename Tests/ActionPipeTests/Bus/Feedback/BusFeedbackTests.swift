import ActionPipe
import ActionPipeTesting
import Testing

@Suite("Bus feedback")
struct BusFeedbackTests {
    @Test("each subscriber reports to the publisher, in order, with its answer or error")
    func feedbackPerSubscriber() {
        let bus = EventBus(name: "feedback")
        let cache = BusTestSubscriber("cache")
        let audit = BusTestSubscriber("audit")
        bus.subscribe(BusTopic(BusTestQuery.self), owner: cache) { cache, query in
            "\(cache.name) knows \(query.question)"
        }
        bus.subscribe(BusTopic(BusTestQuery.self), owner: audit, name: "Audit") { _, _ in
            throw BusTestError(reason: "audit offline")
        }
        bus.subscribe(BusTopic(BusTestQuery.self)) { _ in "plain" }
        let reports = Box<[BusFeedback<String>]>([])
        let result = bus.publish(BusTestQuery(question: "q")) { feedback in
            reports.set(reports.value + [feedback])
        }
        #expect(result == BusPublishResult(handledCount: 2, failedCount: 1, scheduledCount: 0))
        let all = reports.value
        #expect(all.map(\.subscriber) == ["BusTestSubscriber", "Audit", "subscription"])
        #expect(all.map(\.value) == ["cache knows q", nil, "plain"])
        #expect(all.map(\.isSuccess) == [true, false, true])
        #expect(all[1].error as? BusTestError == BusTestError(reason: "audit offline"))
        #expect(all[1].description == "Audit failed: refused: audit offline")
        #expect(all[0].description == "BusTestSubscriber handled: cache knows q")
        #expect(all.allSatisfy { $0.duration >= .zero })
        #expect(all[0].subscription.isActive)
        withExtendedLifetime((cache, audit)) {}
    }

    @Test("publishAndWait awaits every subscriber, executors included, and summarises")
    func summary() async {
        let bus = EventBus(name: "summary")
        let store = BusTestSubscriber("store")
        bus.subscribe(BusTopic(BusTestQuery.self), name: "sync") { _ in "sync" }
        bus.subscribe(BusTopic(BusTestQuery.self), owner: store, name: "onTask", on: .task) {
            _, _ in "task"
        }
        bus.subscribe(BusTopic(BusTestQuery.self), name: "onMain", on: .mainActor) { _ in
            MainActor.assumeIsolated { "main" }
        }
        bus.subscribe(BusTopic(BusTestQuery.self), name: "failing", on: .task) { _ in
            throw BusTestError(reason: "nope")
        }
        let summary = await bus.publishAndWait(BusTestQuery(question: "q"))
        #expect(summary.reports.map(\.subscriber) == ["sync", "onTask", "onMain", "failing"])
        #expect(summary.successes.map(\.subscriber) == ["sync", "onTask", "onMain"])
        #expect(summary.failures.map(\.subscriber) == ["failing"])
        #expect(summary.values == ["sync", "task", "main"])
        #expect(summary.skippedCount == 0)
        #expect(summary.duration >= .zero)
        #expect(
            summary.description == "3 handled (sync, onTask, onMain), 1 failed (failing), 0 skipped"
        )
        withExtendedLifetime(store) {}
    }

    @Test("Void events report handled with no value; union subscriptions answer nothing")
    func voidAndUnionFeedback() async {
        let bus = EventBus(name: "void")
        bus.subscribe(busTestPings, name: "plain") { _ in }
        bus.subscribe(anyOf: [busTestPings.key], name: "anyOf") { _ in }
        let summary = await bus.publishAndWait(BusTestPing())
        #expect(summary.successes.map(\.subscriber) == ["plain", "anyOf"])
        #expect(summary.reports[0].value != nil)  // Void: handled, with ()
        #expect(summary.reports[1].value == nil)  // a union answers nothing
        #expect(summary.reports[0].description == "plain handled")
    }

    @Test("subscribers on an executor report from there, after the publish returns")
    func executorFeedback() {
        let bus = EventBus(name: "later")
        let manual = ManualExecutor()
        let reports = Recorder<String>()
        let queries = BusRecorder(
            bus, BusTopic(BusTestQuery.self), name: "queued", on: manual.executor
        ) { _ in "late" }
        let result = bus.publish(BusTestQuery(question: "q")) { reports.record("\($0)") }
        #expect(result.scheduledCount == 1)
        #expect(reports.values == [])
        manual.runAll()
        #expect(reports.values == ["queued handled: late"])
        #expect(queries.events.map(\.question) == ["q"])
    }

    @Test("a subscriber gone before its executor runs is counted as skipped")
    func skipped() async {
        let bus = EventBus(name: "skipped")
        let enqueued = BusTestGate()
        let gate = BusTestGate()
        var subscriber: BusTestSubscriber? = BusTestSubscriber("s")
        bus.subscribe(
            BusTopic(BusTestQuery.self), owner: subscriber!,
            on: .custom { job in
                Task {
                    await enqueued.open()
                    await gate.wait()
                    job()
                }
            }
        ) { _, _ in "ran" }
        async let summary = bus.publishAndWait(BusTestQuery(question: "q"))
        await enqueued.wait()  // the publish has handed the handler over
        subscriber = nil
        await gate.open()
        let result = await summary
        #expect(result.skippedCount == 1)
        #expect(result.reports.isEmpty)
    }
}

/// A one-shot gate: `wait` suspends until `open`.
actor BusTestGate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        HangGuard.arm("BusTestGate") { await self.expire() }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Opens the gate if someone still waits at it; see ``HangGuard``.
    private func expire() -> Bool {
        guard !waiters.isEmpty else { return false }
        open()
        return true
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters.removeAll()
    }
}
