/// What a subscription listens to: an event type, and either one exact subtype or any.
///
/// Matching is exact, as in DWEventBus: a topic with subtype `.login` receives only
/// `.login` events of that type. A subscription that wants every subtype says so with
/// ``init(anySubtypeOf:)``.
///
/// ```swift
/// let logins = BusTopic(Login.self, .login)           // Login events of subtype .login
/// let everything = BusTopic(anySubtypeOf: Login.self)  // every Login event
/// let pings = BusTopic(Ping.self)                      // Ping has no subtype
/// ```
public struct BusTopic<Event: BusEvent>: Hashable, Sendable, CustomStringConvertible {
    /// The exact subtype, or `nil` for "any subtype".
    ///
    /// ```swift
    /// BusTopic(Login.self, .login).subtype == .login
    /// ```
    public let subtype: Event.Subtype?

    /// A topic that matches events of `type` whose subtype equals `subtype`.
    ///
    /// ```swift
    /// let logins = BusTopic(Login.self, .login)
    /// ```
    public init(_ type: Event.Type, _ subtype: Event.Subtype) {
        self.subtype = subtype
    }

    /// A topic that matches every event of `type`, whatever its subtype.
    ///
    /// ```swift
    /// let all = BusTopic(anySubtypeOf: Login.self)
    /// ```
    public init(anySubtypeOf type: Event.Type) {
        subtype = nil
    }

    /// The type-erased key of this topic, for union subscriptions and removal.
    ///
    /// ```swift
    /// bus.unsubscribe(screen, from: BusTopic(Login.self, .login).key)
    /// ```
    public var key: BusEventKey { BusEventKey(self) }

    /// `Login.login`, or `Login.*` for any subtype.
    ///
    /// ```swift
    /// print(BusTopic(Login.self, .login))   // Login.login
    /// ```
    public var description: String { key.description }
}

extension BusTopic where Event.Subtype == BusNoSubtype {
    /// The topic of an event type without subtypes.
    ///
    /// ```swift
    /// let pings = BusTopic(Ping.self)
    /// ```
    public init(_ type: Event.Type) {
        subtype = BusNoSubtype.none
    }
}
