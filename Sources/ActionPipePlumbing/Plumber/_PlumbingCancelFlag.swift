import ActionPipeConcurrency
import Synchronization

/// Set when the task awaiting a queued packet is cancelled; the drain checks it between
/// stages, because the packet runs in the drain's task, not the caller's.
@usableFromInline
final class _PlumbingCancelFlag: Sendable {
    private let storage = Atomic<Bool>(false)

    func set() { storage.store(true, ordering: .releasing) }

    var isSet: Bool { storage.load(ordering: .acquiring) }
}
