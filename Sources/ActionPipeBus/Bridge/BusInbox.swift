import ActionPipeShared

/// Where a ``BusTransport`` hands what it receives: the messages, and what the bridge's
/// app should hear about (a connection lost, a message that arrived malformed), which goes
/// to ``Diagnostics``.
///
/// ```swift
/// func receive(into inbox: BusInbox) async throws {
///     for await message in messages { inbox.deliver(message) }
/// }
/// ```
public struct BusInbox: Sendable {
    let bridge: BusBridge

    /// Decodes `message` and publishes its event on the bridge's bus as a remote event
    /// (``BusOrigin/remote(_:)``), now, on this thread, unless it is the bridge's own, was
    /// seen before (its sequence is not above the last one from its sender), or its topic is
    /// not bridged here. A payload that does not decode is reported to ``Diagnostics``
    /// (``Diagnostic/Kind/bridgeEventDropped``) and skipped.
    ///
    /// ```swift
    /// inbox.deliver(message)
    /// ```
    ///
    /// - Returns: Whether the event was published.
    /// - Complexity: O(1) to find the topic, then the decoding and the publish.
    @discardableResult
    public func deliver(_ message: BusMessage) -> Bool {
        bridge._deliver(message)
    }

    /// Reports to ``Diagnostics`` (``Diagnostic/Kind/bridgeEventDropped``) something that
    /// arrived and could not be read as a message, and so was skipped.
    ///
    /// ```swift
    /// inbox.reportMalformed("a notification without a header", error: nil)
    /// ```
    ///
    /// - Complexity: O(1) plus the diagnostics handler.
    public func reportMalformed(_ what: String, error: (any Error)? = nil) {
        Diagnostics.report(
            Diagnostic(
                .bridgeEventDropped,
                "bridge \(bridge.instance) of \(bridge.bus) skipped a malformed message: \(what)",
                error: error))
    }

    /// Reports to ``Diagnostics`` that events were lost (`count` of them, or an unknown
    /// number when `nil`), and why.
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

    /// Reports to ``Diagnostics`` (``Diagnostic/Kind/bridgeConnection``) a change of the
    /// transport's connection: connected, lost, reconnecting.
    ///
    /// ```swift
    /// inbox.reportConnection("reconnecting in 0.4 s", error: error)
    /// ```
    ///
    /// - Complexity: O(1) plus the diagnostics handler.
    public func reportConnection(_ state: String, error: (any Error)? = nil) {
        Diagnostics.report(
            Diagnostic(
                .bridgeConnection, "bridge \(bridge.instance) of \(bridge.bus): \(state)",
                error: error))
    }
}
