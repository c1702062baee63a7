import ActionPipe
import ActionPipeTesting
import Testing

@Suite("ActionPipeTesting: ManualExecutor", .hangBound)
struct ManualExecutorTests {
    @Test("nothing runs until the test asks; runNext runs the oldest job, runAll the rest")
    func runsOnlyWhenAsked() {
        let bus = EventBus(name: "kit.manual")
        let manual = ManualExecutor()
        let ticks = BusRecorder(bus, BusTopic(KitTick.self), on: manual.executor)
        for sequence in 0..<3 {
            #expect(bus.publish(KitTick(source: 0, sequence: sequence)).scheduledCount == 1)
        }
        #expect(ticks.count == 0)
        #expect(manual.pendingCount == 3)
        #expect(manual.enqueuedCount == 3)
        #expect(manual.runNext())
        #expect(ticks.events.map(\.sequence) == [0])
        #expect(manual.runAll() == 2)
        #expect(ticks.events.map(\.sequence) == [0, 1, 2])
        #expect(manual.pendingCount == 0)
        #expect(manual.ranCount == 3)
        #expect(!manual.runNext())
        #expect(manual.runAll() == 0)
    }

    @Test("runAll runs the jobs that jobs enqueue, outside the executor's lock")
    func jobsEnqueueJobs() {
        let bus = EventBus(name: "kit.nested")
        let manual = ManualExecutor()
        let seen = Recorder<Int>()
        // Each handler reads the executor and publishes again through it: were jobs run
        // under the executor's lock, the first of these would deadlock (the time limit).
        bus.subscribe(BusTopic(KitTick.self), on: manual.executor) { tick in
            seen.record(manual.pendingCount)
            if tick.sequence < 4 {
                bus.publish(KitTick(source: 0, sequence: tick.sequence + 1))
            }
        }
        bus.publish(KitTick(source: 0, sequence: 0))
        #expect(manual.runAll() == 5)
        #expect(seen.values == [0, 0, 0, 0, 0])
        #expect(manual.enqueuedCount == 5)
    }

    @Test("a publish through the executor happens when the job runs, in order")
    func publishOn() {
        let bus = EventBus(name: "kit.publishOn")
        let manual = ManualExecutor()
        let ticks = BusRecorder(bus, BusTopic(KitTick.self))
        bus.publish(KitTick(source: 1, sequence: 0), on: manual.executor)
        bus.publish(KitTick(source: 2, sequence: 0), on: manual.executor)
        #expect(ticks.count == 0)
        manual.runAll()
        #expect(ticks.events.map(\.source) == [1, 2])
    }

    @Test("waitForPending waits for a job queued by another task; publishAndWait then ends")
    func waitForPending() async {
        let bus = EventBus(name: "kit.wait")
        let manual = ManualExecutor()
        let ticks = BusRecorder(bus, BusTopic(KitTick.self), on: manual.executor)
        let publisher = Task { await bus.publishAndWait(KitTick(source: 0, sequence: 0)) }
        await manual.waitForPending(1)
        #expect(ticks.count == 0)
        #expect(manual.runAll() == 1)
        let summary = await publisher.value
        #expect(summary.successes.count == 1)
        #expect(ticks.count == 1)
    }

    @Test("a cancelled waitForPending returns")
    func cancelledWait() async {
        let manual = ManualExecutor()
        let waiter = Task { await manual.waitForPending(1) }
        waiter.cancel()
        await waiter.value
        #expect(manual.pendingCount == 0)
    }

    @Test("a job may run the executor itself: nested runs drain the queue once")
    func nestedRun() {
        let bus = EventBus(name: "kit.reentrant")
        let manual = ManualExecutor()
        let order = Recorder<Int>()
        bus.subscribe(BusTopic(KitTick.self)) { tick in
            order.record(tick.sequence)
            if tick.sequence == 0 { manual.runAll() }  // from inside a job, outside the lock
        }
        bus.publish(KitTick(source: 0, sequence: 0), on: manual.executor)
        bus.publish(KitTick(source: 0, sequence: 1), on: manual.executor)
        #expect(manual.runAll() == 1)
        #expect(order.values == [0, 1])
        #expect(manual.ranCount == 2)
    }
}
