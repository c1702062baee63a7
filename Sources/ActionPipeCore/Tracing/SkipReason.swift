/// Why a pipe of the chain did not run its handler in a call; part of an ``ActionTrace``.
public enum SkipReason: Sendable, Equatable, CustomStringConvertible {
    /// The pipe registered no handler for the action.
    case notRegistered
    /// The handler's state shares no bit with the call's state.
    case stateMismatch(handler: ActionState, call: ActionState)
    /// The handler requires an upstream value of the named type, and it was not one.
    case upstreamNotOfType(String)
    /// The handler requires an upstream value, and there was none.
    case upstreamNil
    /// The handler requires the named argument to be of a type, and it was not.
    case argumentNotOfType(argument: String, expected: String)
    /// The handler requires the named argument to be non-nil, and it was nil.
    case argumentNil(argument: String)
    /// A custom condition, named by its description, did not hold.
    case conditionFailed(String)
    /// The handler's weakly held target object has gone away.
    case targetReleased
    /// An earlier handler stopped the call.
    case stoppedEarlier
    /// An earlier handler threw, which ended the call.
    case earlierHandlerThrew
    /// The calling task was cancelled before this handler could start.
    case cancelled
    /// A main-actor handler (`handle(on: .mainActor)`) of a synchronous action, in a call
    /// made off the main actor: it cannot wait, so the handler is skipped, never trapping.
    case notOnMainActor

    /// A short sentence for traces, such as `upstream is nil`.
    public var description: String {
        switch self {
        case .notRegistered: "not registered"
        case .stateMismatch(let handler, let call):
            "state \(handler) does not meet call state \(call)"
        case .upstreamNotOfType(let type): "upstream is not \(type)"
        case .upstreamNil: "upstream is nil"
        case .argumentNotOfType(let argument, let expected):
            "argument \(argument) is not \(expected)"
        case .argumentNil(let argument): "argument \(argument) is nil"
        case .conditionFailed(let name): "condition '\(name)' failed"
        case .targetReleased: "target released"
        case .stoppedEarlier: "call stopped earlier"
        case .earlierHandlerThrew: "an earlier handler threw"
        case .cancelled: "call cancelled"
        case .notOnMainActor: "not on the main actor"
        }
    }
}
