/// Why a packet did not reach the sink.
public enum PlumbingStopReason: Sendable, CustomStringConvertible {
    /// The stage returned `.stop(reason)`.
    case refused(String)
    /// The stage threw this error.
    case failed(any Error)
    /// The task that carried the packet was cancelled before the stage (or the sink) ran.
    case cancelled
    /// A synchronous `send` reached an async stage: use `await process(_:from:)` or a port.
    case stageIsAsync
    /// The port that emitted the packet belongs to no plumber (never added, removed, or
    /// released).
    case portNotConnected
    /// A synchronous `send` (or emit) would have nested deeper than
    /// ``NestingLimitError/depthLimit`` on one thread (counted with core calls and bus
    /// publishes); the packet ran no stage, and the error also goes to `Diagnostics`.
    case nestingLimit(NestingLimitError)

    /// The reason a stage gave when it returned `.stop(reason)`, or `nil`.
    public var refusal: String? {
        if case .refused(let reason) = self { reason } else { nil }
    }

    /// The error a stage threw, or `nil`.
    public var error: (any Error)? {
        if case .failed(let error) = self { error } else { nil }
    }

    /// Whether the task was cancelled before the packet got through.
    public var isCancelled: Bool {
        if case .cancelled = self { true } else { false }
    }

    /// Whether a synchronous `send` met an async stage.
    public var isStageAsync: Bool {
        if case .stageIsAsync = self { true } else { false }
    }

    /// Whether the port belonged to no plumber.
    public var isPortNotConnected: Bool {
        if case .portNotConnected = self { true } else { false }
    }

    /// The nesting error of a packet refused for nesting too deep, or `nil`.
    public var nestingError: NestingLimitError? {
        if case .nestingLimit(let error) = self { error } else { nil }
    }

    /// Whether the packet was refused for nesting too deep.
    public var isNestingLimit: Bool {
        if case .nestingLimit = self { true } else { false }
    }

    /// What went wrong, and what to do about it where the caller can do something.
    public var description: String {
        switch self {
        case .refused(let reason): "refused: \(reason)"
        case .failed(let error): "threw \(error)"
        case .cancelled: "cancelled"
        case .stageIsAsync:
            "the stage is async and the packet was sent synchronously; "
                + "use `await plumber.process(_:from:)` or a port"
        case .portNotConnected:
            "the port belongs to no plumber; add it with `plumber.addPort(_:)`"
        case .nestingLimit(let error): "\(error)"
        }
    }
}
