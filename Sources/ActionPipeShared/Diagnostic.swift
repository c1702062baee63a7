/// Something the library noticed and could not report through a return value or a thrown
/// error: a misuse, or an error nobody was there to receive. It goes to ``Diagnostics``.
///
/// ```swift
/// Diagnostics.handler = { diagnostic in
///     if diagnostic.kind == .handlerErrorDropped { logger.error("\(diagnostic)") }
/// }
/// ```
public struct Diagnostic: Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A synchronous call or publish nested deeper than ``NestingLimitError/depthLimit``
        /// was refused; ``Diagnostic/error`` is the `NestingLimitError`.
        case nestingLimit
        /// Observers set each other in a cycle; ``Diagnostic/error`` is the
        /// `ObservationCycleError`.
        case observationCycle
        /// Two properties of `Actions` create descriptors at one place with one name (and
        /// type), so they are one action.
        case actionIdentityClash
        /// An action has the name of a member of `ActionPipe` (`name`, `on`, ...), so
        /// `pipe.name` is the member; call it as `pipe[action: \.name]`, or rename it.
        case actionShadowed
        /// A handler run on an executor threw with no caller waiting; ``Diagnostic/error``
        /// is what it threw.
        case handlerErrorDropped
        /// A bus bridge dropped an event: malformed, undecodable, unsendable, or no room in
        /// its outbox. ``Diagnostic/error`` is the error behind it, if any.
        case bridgeEventDropped
        /// A bus bridge's transport connected, lost its connection or is reconnecting.
        case bridgeConnection
    }

    /// What kind of problem it is.
    public let kind: Kind
    /// What happened, and what to do about it.
    public let message: String
    /// The error behind it, when there is one.
    public let error: (any Error)?

    /// A diagnostic of `kind`, saying what happened and what to do.
    public init(_ kind: Kind, _ message: String, error: (any Error)? = nil) {
        self.kind = kind
        self.message = message
        self.error = error
    }

    /// `ActionPipe <kind>: <message>`.
    public var description: String { "ActionPipe \(kind.rawValue): \(message)" }
}
