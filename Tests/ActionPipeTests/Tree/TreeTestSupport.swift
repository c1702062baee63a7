import ActionPipe
import Foundation
import Synchronization

/// Tracks how many provider calls run at once, and the most there ever were.
final class TreeConcurrencyGauge: Sendable {
    private let current = Atomic<Int>(0)
    private let highest = Atomic<Int>(0)

    /// Counts a call in for the duration of `body`.
    func measure<T>(_ body: () async throws -> T) async rethrows -> T {
        let now = current.add(1, ordering: .sequentiallyConsistent).newValue
        _ = highest.max(now, ordering: .sequentiallyConsistent)
        defer { current.subtract(1, ordering: .sequentiallyConsistent) }
        return try await body()
    }

    var peak: Int { highest.load(ordering: .sequentiallyConsistent) }
}

/// A gate tasks wait at until it opens.
final class TreeGate: Sendable {
    private let state = TestLock<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>(
        (false, []))

    func wait() async {
        if state.withLock({ $0.open }) { return }
        HangGuard.arm("TreeGate") { self.expire() }
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Opens the gate if someone still waits at it; see ``HangGuard``.
    private func expire() -> Bool {
        guard state.withLock({ !$0.waiters.isEmpty }) else { return false }
        open()
        return true
    }
}

/// The error the tree tests' providers throw.
struct TreeTestError: Error, Equatable, CustomStringConvertible {
    let what: String
    var description: String { "test failure: \(what)" }
}

/// Collects every event of a run, then returns them with the report.
func treeCollect(_ run: OperationTreeRun) async -> ([OperationTreeEvent], OperationTreeReport) {
    var events: [OperationTreeEvent] = []
    for await event in run.events { events.append(event) }
    return (events, await run.report)
}

/// A tree `depth` levels below the root, each item having `fanOut` children; every node
/// calls `work` with its level and the item's value.
func treeMakeUniform(
    depth: Int, fanOut: Int, concurrencyLimit: Int? = nil,
    work: @escaping @Sendable (Int, Int) async throws -> Int
) -> OperationTreeNode<Int, Int> {
    let root = OperationTreeNode(
        "level0", objects: { (n: Int) in [n] }, work: { try await work(0, $0) })
    var parent = root
    for level in 1...max(1, depth) where depth > 0 {
        let node = OperationTreeNode(
            "level\(level)", concurrencyLimit: concurrencyLimit,
            objects: { (n: Int) in (0..<fanOut).map { n * fanOut + $0 } },
            work: { try await work(level, $0) })
        try! parent.addChild(node)
        parent = node
    }
    return root
}
