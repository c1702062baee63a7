import ActionPipeConcurrency
import Synchronization

/// The one FIFO of deliveries to the main actor (see ``MainActorDelivery``), drained by one
/// main-actor task at a time, with no lock held; a delivery enqueued on the main actor with
/// nothing queued runs at once. ``idle()`` waits until everything enqueued before has run.
@usableFromInline
package final class _MainActorQueue: Sendable {
    @usableFromInline package static let shared = _MainActorQueue()

    private struct State {
        var pending: [@MainActor @Sendable () -> Void] = []
        var draining = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = LockedValue(State())

    private init() {}

    package static var isOnMainActor: Bool { MainQueue.isCurrent }

    /// Stored under the state's lock, so the main actor checks "nothing queued" in one load.
    private let busy = Atomic<Bool>(false)

    /// On the main actor with nothing queued: a delivery may run at once. Frequent
    /// deliveries test this first, and allocate a queued closure only when it is `false`.
    @usableFromInline package var isIdleOnMainActor: Bool {
        MainQueue.isCurrent && !busy.load(ordering: .acquiring)
    }

    /// Runs `work` on the main actor after every delivery enqueued before it.
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

    /// Returns once every delivery enqueued before the call has run.
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
