import ActionPipe

/// An observed value, as published by a connector.
struct LinkValue: BusEvent {
    let value: Int
}

/// A plumbing outcome, as published by a connector.
struct LinkOutcome: BusEvent, Equatable {
    enum Kind: Hashable, Sendable { case delivered, stopped }
    let subtype: Kind
    let payload: Int

    init(_ subtype: Kind, _ payload: Int) {
        self.subtype = subtype
        self.payload = payload
    }

    /// The event for an outcome of a plumber of `Int`.
    static func of(_ outcome: PlumbingOutcome<Int>) -> LinkOutcome {
        LinkOutcome(outcome.wasDelivered ? .delivered : .stopped, outcome.packet.payload)
    }
}

/// A tree event, as published by a connector: its description.
struct LinkTreeLine: BusEvent {
    let line: String
}

/// A state object whose property is connected to a bus, for the lifetime tests.
final class LinkState: ObservableState, @unchecked Sendable {
    @Observed("link.count") var count = 0
}
