/// Observes ActionPipe's work: every call, publish, packet and tree item begins and ends
/// through it. Install one with ``Instrumentation/install(_:)``.
///
/// `begin` returns what the instrument wants back at `end` (a span, a signpost id). Both
/// run on the thread or task doing the work, with no library lock held: keep them short.
///
/// ```swift
/// struct LogInstrument: Instrument {
///     func begin(_ operation: InstrumentedOperation) -> (any Sendable)? { nil }
///     func end(
///         _ operation: InstrumentedOperation, context: (any Sendable)?,
///         duration: Duration, outcome: InstrumentedOutcome
///     ) {
///         print("\(operation) took \(duration): \(outcome)")
///     }
/// }
/// Instrumentation.install(LogInstrument())
/// ```
public protocol Instrument: Sendable {
    /// An operation begins; the result is handed back to ``end(_:context:duration:outcome:)``.
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

    /// An operation; the parts make these, tests may too.
    public init(kind: Kind, name: String, detail: String) {
        self.kind = kind
        self.name = name
        self.detail = detail
    }

    /// `call login on auth`, `publish Login on app`, `packet share on port 100`.
    public var description: String { "\(kind.rawValue) \(name) on \(detail)" }
}

/// How an instrumented operation ended.
///
/// ```swift
/// switch outcome {
/// case .succeeded: span.setStatus(.init(code: .ok))
/// case .failed(let error): span.recordError(error)
/// case .stopped(let reason): span.attributes["stopped"] = reason
/// }
/// ```
public enum InstrumentedOutcome: Sendable, CustomStringConvertible {
    /// It did its work (a call returned, even `nil`; a packet was delivered).
    case succeeded
    /// A throwing call threw, a call or publish nested too deep, a stage threw, an item
    /// failed after its retries.
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
