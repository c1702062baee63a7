/// Why a packet did not reach the sink.
///
/// ```swift
/// let plumber = PipelinePlumber<Int>()
/// plumber.addStage("even") { packet in
///     packet.payload.isMultiple(of: 2) ? .pass : .stop("odd")
/// }
/// let reason = plumber.send(3, from: 1).reason
/// #expect(reason?.refusal == "odd")
/// #expect(reason?.description == "refused: odd")
/// ```
public enum PlumbingStopReason: Sendable, CustomStringConvertible {
    /// The stage returned `.stop(reason)`.
    ///
    /// ```swift
    /// #expect(PlumbingStopReason.refused("no link").description == "refused: no link")
    /// ```
    case refused(String)
    /// The stage threw this error.
    ///
    /// ```swift
    /// struct Offline: Error {}
    /// #expect(PlumbingStopReason.failed(Offline()).error is Offline)
    /// ```
    case failed(any Error)
    /// The task that carried the packet was cancelled before the stage (or the sink) ran.
    ///
    /// ```swift
    /// #expect(PlumbingStopReason.cancelled.description == "cancelled")
    /// ```
    case cancelled
    /// A synchronous `send` reached an async stage. Use `await process(_:from:)` (or a
    /// port) for plumbers with async stages.
    ///
    /// ```swift
    /// let plumber = PipelinePlumber<Int>()
    /// plumber.addStage("wait") { _ in
    ///     await Task.yield()
    ///     return .pass
    /// }
    /// #expect(plumber.send(1, from: 1).reason?.isStageAsync == true)
    /// ```
    case stageIsAsync
    /// The port that emitted the packet belongs to no plumber (never added, removed, or
    /// its plumber was released).
    ///
    /// ```swift
    /// let port = PlumbingPort<Int>(1)
    /// #expect(await port.process(5).reason?.isPortNotConnected == true)
    /// ```
    case portNotConnected
    /// A synchronous `send` (or a port's packet run on the emitting thread) would have
    /// nested deeper than ``NestingLimitError/depthLimit`` on one thread, counted with
    /// synchronous core calls and bus publishes: a stage that sends back into plumbing
    /// without end. The packet ran no stage; the sends above it carry on. The error also
    /// goes to `Diagnostics`.
    ///
    /// ```swift
    /// let plumber = PipelinePlumber<Int>(name: "loop")
    /// plumber.addStage("again") { [weak plumber] packet in
    ///     _ = plumber?.send(packet.payload + 1, from: packet.port)  // no base case
    ///     return .pass
    /// }
    /// let refused = Mutex<NestingLimitError?>(nil)
    /// plumber.onStop { stop in refused.withLock { $0 = stop.reason?.nestingError } }
    /// #expect(plumber.send(0, from: 1).wasDelivered)
    /// #expect(refused.withLock { $0 }?.depth == NestingLimitError.depthLimit + 1)
    /// ```
    case nestingLimit(NestingLimitError)

    /// The reason a stage gave when it returned `.stop(reason)`, or `nil`.
    ///
    /// ```swift
    /// #expect(PlumbingStopReason.refused("no").refusal == "no")
    /// #expect(PlumbingStopReason.cancelled.refusal == nil)
    /// ```
    public var refusal: String? {
        if case .refused(let reason) = self { return reason }
        return nil
    }

    /// The error a stage threw, or `nil`.
    ///
    /// ```swift
    /// #expect(PlumbingStopReason.cancelled.error == nil)
    /// ```
    public var error: (any Error)? {
        if case .failed(let error) = self { return error }
        return nil
    }

    /// Whether the task was cancelled before the packet got through.
    ///
    /// ```swift
    /// #expect(PlumbingStopReason.cancelled.isCancelled)
    /// ```
    public var isCancelled: Bool {
        if case .cancelled = self { return true }
        return false
    }

    /// Whether a synchronous `send` met an async stage.
    ///
    /// ```swift
    /// #expect(PlumbingStopReason.stageIsAsync.isStageAsync)
    /// ```
    public var isStageAsync: Bool {
        if case .stageIsAsync = self { return true }
        return false
    }

    /// Whether the port belonged to no plumber.
    ///
    /// ```swift
    /// #expect(PlumbingStopReason.portNotConnected.isPortNotConnected)
    /// ```
    public var isPortNotConnected: Bool {
        if case .portNotConnected = self { return true }
        return false
    }

    /// The nesting error of a packet refused for nesting too deep, or `nil`.
    ///
    /// ```swift
    /// #expect(PlumbingStopReason.cancelled.nestingError == nil)
    /// ```
    public var nestingError: NestingLimitError? {
        if case .nestingLimit(let error) = self { return error }
        return nil
    }

    /// Whether the packet was refused for nesting too deep.
    ///
    /// ```swift
    /// let error = NestingLimitError(refused: .packet(plumber: "p"), depth: 101)
    /// #expect(PlumbingStopReason.nestingLimit(error).isNestingLimit)
    /// ```
    public var isNestingLimit: Bool {
        if case .nestingLimit = self { return true }
        return false
    }

    /// What went wrong, and what to do about it where the caller can do something.
    ///
    /// ```swift
    /// #expect(PlumbingStopReason.cancelled.description == "cancelled")
    /// ```
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
