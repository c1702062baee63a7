import ActionPipeBus
import Foundation

/// How a message is written in a fast-mode `NOTIFY` payload: a header of five lines (the
/// format, the sender, the sequence, the topic, the body's encoding) and the body, as text
/// when the payload is UTF-8 without NUL (JSON is), else base64.
enum PostgresBusWire {
    /// PostgreSQL refuses payloads of 8,000 bytes or more.
    static let notifyLimit = 7_999

    static func text(of message: BusMessage) throws -> String {
        let body: String
        let encoding: String
        if !message.payload.contains(0),
            let text = String(validating: message.payload, as: UTF8.self)
        {
            (body, encoding) = (text, "t")
        } else {
            (body, encoding) = (Data(message.payload).base64EncodedString(), "b")
        }
        let text =
            "ap1\n\(message.sender.rawValue)\n\(message.sequence)\n\(message.topic)\n\(encoding)\n"
            + body
        let bytes = text.utf8.count
        guard bytes <= notifyLimit else {
            throw PostgresBusError.payloadTooLarge(bytes: bytes, limit: notifyLimit)
        }
        return text
    }

    /// The message in `text`, or `nil` when it is not one.
    static func message(from text: String) -> BusMessage? {
        let parts = text.split(separator: "\n", maxSplits: 5, omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == "ap1", !parts[1].isEmpty,
            let sequence = UInt64(parts[2]), !parts[3].isEmpty
        else { return nil }
        let payload: [UInt8]
        switch parts[4] {
        case "t": payload = Array(parts[5].utf8)
        case "b":
            guard let data = Data(base64Encoded: String(parts[5])) else { return nil }
            payload = Array(data)
        default: return nil
        }
        return BusMessage(
            topic: String(parts[3]), sender: BusInstanceID(String(parts[1])), sequence: sequence,
            payload: payload)
    }

    /// Whether `name` may be a channel or a table name unquoted.
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 63 else { return false }
        let lower = UInt8(ascii: "a")...UInt8(ascii: "z")
        let digit = UInt8(ascii: "0")...UInt8(ascii: "9")
        let underscore = UInt8(ascii: "_")
        guard lower.contains(first) || first == underscore else { return false }
        return name.utf8.allSatisfy { lower.contains($0) || digit.contains($0) || $0 == underscore }
    }
}
