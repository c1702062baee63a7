/// What every subscriber did with one published event, once all have finished: returned
/// by ``EventBus/publishAndWait(_:)``.
///
/// ```swift
/// let summary = await bus.publishAndWait(Login(subtype: .logout, user: "ann"))
/// summary.successes.map(\.subscriber)   // who handled it, in subscription order
/// summary.failures.first?.error         // why someone failed
/// summary.duration                    // from publish to the last report
/// ```
public struct BusSummary<Value: Sendable>: Sendable, CustomStringConvertible {
    /// One report per subscriber that ran, in subscription order.
    ///
    /// ```swift
    /// summary.reports.count
    /// ```
    public let reports: [BusFeedback<Value>]

    /// Subscribers the event reached that did not run because their subscriber object had
    /// gone by the time their executor got to them.
    ///
    /// ```swift
    /// summary.skippedCount
    /// ```
    public let skippedCount: Int

    /// From the publish to the last report.
    ///
    /// ```swift
    /// summary.duration
    /// ```
    public let duration: Duration

    /// The reports of handlers that returned normally.
    ///
    /// ```swift
    /// summary.successes.map(\.subscriber)
    /// ```
    public var successes: [BusFeedback<Value>] { reports.filter(\.isSuccess) }

    /// The reports of handlers that threw.
    ///
    /// ```swift
    /// summary.failures.map(\.subscriber)
    /// ```
    public var failures: [BusFeedback<Value>] { reports.filter { !$0.isSuccess } }

    /// The answers of the handlers that gave one, in subscription order.
    ///
    /// ```swift
    /// summary.values
    /// ```
    public var values: [Value] { reports.compactMap(\.value) }

    /// Whether no subscriber received the event.
    ///
    /// ```swift
    /// summary.isEmpty
    /// ```
    public var isEmpty: Bool { reports.isEmpty && skippedCount == 0 }

    /// `2 handled (A, B), 1 failed (C), 0 skipped`; names are left out when there are none.
    ///
    /// ```swift
    /// print(summary)
    /// ```
    public var description: String {
        func names(_ reports: [BusFeedback<Value>]) -> String {
            reports.isEmpty ? "" : " (\(reports.map(\.subscriber).joined(separator: ", ")))"
        }
        return "\(successes.count) handled\(names(successes)), \(failures.count) failed"
            + "\(names(failures)), \(skippedCount) skipped"
    }
}
