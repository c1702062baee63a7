import ActionPipeConcurrency

/// The registrations of one connector to a bus, ended together by one `RegistrationToken`
/// that holds the link weakly; what forwards holds it, so it lives while something publishes.
final class _BusLink: _Registry {
    /// How to end each part; `nil` once ended. They run, and are released, unlocked.
    private let ends = LockedValue<[@Sendable () -> Void]?>([])
    private let id = RegistrationToken.nextID()
    private let scope: String
    private let label: String

    init(scope: String, label: String) {
        self.scope = scope
        self.label = label
    }

    /// Named `scope/label#id`.
    var token: RegistrationToken {
        RegistrationToken(registry: self, id: id, scope: scope, joiner: "/", label: label)
    }

    var isActive: Bool { ends.withLock { $0 != nil } }

    /// Adds what ends one part; if the connector has already ended, ends it at once.
    func add(end: @escaping @Sendable () -> Void) {
        let added = ends.withLock { ends -> Bool in
            guard ends != nil else { return false }
            ends?.append(end)
            return true
        }
        if !added { end() }
    }

    /// Ends every part; whether it was still active. Unlocked: cancelling a tap releases
    /// what the app's transform captured.
    @discardableResult
    func end() -> Bool {
        guard let taken = ends.withLock({ $0.take() }) else { return false }
        for end in taken { end() }
        return true
    }

    func _cancelRegistration(_ id: UInt64, detail: Int) -> Bool { end() }

    func _isRegistrationActive(_ id: UInt64, detail: Int) -> Bool { isActive }
}
