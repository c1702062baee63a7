/// A misuse, or an error nobody was there to receive, reported to ``Diagnostics``.
public struct Diagnostic: Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A call or publish nested too deep was refused (the error: `NestingLimitError`).
        case nestingLimit
        /// Observers set each other in a cycle (the error: `ObservationCycleError`).
        case observationCycle
        /// Two properties of `Actions` make one action (one place, name and type).
        case actionIdentityClash
        /// An action has the name of a member of `ActionPipe`: call it as
        /// `pipe[action: \.name]`, or rename it.
        case actionShadowed
        /// A handler run on an executor threw with no caller waiting.
        case handlerErrorDropped
        /// A bus bridge dropped an event: malformed, undecodable, unsendable, or no room.
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
