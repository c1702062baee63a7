extension ObservedPath {
    /// Calls `handler` with the new value after every assignment, synchronously, on the
    /// assigning thread; equal values included unless `.skipEqual`.
    ///
    /// The observation lasts until the token is cancelled or the property goes away. The
    /// handler must not capture a state object that holds this property strongly (a
    /// retain cycle): observe with an `owner:` instead.
    ///
    /// ```swift
    /// let token = screen.$image.then(\.$url).observe(.initial) { print("now", $0) }
    /// ```
    ///
    /// - Parameters:
    ///   - options: `.initial` delivers the current value at once; `.skipEqual` skips a
    ///     value equal to the last one this observer saw.
    ///   - handler: Receives each new value. It may set any property, observe, or cancel.
    /// - Returns: A token that ends the observation.
    @discardableResult
    public func observe(
        _ options: ObservationOptions = [], _ handler: @escaping @Sendable (Value) -> Void
    ) -> RegistrationToken {
        _observePlain(options, label: label, handler)
    }

    /// Calls `handler` with `owner` and each new value for as long as `owner` lives; the
    /// owner is held weakly by default (``Retention/weak``), so observing never keeps it
    /// alive. With ``Retention/strong`` the observation keeps it until cancelled.
    ///
    /// Once `owner` is released the handler is never called again, and the observation is
    /// removed at the next assignment.
    ///
    /// ```swift
    /// screen.$image.then(\.$url).observe(owner: view) { view, value in view.show(value) }
    /// ```
    ///
    /// - Returns: A token that ends the observation earlier.
    @discardableResult
    public func observe<Owner: AnyObject & Sendable>(
        _ options: ObservationOptions = [], owner: Owner, retention: Retention = .weak,
        _ handler: @escaping @Sendable (Owner, Value) -> Void
    ) -> RegistrationToken {
        _observe(options, label: label, owner: owner, retention: retention, handler)
    }

    /// Delivers each new value on `actor` (e.g. `MainActor.shared`), in assignment order,
    /// asynchronously; the actor is held weakly.
    ///
    /// Values are queued as they are assigned and delivered one after another by a task, so
    /// the handler may lag the property. The observation ends when the token is cancelled,
    /// the property goes away, or the actor is released (at the next value).
    ///
    /// ```swift
    /// screen.$image.then(\.$url).observe(on: MainActor.shared) { _, value in label.text = "\(value)" }
    /// ```
    ///
    /// - Returns: A token that ends the observation.
    @discardableResult
    public func observe<A: Actor>(
        _ options: ObservationOptions = [], on actor: A,
        _ handler: @escaping @Sendable (isolated A, Value) -> Void
    ) -> RegistrationToken {
        _observe(options, on: actor, handler)
    }

    /// The values assigned from now on, as an `AsyncStream` (works on Linux and on every
    /// Apple OS version the package supports).
    ///
    /// The stream finishes when the property goes away; ending the iteration (or its task)
    /// removes the observer.
    ///
    /// ```swift
    /// for await value in screen.$image.then(\.$url).values(.initial) { print(value) }
    /// ```
    ///
    /// - Parameters:
    ///   - options: `.initial` yields the current value first; `.skipEqual` skips repeats.
    ///   - buffering: What to keep while the consumer is behind. By default the newest 1,024
    ///     unread values: a reader that falls further behind loses the oldest, so a stream
    ///     nobody reads cannot exhaust memory. Pass `.unbounded` to keep every value.
    public func values(
        _ options: ObservationOptions = [],
        buffering: AsyncStream<Value>.Continuation.BufferingPolicy = .bufferingNewest(1_024)
    ) -> AsyncStream<Value> {
        _values(options, buffering).stream
    }
}
