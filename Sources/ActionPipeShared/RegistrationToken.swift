import ActionPipeConcurrency

/// A registration anywhere in ActionPipe (handler, subscription, observation, stage, tree
/// run). It keeps nothing alive, and dropping it cancels nothing: the registration stays
/// until ``cancel()``, or until what it is bound to, or its ``RegistrationBag``, goes.
public struct RegistrationToken: Sendable, Hashable, CustomStringConvertible {
    /// Weak: a token keeps nothing alive.
    private weak var registry: (any _Registry)?
    private let id: UInt64
    /// What the registry needs besides the id (the core: the action's key).
    private let detail: Int
    /// `description` is `scope`, `joiner` (ASCII, 0 for none), `label`: kept apart so a
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

    /// Removes the registration, if it is still there, from any thread or handler; returns
    /// whether it was. What it captured is released before returning (or by the last
    /// delivery still running with it).
    ///
    /// - Complexity: Amortised O(1); O(s) for a plumbing stage, for its plumber's s stages.
    @discardableResult
    public func cancel() -> Bool {
        registry?._cancelRegistration(id, detail: detail) ?? false
    }

    /// Whether the registration is not cancelled, and what it is bound to is alive.
    ///
    /// - Complexity: O(1); O(s) for a plumbing stage, for its plumber's s stages.
    public var isActive: Bool {
        registry?._isRegistrationActive(id, detail: detail) ?? false
    }

    /// Keeps the token in `bag`, which cancels it when released or emptied.
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
