/// What a subscription listens to: an event type, and one exact subtype or any.
public struct BusTopic<Event: BusEvent>: Hashable, Sendable, CustomStringConvertible {
    /// The exact subtype, or `nil` for "any subtype".
    public let subtype: Event.Subtype?

    /// A topic that matches events of `type` whose subtype equals `subtype`.
    public init(_ type: Event.Type, _ subtype: Event.Subtype) {
        self.subtype = subtype
    }

    /// A topic that matches every event of `type`, whatever its subtype.
    public init(anySubtypeOf type: Event.Type) {
        subtype = nil
    }

    /// The type-erased key of this topic, for union subscriptions and removal.
    public var key: BusEventKey { BusEventKey(self) }

    /// `Login.login`, or `Login.*` for any subtype.
    public var description: String { key.description }
}

extension BusTopic where Event.Subtype == BusNoSubtype {
    /// The topic of an event type without subtypes.
    public init(_ type: Event.Type) {
        subtype = BusNoSubtype.none
    }
}
