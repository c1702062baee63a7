import ActionPipeShared

/// Where a ``BusTransport`` hands what it receives: messages, and what the app should hear
/// about (a lost connection, a malformed message), which goes to ``Diagnostics``.
public struct BusInbox: Sendable {
    let bridge: BusBridge

    /// Decodes `message` and publishes it here, now, as a remote event
    /// (``BusOrigin/remote(_:)``), unless it is the bridge's own, seen before (sequence not
    /// above its sender's last), or not bridged here. An undecodable payload is reported
    /// (``Diagnostic/Kind/bridgeEventDropped``) and skipped.
    ///
    /// - Returns: Whether the event was published.
    /// - Complexity: O(1) to find the topic, then the decoding and the publish.
    @discardableResult
    public func deliver(_ message: BusMessage) -> Bool {
        bridge._deliver(message)
    }

    /// Reports (``Diagnostic/Kind/bridgeEventDropped``) something that arrived and could
    /// not be read as a message.
    ///
    /// - Complexity: O(1) plus the diagnostics handler.
    public func reportMalformed(_ what: String, error: (any Error)? = nil) {
        Diagnostics.report(
            Diagnostic(
                .bridgeEventDropped,
                "bridge \(bridge.instance) of \(bridge.bus) skipped a malformed message: \(what)",
                error: error))
    }

    /// Reports that events were lost (`count`, or an unknown number when `nil`), and why.
    ///
    /// ```swift
    /// inbox.reportDropped(count: nil, "the connection dropped; notifications meanwhile are lost")
    /// ```
    ///
    /// - Complexity: O(1) plus the diagnostics handler.
    public func reportDropped(count: Int?, _ reason: String, error: (any Error)? = nil) {
        let what = count.map { "\($0) event(s)" } ?? "events"
        Diagnostics.report(
            Diagnostic(
                .bridgeEventDropped,
                "bridge \(bridge.instance) of \(bridge.bus) lost \(what): \(reason)",
                error: error))
    }

    /// Reports (``Diagnostic/Kind/bridgeConnection``) a change of the transport's
    /// connection: connected, lost, reconnecting.
    ///
    /// - Complexity: O(1) plus the diagnostics handler.
    public func reportConnection(_ state: String, error: (any Error)? = nil) {
        Diagnostics.report(
            Diagnostic(
                .bridgeConnection, "bridge \(bridge.instance) of \(bridge.bus): \(state)",
                error: error))
    }
}
