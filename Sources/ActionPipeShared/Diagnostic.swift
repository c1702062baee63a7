/// Something the library noticed and could not report through a return value or a thrown
/// error: a misuse, or an error that nobody was there to receive. It never stops the
/// program; it goes to ``Diagnostics``.
///
/// ```swift
/// Diagnostics.handler = { diagnostic in
///     if diagnostic.kind == .handlerErrorDropped { logger.error("\(diagnostic)") }
/// }
/// ```
public struct Diagnostic: Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A synchronous call or publish was refused: it would have nested deeper than
        /// ``NestingLimitError/depthLimit``. ``Diagnostic/error`` is the `NestingLimitError`.
        case nestingLimit
        /// A set of an observed property was not delivered: observers set each other in a
        /// cycle. ``Diagnostic/error`` is the `ObservationCycleError`.
        case observationCycle
        /// Two properties of `Actions` create their descriptors at the same place with the
        /// same name, so they are one action.
        case actionIdentityClash
        /// An action has the name of a member of `ActionPipe` (`name`, `on`, `append`, ...):
        /// `pipe.name` is the member, never the action. Call it as
        /// `pipe[action: \.name]`, or rename it.
        case actionShadowed
        /// A handler that ran on an executor threw, and no caller was waiting for its
        /// result. ``Diagnostic/error`` is what it threw.
        case handlerErrorDropped
        /// A bus bridge dropped an event: one that arrived malformed or could not be decoded,
        /// one its transport could not send, or one its outbox had no room for.
        /// ``Diagnostic/error`` is the error behind it, if any.
        case bridgeEventDropped
        /// A bus bridge's transport connected, lost its connection or is reconnecting: not a
        /// fault in itself, reported so an app can log it.
        case bridgeConnection
    }

    /// What kind of problem it is.
    public let kind: Kind
    /// What happened, and what to do about it.
    public let message: String
    /// The error behind it, when there is one.
    public let error: (any Error)?

    /// A diagnostic of `kind`.
    ///
    /// - Parameters:
    ///   - kind: What kind of problem it is.
    ///   - message: What happened, and what to do about it.
    ///   - error: The error behind it, if any.
    public init(_ kind: Kind, _ message: String, error: (any Error)? = nil) {
        self.kind = kind
        self.message = message
        self.error = error
    }

    /// `ActionPipe <kind>: <message>`.
    public var description: String { "ActionPipe \(kind.rawValue): \(message)" }
}
