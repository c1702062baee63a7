import ActionPipeConcurrency

/// The observation forms shared by ``ObservedProperty`` and ``ObservedPath``.
extension _ObsSource {
    /// Wraps `deliver` so it skips a value equal to the last one this observer saw.
    static func _skippingEqual(
        _ first: Value, _ deliver: @escaping @Sendable (Value) -> Bool
    ) -> @Sendable (Value) -> Bool {
        guard let equal = _obsEquality(of: Value.self) else { return deliver }
        let last = LockedValue(first)
        return { value in
            // `==` may be user code: compared after the lock is released.
            let previous = last.withLock { last in
                defer { last = value }
                return last
            }
            return equal(previous, value) ? true : deliver(value)
        }
    }

    /// `label` is made only when used (`.initial`): formatting a default label is costly.
    func _observe(
        _ options: ObservationOptions, label: @autoclosure () -> String,
        _ deliver: @escaping @Sendable (Value) -> Bool
    ) -> RegistrationToken {
        let skip = options.contains(.skipEqual)
        let (token, value) = _subscribe { first in
            _ObsSink(deliver: skip ? Self._skippingEqual(first, deliver) : deliver)
        }
        if options.contains(.initial) {
            _obsNested(label()) {
                if !deliver(value) { token.cancel() }
            }
        }
        return token
    }

    /// Without `.skipEqual`, the property calls `handler` directly (`_ObsSink.plain`).
    func _observePlain(
        _ options: ObservationOptions, label: @autoclosure () -> String,
        _ handler: @escaping @Sendable (Value) -> Void
    ) -> RegistrationToken {
        guard !options.contains(.skipEqual) else {
            return _observe(options, label: label()) { value in
                handler(value)
                return true
            }
        }
        let (token, value) = _subscribe { _ in _ObsSink(plain: handler) }
        if options.contains(.initial) {
            _obsNested(label()) { handler(value) }
        }
        return token
    }

    func _observe<Owner: AnyObject & Sendable>(
        _ options: ObservationOptions, label: @autoclosure () -> String, owner: Owner,
        retention: Retention,
        _ handler: @escaping @Sendable (Owner, Value) -> Void
    ) -> RegistrationToken {
        if retention == .strong {
            return _observePlain(options, label: label()) { value in handler(owner, value) }
        }
        return _observe(options, label: label(), _obsDelivery(whileAlive: owner, handler))
    }

    /// The initial value (if asked for) is queued under the source's lock, so it comes
    /// before any later assignment.
    func _values(
        _ options: ObservationOptions,
        _ buffering: AsyncStream<Value>.Continuation.BufferingPolicy
    ) -> (stream: AsyncStream<Value>, token: RegistrationToken) {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: buffering)
        let yield: @Sendable (Value) -> Bool = { value in
            if case .terminated = continuation.yield(value) { return false }
            return true
        }
        let (token, _) = _subscribe { first in
            if options.contains(.initial) { continuation.yield(first) }
            return _ObsSink(
                deliver: options.contains(.skipEqual)
                    ? Self._skippingEqual(first, yield) : yield,
                end: { continuation.finish() })
        }
        continuation.onTermination = { _ in token.cancel() }
        return (stream, token)
    }

    func _observe<A: Actor>(
        _ options: ObservationOptions, on actor: A,
        _ handler: @escaping @Sendable (isolated A, Value) -> Void
    ) -> RegistrationToken {
        let weakActor = WeakBox(actor)
        let (stream, token) = _values(options, .unbounded)
        Task {
            for await value in stream {
                guard let actor = weakActor.object else { break }
                await handler(actor, value)
            }
        }
        return token
    }
}

/// The delivery of an observer bound to `owner`, held weakly: `false` once it is gone.
@inlinable
func _obsDelivery<Owner: AnyObject & Sendable, Value: Sendable>(
    whileAlive owner: Owner, _ handler: @escaping @Sendable (Owner, Value) -> Void
) -> @Sendable (Value) -> Bool {
    let weakOwner = WeakBox(owner)
    return { value in
        guard let owner = weakOwner.object else { return false }
        handler(owner, value)
        return true
    }
}
