import ActionPipeConcurrency

/// Something that can be observed: a property or a path through sub-states.
@usableFromInline
protocol _ObsSource<Value>: Sendable {
    associatedtype Value: Sendable
    /// Registers the observer `makeObserver` builds from the value (called once, possibly under
    /// the source's lock, so it must not run user code); returns the token and that value.
    func _subscribe(
        _ makeObserver: (Value) -> _ObsObserver<Value>
    ) -> (token: RegistrationToken, value: Value)
}

/// The observation forms shared by ``ObservedProperty`` and ``ObservedPath``.
extension _ObsSource {
    /// Registers `observer` (filtered by `.skipEqual`), then delivers the value now if
    /// `.initial`; `label` is made only when used.
    @usableFromInline
    func _observe(
        _ options: ObservationOptions, label: @autoclosure () -> String,
        _ observer: _ObsObserver<Value>
    ) -> RegistrationToken {
        let (token, value) = _subscribe { observer.applying(options, first: $0) }
        if options.contains(.initial) {
            _obsNested(label()) {
                if !observer.deliver(value) { token.cancel() }
            }
        }
        return token
    }

    @usableFromInline
    func _observe<Owner: AnyObject & Sendable>(
        _ options: ObservationOptions, label: @autoclosure () -> String, owner: Owner,
        retention: Retention, _ handler: @escaping @Sendable (Owner, Value) -> Void
    ) -> RegistrationToken {
        guard retention == .weak else {
            return _observe(options, label: label(), _ObsObserver(plain: { handler(owner, $0) }))
        }
        let deliver = _obsDelivery(whileAlive: owner, handler)
        return _observe(options, label: label(), _ObsDeliveringObserver(deliver: deliver))
    }

    /// The initial value (if asked for) is queued under the source's lock, so it comes
    /// before any later assignment.
    func _values(
        _ options: ObservationOptions,
        _ buffering: AsyncStream<Value>.Continuation.BufferingPolicy
    ) -> (stream: AsyncStream<Value>, token: RegistrationToken) {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: buffering)
        let yield: @Sendable (Value) -> Bool = {
            if case .terminated = continuation.yield($0) { false } else { true }
        }
        let (token, _) = _subscribe { first in
            if options.contains(.initial) { continuation.yield(first) }
            return _ObsDeliveringObserver(deliver: yield, end: { continuation.finish() })
                .applying(options, first: first)
        }
        continuation.onTermination = { _ in token.cancel() }
        return (stream, token)
    }

    func _observe<A: Actor>(
        _ options: ObservationOptions, on actor: A,
        _ handler: @escaping @Sendable (isolated A, Value) -> Void
    ) -> RegistrationToken {
        let (stream, token) = _values(options, .unbounded)
        Task { [weak actor] in
            for await value in stream {
                guard let actor else { break }
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

/// Runs `body` one delivery level deeper, or reports a cycle and skips it when the thread is
/// already `depthLimit` levels deep. For deliveries that read no observer list (`.initial`).
func _obsNested(_ label: String, _ body: () -> Void) {
    let depth = NestingDepth.counter(.delivery)
    let level = depth.pointee
    guard level < ObservationCycleError.depthLimit else {
        ObservationCycleError._report(.init(property: label, depth: level + 1))
        return
    }
    depth.pointee = level &+ 1
    body()
    depth.pointee = level
}
