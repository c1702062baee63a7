import ActionPipeConcurrency

/// Reported when observers that write properties nest deeper than ``depthLimit`` on one
/// thread: almost always a cycle (A's observer sets B, B's sets A). The assignment one level
/// deeper is stored but not delivered, which breaks the cycle; the error goes to
/// ``Diagnostics`` (kind `.observationCycle`).
public struct ObservationCycleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// How many nested deliveries one thread may run before the next one is reported (64).
    public static let depthLimit = 64

    /// The label of the property whose assignment was not delivered.
    public let property: String

    /// The nesting depth the delivery would have had.
    public let depth: Int

    /// Creates a report.
    public init(property: String, depth: Int) {
        self.property = property
        self.depth = depth
    }

    /// What went wrong and what to do.
    public var description: String {
        "a cycle of observers: setting '\(property)' would nest deliveries \(depth) deep "
            + "(limit \(Self.depthLimit)); the value was stored but not delivered. Find the "
            + "observers that write each other's properties, and break the loop (for "
            + "example observe with .skipEqual, or write only when the value changes)."
    }

    /// Sends the error to ``Diagnostics`` (kind ``Diagnostic/Kind/observationCycle``).
    @usableFromInline
    static func _report(_ error: ObservationCycleError) {
        Diagnostics.report(Diagnostic(.observationCycle, error.description, error: error))
    }
}
