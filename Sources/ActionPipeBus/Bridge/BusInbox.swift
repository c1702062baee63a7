/// Where a ``BusTransport`` hands messages, and reports problems to ``Diagnostics``.
public struct BusInbox: Sendable {
    let bridge: BusBridge

    /// Decodes `message` and publishes it now as a remote event, unless own, seen or unknown;
    /// returns whether it was published. An undecodable payload is reported
    /// (``Diagnostic/Kind/bridgeEventDropped``).
    @discardableResult
    public func deliver(_ message: BusMessage) -> Bool {
        guard message.sender != bridge.instance else { return false }
        guard let inbound = bridge.core.accept(message) else { return false }
        do {
            return try inbound(message.payload, bridge.bus, message.sender)
        } catch {
            bridge.core.reportDropped(message, "its payload does not decode", error)
            return false
        }
    }

    /// Reports something that arrived and could not be read as a message.
    public func reportMalformed(_ what: String, error: (any Error)? = nil) {
        bridge.core.report(" skipped a malformed message: \(what)", error)
    }

    /// Reports that events were lost (`count`, or an unknown number when `nil`), and why.
    public func reportDropped(count: Int?, _ reason: String, error: (any Error)? = nil) {
        let what = count.map { "\($0) event(s)" } ?? "events"
        bridge.core.report(" lost \(what): \(reason)", error)
    }

    /// Reports a change of the transport's connection: connected, lost, reconnecting.
    public func reportConnection(_ state: String, error: (any Error)? = nil) {
        bridge.core.report(": \(state)", error, kind: .bridgeConnection)
    }
}
