import ActionPipeConcurrency
import Synchronization

/// The one queue of deliveries to the main actor (see ``MainActorDelivery``): a FIFO of
/// work items, drained in order by one main-actor task at a time.
///
/// - A delivery enqueued on the main thread with nothing queued and no drain running runs
///   at once (the caller is on the main actor); any other is appended, and the first
///   append after the queue emptied schedules a drain.
/// - The drain takes the whole queue, runs it with no lock held, and repeats until the queue
///   is empty; a delivery that writes again appends behind what is queued.
/// - ``idle()`` waits until everything enqueued before it has run.
@usableFromInline
package final class _MainActorQueue: Sendable {
    /// The process's queue.
    @usableFromInline package static let shared = _MainActorQueue()

    private struct State {
        var pending: [@MainActor @Sendable () -> Void] = []
        var draining = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = LockedValue(State())

    private init() {}

    /// Whether the caller runs on the main queue, the main actor's executor: then a delivery
    /// may run at once.
    ///
    /// - Complexity: O(1).
    package static var isOnMainActor: Bool { MainQueue.isCurrent }

    /// Whether something is queued or a drain runs; stored with the state, under its lock,
    /// so the main actor can check for "nothing queued" with one load.
    private let busy = Atomic<Bool>(false)

    /// Whether the caller is on the main actor with nothing queued for it: then a delivery
    /// may run at once, before everything enqueued later. A delivery that may be made often
    /// tests this first, and allocates a queued closure only when it is `false`.
    ///
    /// - Complexity: O(1): one look-up of the current queue, one load.
    @usableFromInline package var isIdleOnMainActor: Bool {
        MainQueue.isCurrent && !busy.load(ordering: .acquiring)
    }

    /// Runs `work` on the main actor after every delivery enqueued before it.
    ///
    /// - Complexity: O(1) amortised, plus `work` when it runs at once.
    package func enqueue(_ work: @escaping @MainActor @Sendable () -> Void) {
        if isIdleOnMainActor {
            MainActor.assumeIsolated { work() }
            return
        }
        let schedule = state.withLock { state in
            state.pending.append(work)
            if state.draining { return false }
            state.draining = true
            busy.store(true, ordering: .releasing)
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
                    busy.store(false, ordering: .releasing)
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
