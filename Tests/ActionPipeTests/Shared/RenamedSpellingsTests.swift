import ActionPipe
import Synchronization
import Testing

extension Actions {
    fileprivate var renamedPing: Action<Int, Int> { .init() }
}

/// An owner for the old `handle(target:)` spelling.
private final class RenamedRobot: Sendable {}

/// Calls every old spelling once. Deprecated itself, so that calling deprecated names here
/// is no warning (the tests build with warnings as errors); its callers are the specs.
@available(*, deprecated, message: "exercises the renamed spellings")
private func useOldSpellings() async -> (report: (Int, Bool), tree: (Int, Int, Int)) {
    let pipe = ActionPipe(name: "renamed")
    let robot = RenamedRobot()
    pipe.on(\.renamedPing).handle(target: robot) { _, process in process.arguments + 1 }
    let report = pipe.renamedPing.report(1)
    let root = OperationTreeNode("renamed", objects: { (n: Int) in [n, n + 1] }, work: { $0 })
    let tree = await root.run(1)
    withExtendedLifetime(robot) {}
    return ((report.handlersRun, report.failed), (tree.succeeded, tree.retries, tree.notStarted))
}

/// A state with one property, for the old `observe(by:)` spellings.
private final class RenamedState: ObservableState, @unchecked Sendable {
    @Observed var count = 0
}

/// Calls the bus's and state's old spellings once; deprecated for the reason above.
@available(*, deprecated, message: "exercises the renamed spellings")
private func useOldBusAndStateSpellings() -> (delivered: Int, observed: [Int], counts: [Int]) {
    let robot = RenamedRobot()
    let bus = EventBus(name: "renamed")
    let delivered = TestLock(0)
    bus.subscribe(busTestPings, by: robot) { _, _ in delivered.withLock { $0 += 1 } }
    let result = bus.publish(BusTestPing())
    let state = RenamedState()
    let observed = TestLock<[Int]>([])
    state.$count.observe(by: robot) { _, value in observed.withLock { $0.append(value) } }
    state.observe(\.$count, by: robot) { _, value in observed.withLock { $0.append(value) } }
    state.count = 7
    let made = BusPublishResult(handled: 2, failed: 1)
    withExtendedLifetime(robot) {}
    return (
        delivered.withLock { $0 }, observed.withLock { $0 },
        [result.handled, result.failed, result.scheduled, result.reached, made.reachedCount]
    )
}

/// Names renamed before 0.2 still compile, deprecated with a fix-it, and mean what the new
/// names mean.
@Suite("Renamed spellings still work for one release")
struct RenamedSpellingsTests {
    @available(*, deprecated, message: "calls the renamed spellings")
    @Test("handle(target:), handlersRun, failed and the tree report's old counts")
    func oldSpellings() async {
        let (report, tree) = await useOldSpellings()
        #expect(report.0 == 1)
        #expect(report.1 == false)
        #expect(tree.0 == 2)
        #expect(tree.1 == 0)
        #expect(tree.2 == 0)
    }

    @available(*, deprecated, message: "calls the renamed spellings")
    @Test("subscribe(_:by:), observe(by:), and the bus's old result counts")
    func oldBusAndStateSpellings() {
        let (delivered, observed, counts) = useOldBusAndStateSpellings()
        #expect(delivered == 1)
        #expect(observed == [7, 7])
        #expect(counts == [1, 0, 0, 1, 3])
    }
}
