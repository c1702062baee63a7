/// A bus held weakly, for its union forwarders' queued jobs; one per bus. `@unchecked
/// Sendable`: `value` is set once, in the bus's `init`, before sharing; weak reads are atomic.
final class _BusWeakBus: @unchecked Sendable {
    weak var value: EventBus?
    let name: String

    init(name: String) {
        self.name = name
    }
}
