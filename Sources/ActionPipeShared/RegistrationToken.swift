import ActionPipeConcurrency

/// A registration anywhere in ActionPipe (a handler, a subscription, an observation, a
/// stage, port or sink, a tree run): every part returns this one type.
///
/// A token keeps nothing alive, and dropping it cancels nothing: the registration stays
/// until ``cancel()``, until what it is bound to goes, or until its ``RegistrationBag`` goes.
///
/// ```swift
/// let token = bus.subscribe(Ping.self) { _ in }
/// token.isActive    // true
/// token.cancel()    // true: it was there
/// token.cancel()    // false
/// ```
///
/// Tokens are equal when they name the same registration.
public struct RegistrationToken: Sendable, Hashable, CustomStringConvertible {
    /// Weak: a token keeps nothing alive.
    private weak var registry: (any _Registry)?
    private let id: UInt64
    /// What the registry needs besides the id (the core: the action's key).
    private let detail: Int
    /// ``description`` is `scope`, `joiner` (ASCII, 0 for none), `label`: kept apart so a
    /// registration allocates no string.
    private let scope: String
    private let label: String
    private let joiner: UInt8

    /// Named `scope` + `joiner` + `label` (`pipe` `.` `action`, `bus` `/` `subscriber`).
    package init(
        registry: any _Registry, id: UInt64, detail: Int = 0, scope: String,
        joiner: Unicode.Scalar? = nil, label: String = ""
    ) {
        self.registry = registry
        self.id = id
        self.detail = detail
        self.scope = scope
        self.label = label
        self.joiner = joiner.map { UInt8(truncatingIfNeeded: $0.value) } ?? 0
    }

    package static func nextID() -> UInt64 { _registrationIDs.next() }

    /// Removes the registration, if it is still there. Safe from any thread, and from
    /// inside any handler, observer or stage (its own included).
    ///
    /// - Returns: Whether there was a registration to remove.
    /// - Complexity: Amortised O(1); O(s) for a plumbing stage, for its plumber's s stages.
    ///   What the registration captured is released before it returns (or by the last
    ///   delivery still running with it).
    @discardableResult
    public func cancel() -> Bool {
        registry?._cancelRegistration(id, detail: detail) ?? false
    }

    /// Whether the registration is still there: not cancelled, and what it is bound to is
    /// alive.
    ///
    /// - Complexity: O(1); O(s) for a plumbing stage, for its plumber's s stages.
    public var isActive: Bool {
        registry?._isRegistrationActive(id, detail: detail) ?? false
    }

    /// Keeps the token in `bag`, which cancels it when released or emptied: the way to tie
    /// registrations to an owner.
    ///
    /// - Complexity: Amortised O(1).
    public func store(in bag: RegistrationBag) {
        bag.insert(self)
    }

    /// Such as `login.tPing#12` or `bus/Ping#3`.
    public var description: String {
        guard joiner != 0 else { return "\(scope)\(label)#\(id)" }
        return "\(scope)\(Character(Unicode.Scalar(joiner)))\(label)#\(id)"
    }

    /// Whether the two tokens name the same registration.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }

    /// Hashes the registration's id.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

private let _registrationIDs = IDSource()
