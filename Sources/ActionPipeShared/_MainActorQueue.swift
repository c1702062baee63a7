import ActionPipeConcurrency
import Synchronization

/// The one FIFO of deliveries to the main actor (``MainActorDelivery``), drained by one
/// main-actor task at a time, unlocked; enqueued on the main actor when idle, one runs at once.
@usableFromInline
package final class _MainActorQueue: Sendable {
    @usableFromInline package static let shared = _MainActorQueue()

    private let pending = LockedValue<[@MainActor @Sendable () -> Void]>([])

    /// A drain is scheduled or running; stored under `pending`'s lock, so "nothing queued" is
    /// one load.
    private let busy = Atomic<Bool>(false)

    private init() {}

    package static var isOnMainActor: Bool { MainQueue.isCurrent }

    /// A delivery may run at once; frequent ones test this before allocating a closure.
    @usableFromInline package var isIdleOnMainActor: Bool {
        MainQueue.isCurrent && !busy.load(ordering: .acquiring)
    }

    /// Runs `work` on the main actor after every delivery enqueued before it.
    package func enqueue(_ work: @escaping @MainActor @Sendable () -> Void) {
        if isIdleOnMainActor {
            MainActor.assumeIsolated { work() }
            return
        }
        let schedule = pending.withLock { pending in
            pending.append(work)
            if busy.load(ordering: .relaxed) { return false }
            busy.store(true, ordering: .releasing)
            return true
        }
        if schedule { Task { @MainActor in self.drain() } }
    }

    @MainActor
    private func drain() {
        while true {
            let batch = pending.withLock { pending in
                defer { pending = [] }
                if pending.isEmpty { busy.store(false, ordering: .releasing) }
                return pending
            }
            if batch.isEmpty { return }
            for work in batch { work() }
        }
    }

    /// Returns once every delivery enqueued before the call has run, and those they enqueued.
    package func idle() async {
        while busy.load(ordering: .acquiring) {
            await withCheckedContinuation { continuation in
                // Queued only while busy: queuing into an idle queue would make it busy.
                let queued = pending.withLock { pending in
                    guard busy.load(ordering: .relaxed) else { return false }
                    pending.append { continuation.resume() }
                    return true
                }
                if !queued { continuation.resume() }
            }
        }
    }
}
