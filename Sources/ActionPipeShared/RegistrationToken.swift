import ActionPipeConcurrency

/// A registration anywhere in ActionPipe: a handler on a pipe, a bus subscription, an
/// observation, a plumbing stage, port or sink, a tree run. Every part returns this one
/// type, so an app manages lifetimes one way.
///
/// A token does not keep its registration alive, and dropping it cancels nothing: the
/// registration stays until ``cancel()``, until what it was bound to goes (an owner, a
/// pipe's chain, a bus), or until the ``RegistrationBag`` it was stored in goes.
///
/// ```swift
/// let token = bus.subscribe(Ping.self) { _ in }
/// token.isActive    // true
/// token.cancel()    // true: it was there
/// token.cancel()    // false
/// ```
///
/// Tokens are equal when they name the same registration; ids are unique process-wide.
public struct RegistrationToken: Sendable, Hashable, CustomStringConvertible {
    /// The object that holds the registration; weak, so a token keeps nothing alive.
    private weak var registry: (any _Registry)?
    private let id: UInt64
    /// What the registry needs besides the id to find the registration (the core: the
    /// action's key).
    private let detail: Int
    /// What ``description`` names: `scope`, then `joiner` (an ASCII character, or 0 for
    /// none), then `label`. Kept apart, not joined, so a registration allocates no string:
    /// both are strings the part already holds (a pipe's and an action's names).
    private let scope: String
    private let label: String
    private let joiner: UInt8

    /// A token for the registration `id` held by `registry`, named `scope` + `joiner` +
    /// `label` in ``description`` (`pipe` `.` `action`, `bus` `/` `subscriber`).
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

    /// A new registration id, unique in the process.
    package static func nextID() -> UInt64 { _registrationIDs.next() }

    /// Removes the registration, if it is still there. Safe from any thread, and from
    /// inside any handler, observer or stage (including the registration's own).
    ///
    /// ```swift
    /// let token = pipe.on(\.someFunc) { _ in nil }
    /// token.cancel()   // true
    /// token.cancel()   // false: already cancelled
    /// ```
    ///
    /// - Returns: Whether there was a registration to remove.
    /// - Complexity: Amortised O(1) in every part, except a plumbing stage: O(s) for its
    ///   plumber's s stages. What the registration captured is released before it returns
    ///   (or by the last delivery still running with it).
    @discardableResult
    public func cancel() -> Bool {
        registry?._cancelRegistration(id, detail: detail) ?? false
    }

    /// Whether the registration is still there: not cancelled, and what it is bound to
    /// (its owner, its pipe's chain, its bus) is still alive.
    ///
    /// ```swift
    /// if token.isActive { token.cancel() }
    /// ```
    ///
    /// - Complexity: O(1); O(s) for a plumbing stage, for its plumber's s stages.
    public var isActive: Bool {
        registry?._isRegistrationActive(id, detail: detail) ?? false
    }

    /// Keeps the token in `bag`, which cancels it when the bag is released or emptied:
    /// the way to tie registrations to an owner (the owner keeps the bag).
    ///
    /// ```swift
    /// final class Screen {
    ///     let registrations = RegistrationBag()
    ///     init(bus: EventBus) {
    ///         bus.subscribe(Ping.self) { _ in }.store(in: registrations)
    ///     }
    /// }
    /// ```
    ///
    /// - Complexity: Amortised O(1).
    public func store(in bag: RegistrationBag) {
        bag.insert(self)
    }

    /// What the registration is and its id, such as `login.tPing#12` or `bus/Ping#3`.
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
