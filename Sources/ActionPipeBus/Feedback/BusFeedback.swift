/// One subscriber's report on one published event: who it was, whether it handled the
/// event (and what it answered) or failed (and why), and how long it took.
///
/// ```swift
/// bus.publish(Login(subtype: .login, user: "ann")) { feedback in
///     print(feedback)   // "Cache handled: cleared"
/// }
/// ```
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

    /// How long its handler ran (not counting the wait for its executor).
    public let duration: Duration

    /// Whether the handler returned normally.
    public var isSuccess: Bool {
        if case .handled = outcome { return true }
        return false
    }

    /// The handler's answer, or `nil` if it failed or answers nothing.
    public var value: Value? {
        if case .handled(let value) = outcome { return value }
        return nil
    }

    /// The error the handler threw, or `nil` if it handled the event.
    public var error: (any Error)? {
        if case .failed(let error) = outcome { return error }
        return nil
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
