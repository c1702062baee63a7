import Synchronization

/// The small integer that identifies an action inside the library.
///
/// Actions are named by key paths into ``Actions``. Hashing a key path on every call is
/// slow, so each distinct key path is interned once into a dense integer, and the chain's
/// snapshot is keyed by that integer.
@usableFromInline
struct _ActionKey: Hashable, Sendable {
    @usableFromInline let rawValue: Int

    /// Interns `action`, returning the same key for equal key paths.
    init<each Argument, Result>(
        _ action: KeyPath<Actions, Action<repeat each Argument, Result>> & Sendable
    ) {
        rawValue = _ActionKeyTable.shared.intern(action) { Actions()[keyPath: action].name }
    }

    /// The name of the action, for traces: the key path's last component when readable.
    var name: String { _ActionKeyTable.shared.name(of: rawValue) }
}

/// The process-wide table behind ``_ActionKey``.
final class _ActionKeyTable: Sendable {
    static let shared = _ActionKeyTable()

    private struct State {
        var keys: [AnyKeyPath: Int] = [:]
        var names: [String] = []
    }

    private let state = Mutex(State())

    func intern(_ keyPath: AnyKeyPath & Sendable, name: () -> String) -> Int {
        if let key = state.withLock({ $0.keys[keyPath] }) { return key }
        // Evaluate the declaring property outside the lock: it is user code.
        let name = name()
        return state.withLock { state in
            if let key = state.keys[keyPath] { return key }
            let key = state.names.count
            state.keys[keyPath] = key
            state.names.append(name)
            return key
        }
    }

    func name(of key: Int) -> String {
        state.withLock { $0.names[key] }
    }
}
