import ActionPipeConcurrency

/// A synchronous call or publish refused, running no handler, because it would nest deeper
/// than ``depthLimit`` on one thread (sync calls and publishes share the count). The call
/// returns `nil`; `report`'s `ActionReport.error`, `BusPublishResult.nestingError` and a
/// plumbing stop's `nestingLimit` reason carry it, and it is reported to ``Diagnostics``; the
/// calls above it carry on.
public struct NestingLimitError: Error, Sendable, Hashable, CustomStringConvertible {
    /// How many synchronous calls and publishes may nest on one thread (within a debug
    /// build's 512 KiB stack); the next is refused.
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
