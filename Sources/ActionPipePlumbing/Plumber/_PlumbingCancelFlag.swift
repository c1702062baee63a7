import ActionPipeConcurrency
import Synchronization

/// Set when the task awaiting a queued packet is cancelled; checked by the drain between
/// stages, since the packet runs in the drain's task.
@usableFromInline
final class _PlumbingCancelFlag: Sendable {
    private let storage = Atomic<Bool>(false)

    func set() { storage.store(true, ordering: .releasing) }

    var isSet: Bool { storage.load(ordering: .acquiring) }
}
