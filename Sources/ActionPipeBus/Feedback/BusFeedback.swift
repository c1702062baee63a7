/// One subscriber's report on one published event: who it was, whether it handled the
/// event (and what it answered) or failed (and why), and how long it took.
///
/// ```swift
/// bus.publish(Login(subtype: .login, user: "ann")) { feedback in
///     print(feedback)   // "Cache handled in 3 µs: cleared"
/// }
/// ```
public struct BusFeedback<Value: Sendable>: Sendable, CustomStringConvertible {
    /// How a handler ended.
    ///
    /// ```swift
    /// if case .failed(let error) = feedback.outcome { print(error) }
    /// ```
    public enum Outcome: Sendable {
        /// It returned: its answer, or `nil` for a union or any-of subscription, which
        /// answers nothing.
        case handled(Value?)
        /// It threw this error.
        case failed(any Error)
    }

    /// The subscription that reported.
    ///
    /// ```swift
    /// feedback.subscription.cancel()
    /// ```
    public let subscription: RegistrationToken

    /// The subscriber's name: the one given at subscription, else its object's type name.
    ///
    /// ```swift
    /// feedback.subscriber == "LoginScreen"
    /// ```
    public let subscriber: String

    /// How its handler ended.
    ///
    /// ```swift
    /// feedback.outcome
    /// ```
    public let outcome: Outcome

    /// How long its handler ran (not counting the wait for its executor).
    ///
    /// ```swift
    /// feedback.duration < .seconds(1)
    /// ```
    public let duration: Duration

    /// Whether the handler returned normally.
    ///
    /// ```swift
    /// feedback.isSuccess
    /// ```
    public var isSuccess: Bool {
        if case .handled = outcome { return true }
        return false
    }

    /// The handler's answer, or `nil` if it failed or answers nothing.
    ///
    /// ```swift
    /// feedback.value
    /// ```
    public var value: Value? {
        if case .handled(let value) = outcome { return value }
        return nil
    }

    /// The error the handler threw, or `nil` if it handled the event.
    ///
    /// ```swift
    /// feedback.error
    /// ```
    public var error: (any Error)? {
        if case .failed(let error) = outcome { return error }
        return nil
    }

    /// `Cache handled: cleared` or `Audit failed: <error>`.
    ///
    /// ```swift
    /// print(feedback)
    /// ```
    public var description: String {
        switch outcome {
        case .handled(let value?) where !(value is Void): "\(subscriber) handled: \(value)"
        case .handled: "\(subscriber) handled"
        case .failed(let error): "\(subscriber) failed: \(error)"
        }
    }
}
