import ActionPipe
import ActionPipeTesting
import Testing

@Suite("Bus executors")
struct BusExecutorTests {
    @Test("without an executor handlers run during the publish, on the publisher's thread")
    func synchronousByDefault() {
        let bus = EventBus(name: "sync")
        let recorder = BusTestRecorder()
        bus.subscribe(busTestPings) { _ in recorder.record("handler") }
        recorder.record("before")
        bus.publish(BusTestPing())
        recorder.record("after")
        #expect(recorder.all == ["before", "handler", "after"])
    }

    @Test("a serial custom executor runs handlers later, in publish order")
    func customSerial() {
        let bus = EventBus(name: "custom")
        let manual = ManualExecutor()
        let queued = BusRecorder(bus, busTestLogins, on: manual.executor)
        let sync = BusRecorder(bus, busTestLogins)
        for user in ["a", "b", "c"] {
            #expect(
                bus.publish(BusTestLogin(subtype: .login, user: user))
                    == BusPublishResult(handledCount: 1, failedCount: 0, scheduledCount: 1))
        }
        #expect(sync.events.map(\.user) == ["a", "b", "c"])
        #expect(queued.count == 0)
        #expect(manual.runAll() == 3)
        #expect(queued.events.map(\.user) == ["a", "b", "c"])
        #expect(sync.count == 3)
    }

    @Test("a cancelled subscription's queued handler does not run")
    func cancelledBeforeRun() {
        let bus = EventBus(name: "cancelQueued")
        let manual = ManualExecutor()
        let pings = BusRecorder(bus, busTestPings, on: manual.executor)
        bus.publish(BusTestPing())
        pings.cancel()
        #expect(manual.runAll() == 1)  // the job runs, and calls nothing
        #expect(pings.count == 0)
    }

    @Test("the main actor executor runs handlers on the main actor")
    func mainActor() async {
        let bus = EventBus(name: "main")
        let summary = await Task.detached {
            bus.subscribe(busTestPings, on: BusExecutor.mainActor) { _ in
                MainActor.assumeIsolated {}
            }
            return await bus.publishAndWait(BusTestPing())
        }.value
        #expect(summary.successes.count == 1)
    }

    @Test("an actor executor runs handlers on that actor's executor")
    func actorExecutor() async {
        let bus = EventBus(name: "actor")
        let store = BusTestStore()
        bus.subscribe(busTestLogins, on: .actor(store)) { event in
            store.assumeIsolated { $0.users.append(event.user) }
        }
        let summary = await bus.publishAndWait(BusTestLogin(subtype: .login, user: "ann"))
        #expect(summary.successes.count == 1)
        #expect(await store.users == ["ann"])
        #expect(BusExecutor.actor(store).description == "actor(BusTestStore)")
    }

    @Test("publishing on an executor: the publish itself happens there")
    func publishOnExecutor() {
        let bus = EventBus(name: "publishOn")
        let manual = ManualExecutor()
        let pings = BusRecorder(bus, busTestPings)
        bus.publish(BusTestPing(), on: manual.executor)
        #expect(pings.count == 0)
        manual.runAll()
        #expect(pings.count == 1)
    }

    @Test("the task executor runs handlers concurrently, off the publisher")
    func taskExecutor() async {
        let bus = EventBus(name: "task")
        bus.subscribe(busTestPings, on: .task) { _ in }
        #expect(bus.publish(BusTestPing()).scheduledCount == 1)
        let summary = await bus.publishAndWait(BusTestPing())
        #expect(summary.successes.count == 1)
        #expect(BusExecutor.task.description == "task")
        #expect(BusExecutor.mainActor.description == "mainActor")
    }
}

/// An actor the executor tests run handlers on.
actor BusTestStore {
    var users: [String] = []
}
