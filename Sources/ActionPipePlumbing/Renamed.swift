// Names this part had before 0.2, kept one release for migration (CHANGELOG.md).

/// Renamed: a stop is a ``PlumbingOutcome`` whose `reason` is set.
@available(*, deprecated, renamed: "PlumbingOutcome")
public typealias PlumbingStop<Payload: Sendable> = PlumbingOutcome<Payload>

/// Replaced: `consume(_:)` returns the tuple `(deliveredCount:stoppedCount:)`.
@available(*, deprecated, message: "consume(_:) returns (deliveredCount: Int, stoppedCount: Int)")
public typealias PlumbingConsumption = (deliveredCount: Int, stoppedCount: Int)

extension PlumbingOutcome {
    /// Replaced: the plumber makes outcomes; a test builds one with
    /// `init(packet:stage:stagesPassed:stageCount:reason:plumber:)`.
    @available(
        *, deprecated,
        message: "use init(packet:stage:stagesPassed:stageCount:reason:plumber:) with reason: nil"
    )
    public static func delivered(_ packet: PlumbingPacket<Payload>) -> Self {
        Self(packet: packet, stage: nil, stagesPassed: 0, stageCount: 0, reason: nil, plumber: "")
    }

    /// Replaced: a stop is itself an outcome.
    @available(*, deprecated, message: "a stop is itself a PlumbingOutcome: use it as it is")
    public static func stopped(_ stop: Self) -> Self { stop }
}
