/// A bus held weakly, shared by its union forwarders' queued jobs: one per bus, made with it.
///
/// `@unchecked Sendable`: `value` is set once, by the bus's `init`, before the handle is
/// shared; a weak reference is read atomically by the runtime.
final class _BusWeakBus: @unchecked Sendable {
    weak var value: EventBus?
    let name: String

    init(name: String) {
        self.name = name
    }
}
