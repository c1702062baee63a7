import ActionPipeConcurrency

/// A synchronous call or publish refused because it would nest deeper than ``depthLimit``
/// on one thread: handlers that call or publish back into each other without end.
///
/// The refused call runs no handler and returns `nil`; the error is in
/// `ActionReport.error` (with `report`) or `BusPublishResult.nestingError`, and always goes
/// to ``Diagnostics``. The calls above it carry on, so the thread unwinds normally. Sync
/// calls and publishes share one counter per thread; async calls do not count.
///
/// ```swift
/// pipe.on(\.countDown) { [weak pipe] process in
///     (pipe?.countDown(process.arguments - 1) ?? 0) + 1   // no base case
/// }
/// let report = pipe.countDown.report(1_000_000)
/// report.error as? NestingLimitError   // depth 101, at the 100th nested call
/// ```
public struct NestingLimitError: Error, Sendable, Hashable, CustomStringConvertible {
    /// How many synchronous calls and publishes may nest on one thread; the next is refused.
    /// Small enough for a debug build within a 512 KiB stack (Apple's secondary threads).
    public static var depthLimit: Int { NestingDepth.callLimit }

    /// What was refused.
    public enum Refused: Sendable, Hashable {
        /// A call of the action of this name.
        case call(action: String)
        /// A publish of an event of this type.
        case publish(eventType: String)
        /// A synchronous run of a packet through the plumber of this name.
        case packet(plumber: String)
    }

    /// The call or publish that was refused.
    public let refused: Refused

    /// The nesting depth it would have had.
    public let depth: Int

    /// Creates a report.
    public init(refused: Refused, depth: Int) {
        self.refused = refused
        self.depth = depth
    }

    /// What went wrong and what to do.
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

    @usableFromInline @inline(never)
    package static func _report(_ error: NestingLimitError) {
        Diagnostics.report(Diagnostic(.nestingLimit, error.description, error: error))
    }
}
