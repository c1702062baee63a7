/// Sees every call, publish, packet and tree item begin and end, on the thread or task
/// doing the work, with no library lock held. Install one with ``Instrumentation/install(_:)``.
public protocol Instrument: Sendable {
    /// An operation begins; the result (a span, a signpost id) is handed back to `end`.
    func begin(_ operation: InstrumentedOperation) -> (any Sendable)?
    /// The operation begun with `context` ended after `duration`.
    func end(
        _ operation: InstrumentedOperation, context: (any Sendable)?, duration: Duration,
        outcome: InstrumentedOutcome)
}

/// One unit of work an ``Instrument`` sees, such as `call login on auth`.
public struct InstrumentedOperation: Sendable, CustomStringConvertible {
    /// What kind of work this is.
    public enum Kind: String, Sendable {
        /// A call of an action on a pipe.
        case call
        /// A publish on an event bus.
        case publish
        /// A packet through a plumber's stages.
        case packet
        /// An item of an operation tree run: its provider's work, every attempt included.
        case treeItem
    }

    /// What kind of work this is.
    public let kind: Kind
    /// The action's name, the event's type, the plumber's name, or the tree node's name.
    public let name: String
    /// Where: the pipe, the bus, the port (`port 100`), or the item (`fetch#3(…)`).
    public let detail: String

    /// An operation.
    public init(kind: Kind, name: String, detail: String) {
        self.kind = kind
        self.name = name
        self.detail = detail
    }

    /// `call login on auth`, `publish Login on app`, `packet share on port 100`.
    public var description: String { "\(kind.rawValue) \(name) on \(detail)" }
}

/// How an instrumented operation ended.
public enum InstrumentedOutcome: Sendable, CustomStringConvertible {
    /// It did its work (a call returned, even `nil`; a packet was delivered).
    case succeeded
    /// A call or stage threw, a call or publish nested too deep, an item failed for good.
    case failed(any Error)
    /// Stopped on purpose: a stage refused a packet, an item was cancelled.
    case stopped(String)

    /// `succeeded`, `failed: <error>`, `stopped: <reason>`.
    public var description: String {
        switch self {
        case .succeeded: "succeeded"
        case .failed(let error): "failed: \(error)"
        case .stopped(let reason): "stopped: \(reason)"
        }
    }
}
