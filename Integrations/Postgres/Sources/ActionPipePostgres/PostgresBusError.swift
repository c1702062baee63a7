/// What a ``PostgresBusTransport`` throws.
public enum PostgresBusError: Error, Hashable, Sendable, CustomStringConvertible {
    /// In fast mode, an event whose `NOTIFY` payload would be `bytes` long, over `limit`
    /// (PostgreSQL refuses 8,000 bytes or more): it is not sent, and never truncated. Use
    /// durable mode for large events.
    case payloadTooLarge(bytes: Int, limit: Int)
    /// A channel or table name that is not lower-case letters, digits and `_`, of 1 to 63
    /// characters, starting with a letter or `_`.
    case invalidName(String)
    /// A connection attempt took longer than the time given; the transport tries again.
    case connectTimedOut(Duration)
    /// The connection closed while the transport was using it; it reconnects.
    case connectionClosed

    /// What went wrong, and what to do.
    public var description: String {
        switch self {
        case .payloadTooLarge(let bytes, let limit):
            "a NOTIFY payload of \(bytes) bytes is over PostgreSQL's limit of \(limit); "
                + "the event was not sent (durable mode carries events of any size)"
        case .invalidName(let name):
            "'\(name)' is not a valid channel or table name (lower case letters, digits, _)"
        case .connectTimedOut(let limit):
            "connecting to PostgreSQL took longer than \(limit)"
        case .connectionClosed:
            "the connection to PostgreSQL closed"
        }
    }
}
