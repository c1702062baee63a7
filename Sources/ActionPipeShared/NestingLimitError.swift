import ActionPipeConcurrency

/// A synchronous call or publish refused because it would nest deeper than ``depthLimit``
/// on one thread: a handler that calls actions or publishes events which, through other
/// handlers, come back to it without end.
///
/// The refused call runs no handler and returns `nil` (a publish reaches no subscriber);
/// the error is in `ActionReport.error` when the call was made with `report`, in
/// `BusPublishResult.nestingError` for a publish, and always goes to ``Diagnostics`` (kind
/// ``Diagnostic/Kind/nestingLimit``). The calls above it carry on, so the thread unwinds
/// normally instead of overflowing its stack.
///
/// Synchronous core calls and bus publishes count together, on one counter per thread:
/// both grow the same stack. Async calls do not count (their frames live on the heap).
///
/// ```swift
/// pipe.on(\.countDown) { [weak pipe] process in
///     (pipe?.countDown(process.arguments - 1) ?? 0) + 1   // no base case
/// }
/// let report = pipe.countDown.report(1_000_000)
/// report.error as? NestingLimitError   // depth 101, at the 100th nested call
/// ```
public struct NestingLimitError: Error, Sendable, Hashable, CustomStringConvertible {
    /// How many synchronous calls and publishes may nest on one thread; the next one is
    /// refused.
    ///
    /// Chosen so that even a debug build, whose frames are several times larger, stays
    /// within a 512 KiB stack (the default of secondary threads on Apple platforms).
    ///
    /// ```swift
    /// NestingLimitError.depthLimit   // 100
    /// ```
    public static var depthLimit: Int { NestingDepth.callLimit }

    /// What was refused.
    public enum Refused: Sendable, Hashable {
        /// A call of the action of this name.
        case call(action: String)
        /// A publish of an event of this type.
        case publish(eventType: String)
        /// A synchronous run of a packet through the plumber of this name (`send`, or a
        /// port's packet run on the emitting thread).
        case packet(plumber: String)
    }

    /// The call or publish that was refused.
    ///
    /// ```swift
    /// if case .call(let action) = error.refused { print(action) }
    /// ```
    public let refused: Refused

    /// The nesting depth it would have had.
    ///
    /// ```swift
    /// error.depth   // 101
    /// ```
    public let depth: Int

    /// Creates a report.
    ///
    /// ```swift
    /// let error = NestingLimitError(refused: .call(action: "countDown"), depth: 101)
    /// ```
    public init(refused: Refused, depth: Int) {
        self.refused = refused
        self.depth = depth
    }

    /// What went wrong and what to do.
    ///
    /// ```swift
    /// print(error)
    /// ```
    public var description: String {
        let what =
            switch refused {
            case .call(let action): "calling '\(action)'"
            case .publish(let eventType): "publishing \(eventType)"
            case .packet(let plumber): "sending a packet through plumber '\(plumber)'"
            }
        return
            "nesting limit: \(what) would nest synchronous calls and publishes \(depth) deep "
            + "on one thread (limit \(Self.depthLimit)); it was refused and ran no handler. "
            + "Look for handlers that call or publish back into each other without a base "
            + "case, or make the recursion a loop."
    }

    /// Sends the error to ``Diagnostics``.
    @usableFromInline @inline(never)
    package static func _report(_ error: NestingLimitError) {
        Diagnostics.report(Diagnostic(.nestingLimit, error.description, error: error))
    }
}
