/// One subscriber's report on one event: who, its answer or error, and how long it took.
public struct BusFeedback<Value: Sendable>: Sendable, CustomStringConvertible {
    /// How a handler ended.
    public enum Outcome: Sendable {
        /// It returned: its answer, or `nil` for a union or any-of subscription.
        case handled(Value?)
        /// It threw this error.
        case failed(any Error)
    }

    /// The subscription that reported.
    public let subscription: RegistrationToken

    /// The name given at subscription, else its object's type name.
    public let subscriber: String

    /// How its handler ended.
    public let outcome: Outcome

    /// How long its handler ran (not its wait for the executor).
    public let duration: Duration

    /// Whether the handler returned normally.
    public var isSuccess: Bool {
        if case .handled = outcome { true } else { false }
    }

    /// The handler's answer, or `nil` if it failed or answers nothing.
    public var value: Value? {
        if case .handled(let value) = outcome { value } else { nil }
    }

    /// The error the handler threw, or `nil` if it handled the event.
    public var error: (any Error)? {
        if case .failed(let error) = outcome { error } else { nil }
    }

    /// `Cache handled: cleared` or `Audit failed: <error>`.
    public var description: String {
        switch outcome {
        case .handled(let value?) where !(value is Void): "\(subscriber) handled: \(value)"
        case .handled: "\(subscriber) handled"
        case .failed(let error): "\(subscriber) failed: \(error)"
        }
    }
}

/// What every subscriber did with one event, returned by ``EventBus/publishAndWait(_:)``.
public struct BusSummary<Value: Sendable>: Sendable, CustomStringConvertible {
    /// One report per subscriber that ran, in subscription order.
    public let reports: [BusFeedback<Value>]

    /// Subscribers reached whose object had gone when their executor got to them.
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

    /// `2 handled (A, B), 1 failed (C), 0 skipped`.
    public var description: String {
        func names(_ reports: [BusFeedback<Value>]) -> String {
            reports.isEmpty ? "" : " (\(reports.map(\.subscriber).joined(separator: ", ")))"
        }
        return "\(successes.count) handled\(names(successes)), \(failures.count) failed"
            + "\(names(failures)), \(skippedCount) skipped"
    }
}
