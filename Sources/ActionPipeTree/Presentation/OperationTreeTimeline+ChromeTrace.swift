extension OperationTreeTimeline {
    /// The timeline in the Trace Event Format that Perfetto and `chrome://tracing` open,
    /// one event a line: a complete event per ``Slice`` (`tid` its lane, an unfinished one
    /// ending at the last recorded event), an instant per retry and final failure.
    ///
    /// - Complexity: O(n) for n slices and marks.
    public var chromeTraceJSON: String {
        var events: [String] = [
            #"{"name":"process_name","ph":"M","pid":1,"tid":0,"args":{"name":"operation tree"}}"#
        ]
        for lane in 1...max(1, laneCount) where lane <= laneCount {
            events.append(
                #"{"name":"thread_name","ph":"M","pid":1,"tid":\#(lane),"args":{"name":"lane \#(lane)"}}"#
            )
        }
        for slice in slices {
            let end = slice.end ?? latest
            var args = [
                (key: "node", value: Self.json(slice.item.node)),
                ("item", "\(slice.item.id)"),
            ]
            if let parent = slice.item.parentID { args.append(("parent", "\(parent)")) }
            args += [
                ("object", Self.json(String(describing: slice.item.object))),
                ("attempt", "\(slice.attempt)"),
                ("outcome", Self.json(slice.outcome.description)),
            ]
            events.append(
                "{\"name\":\(Self.json(slice.item.description)),\"cat\":\(Self.json(slice.item.node)),"
                    + "\"ph\":\"X\",\"ts\":\(Self.micros(slice.start)),"
                    + "\"dur\":\(Self.micros(end - slice.start)),\"pid\":1,\"tid\":\(slice.lane),"
                    + "\"args\":\(Self.object(args))}")
        }
        for mark in marks {
            let subject =
                mark.failure.item.map(String.init(describing:))
                ?? "\(mark.failure.node) objects for \(mark.failure.object)"
            let (name, category) =
                mark.delay == nil ? ("failed \(subject)", "failure") : ("retry \(subject)", "retry")
            var args = [
                (key: "error", value: Self.json(String(describing: mark.failure.error))),
                ("attempts", "\(mark.failure.attempts)"),
            ]
            if let delay = mark.delay { args.append(("delay", Self.json("\(delay)"))) }
            let scope =
                mark.lane.map { "\"s\":\"t\",\"pid\":1,\"tid\":\($0)" }
                ?? "\"s\":\"p\",\"pid\":1,\"tid\":0"
            events.append(
                "{\"name\":\(Self.json(name)),\"cat\":\"\(category)\",\"ph\":\"i\","
                    + "\"ts\":\(Self.micros(mark.time)),\(scope),\"args\":\(Self.object(args))}")
        }
        return "{\"traceEvents\":[\n" + events.joined(separator: ",\n")
            + "\n],\"displayTimeUnit\":\"ms\"}\n"
    }

    /// `{"key":value,…}` from keys and values already in JSON.
    private static func object(_ members: [(key: String, value: String)]) -> String {
        "{" + members.map { "\(json($0.key)):\($0.value)" }.joined(separator: ",") + "}"
    }

    /// `text` as a JSON string: quoted, with quotes, backslashes and control characters
    /// escaped.
    static func json(_ text: String) -> String {
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.value < 0x20:
                escaped += "\\u" + padded(Int64(scalar.value), to: 4, radix: 16)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }

    /// `duration` in microseconds, to the nanosecond: `1500.250`; negative counts as zero.
    /// Built from the seconds, so no duration overflows.
    static func micros(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return "0.000" }
        let nanoseconds = attoseconds / 1_000_000_000
        let microseconds = nanoseconds / 1_000
        let whole =
            seconds == 0 ? String(microseconds) : String(seconds) + padded(microseconds, to: 6)
        return whole + "." + padded(nanoseconds % 1_000, to: 3)
    }

    /// `value` in `radix`, with leading zeros up to `width` digits.
    private static func padded(_ value: Int64, to width: Int, radix: Int = 10) -> String {
        let digits = String(value, radix: radix)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
