/// What every subscriber did with one published event, once all have finished: returned
/// by ``EventBus/publishAndWait(_:)``.
///
/// ```swift
/// let summary = await bus.publishAndWait(Login(subtype: .logout, user: "ann"))
/// summary.failures.first?.error   // why someone failed
/// ```
public struct BusSummary<Value: Sendable>: Sendable, CustomStringConvertible {
    /// One report per subscriber that ran, in subscription order.
    public let reports: [BusFeedback<Value>]

    /// Subscribers reached that did not run: their object had gone by the time their
    /// executor got to them.
    public let skippedCount: Int

    /// From the publish to the last report.
    public let duration: Duration

    /// The reports of handlers that returned normally.
    public var successes: [BusFeedback<Value>] { reports.filter(\.isSuccess) }

    /// The reports of handlers that threw.
    public var failures: [BusFeedback<Value>] { reports.filter { !$0.isSuccess } }

    /// The answers of the handlers that gave one, in subscription order.
    public var values: [Value] { reports.compactMap(\.value) }

    /// Whether no subscriber received the event.
    public var isEmpty: Bool { reports.isEmpty && skippedCount == 0 }

    /// `2 handled (A, B), 1 failed (C), 0 skipped`; names are left out when there are none.
    public var description: String {
        func names(_ reports: [BusFeedback<Value>]) -> String {
            reports.isEmpty ? "" : " (\(reports.map(\.subscriber).joined(separator: ", ")))"
        }
        return "\(successes.count) handled\(names(successes)), \(failures.count) failed"
            + "\(names(failures)), \(skippedCount) skipped"
    }
}
