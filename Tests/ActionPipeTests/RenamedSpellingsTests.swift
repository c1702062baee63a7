import ActionPipe
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
}
