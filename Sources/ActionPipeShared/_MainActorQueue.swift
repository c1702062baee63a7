import ActionPipeConcurrency
import Dispatch

/// The one queue of deliveries to the main actor (see ``MainActorDelivery``): a FIFO of
/// work items, drained in order by one main-actor task at a time.
///
/// - A delivery enqueued on the main thread with nothing queued and no drain running runs
///   at once (the caller is on the main actor); any other is appended, and the first
///   append after the queue emptied schedules a drain.
/// - The drain takes the whole queue, runs it with no lock held, and repeats until the queue
///   is empty; a delivery that writes again appends behind what is queued.
/// - ``idle()`` waits until everything enqueued before it has run.
package final class _MainActorQueue: Sendable {
    /// The process's queue.
    package static let shared = _MainActorQueue()

    private struct State {
        var pending: [@MainActor @Sendable () -> Void] = []
        var draining = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = LockedValue(State())

    private init() {}

    /// Marks the main queue, where the main actor runs, so that ``isOnMainActor`` can tell.
    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether the caller runs on the main queue, the main actor's executor: then a delivery
    /// may run at once. (`false` on the main thread outside the main queue, such as top-level
    /// code before the main queue runs: such deliveries are queued, which is never wrong.)
    ///
    /// - Complexity: O(1).
    package static var isOnMainActor: Bool {
        DispatchQueue.getSpecific(key: mainQueueKey) == true
    }

    /// Runs `work` on the main actor after every delivery enqueued before it.
    ///
    /// - Complexity: O(1) amortised, plus `work` when it runs at once.
    package func enqueue(_ work: @escaping @MainActor @Sendable () -> Void) {
        if Self.isOnMainActor, state.withLock({ !$0.draining && $0.pending.isEmpty }) {
            MainActor.assumeIsolated { work() }
            return
        }
        let schedule = state.withLock { state in
            state.pending.append(work)
            if state.draining { return false }
            state.draining = true
            return true
        }
        if schedule { Task { @MainActor in self.drain() } }
    }

    /// Runs the queued deliveries in order until none is left, then wakes ``idle()``'s
    /// waiters.
    @MainActor
    private func drain() {
        while true {
            let (batch, waiters) = state.withLock { state in
                if state.pending.isEmpty {
                    state.draining = false
                    defer { state.waiters = [] }
                    return ([@MainActor @Sendable () -> Void](), state.waiters)
                }
                defer { state.pending = [] }
                return (state.pending, [CheckedContinuation<Void, Never>]())
            }
            if batch.isEmpty {
                for waiter in waiters { waiter.resume() }
                return
            }
            for work in batch { work() }
        }
    }

    /// Returns once every delivery enqueued before the call has run (at once when none is
    /// queued): for tests, and for code that must see the main actor caught up.
    ///
    /// - Complexity: O(1) to wait; the wait lasts as long as the queued deliveries.
    package func idle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                if !state.draining && state.pending.isEmpty { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}
