extension ObservedProperty {
    /// Calls `handler` with the new value after every assignment, synchronously, on the
    /// assigning thread; equal values included unless `.skipEqual`.
    ///
    /// The observation lasts until the token is cancelled or the property goes away. The
    /// handler must not capture a state object that holds this property strongly (a
    /// retain cycle): observe with an `owner:` instead.
    ///
    /// ```swift
    /// let token = image.$url.observe(.initial) { print("now", $0) }
    /// ```
    ///
    /// - Parameters:
    ///   - options: `.initial` delivers the current value at once; `.skipEqual` skips a
    ///     value equal to the last one this observer saw.
    ///   - handler: Receives each new value. It may set any property, observe, or cancel.
    /// - Returns: A token that ends the observation.
    ///
    /// - Complexity: Amortised O(1) in the number of observers: the list a set reads is rebuilt
    ///   by the next set, once for a burst of changes.
    @inlinable
    @discardableResult
    public func observe(
        _ options: ObservationOptions = [], _ handler: @escaping @Sendable (Value) -> Void
    ) -> RegistrationToken {
        // Inlinable, so the caller makes the observer: its class's metadata is then looked
        // up once per call site, not on every call.
        guard options.isEmpty else { return _observe(options, plain: handler) }
        return _register(_ObsObserver(id: _obsMakeID(), plain: handler, isPlain: true))
    }

    /// Calls `handler` with `owner` and each new value for as long as `owner` lives; the
    /// owner is held weakly by default (``Retention/weak``), so observing never keeps it
    /// alive. With ``Retention/strong`` the observation keeps it until cancelled.
    ///
    /// Once `owner` is released the handler is never called again, and the observation is
    /// removed at the next assignment.
    ///
    /// ```swift
    /// image.$url.observe(owner: view) { view, value in view.show(value) }
    /// ```
    ///
    /// - Returns: A token that ends the observation earlier.
    ///
    /// - Complexity: Amortised O(1) in the number of observers: the list a set reads is rebuilt
    ///   by the next set, once for a burst of changes.
    @inlinable
    @discardableResult
    public func observe<Owner: AnyObject & Sendable>(
        _ options: ObservationOptions = [], owner: Owner, retention: Retention = .weak,
        _ handler: @escaping @Sendable (Owner, Value) -> Void
    ) -> RegistrationToken {
        // Inlinable, as `observe(_:_:)` is: the caller makes the observer, so the types'
        // metadata is looked up once per call site, not on every call.
        guard options.isEmpty else { return _observe(options, owner: owner, retention, handler) }
        guard retention == .weak else {
            // The observer keeps its owner: a plain observer that captures it.
            return _register(
                _ObsObserver(id: _obsMakeID(), plain: { handler(owner, $0) }, isPlain: true))
        }
        return _register(
            _ObsDeliveringObserver(
                id: _obsMakeID(), deliver: _obsDelivery(whileAlive: owner, handler), end: nil))
    }

    /// ``observe(_:owner:retention:_:)`` with options.
    @usableFromInline
    func _observe<Owner: AnyObject & Sendable>(
        _ options: ObservationOptions, owner: Owner, _ retention: Retention,
        _ handler: @escaping @Sendable (Owner, Value) -> Void
    ) -> RegistrationToken {
        _observe(options, label: label, owner: owner, retention: retention, handler)
    }

    /// ``observe(_:on:_:)`` with options.
    @usableFromInline
    func _observe(
        _ options: ObservationOptions,
        onMainActor handler: @escaping @MainActor @Sendable (Value) -> Void
    ) -> RegistrationToken {
        _observeOnMainActor(options, handler)
    }

    /// ``observe(_:_:)`` with options.
    @usableFromInline
    func _observe(
        _ options: ObservationOptions, plain handler: @escaping @Sendable (Value) -> Void
    ) -> RegistrationToken {
        _observePlain(options, label: label, handler)
    }

    /// Delivers each new value on `actor` (e.g. `MainActor.shared`), in assignment order,
    /// asynchronously; the actor is held weakly.
    ///
    /// Values are queued as they are assigned and delivered one after another by a task, so
    /// the handler may lag the property. The observation ends when the token is cancelled,
    /// the property goes away, or the actor is released (at the next value).
    ///
    /// ```swift
    /// image.$url.observe(on: MainActor.shared) { _, value in label.text = "\(value)" }
    /// ```
    ///
    /// - Returns: A token that ends the observation.
    ///
    /// - Complexity: Amortised O(1) in the number of observers: the list a set reads is rebuilt
    ///   by the next set, once for a burst of changes.
    @discardableResult
    public func observe<A: Actor>(
        _ options: ObservationOptions = [], on actor: A,
        _ handler: @escaping @Sendable (isolated A, Value) -> Void
    ) -> RegistrationToken {
        _observe(options, on: actor, handler)
    }

    /// Calls `handler` with each new value on the main actor, as a `@MainActor` closure: it
    /// touches a `@MainActor` view model directly, with no `MainActor.assumeIsolated`.
    ///
    /// Deliveries keep the order of the writes across every property, state object and bus
    /// observed this way (one queue to the main actor serves them all; see
    /// ``MainActorDelivery``). A write made on the main actor with nothing queued is
    /// delivered before the write returns; a write from another thread is delivered later,
    /// on the main actor. A delivery still queued when the observation ends (the token
    /// cancelled, the property gone) is dropped: after `cancel()` on the main actor the
    /// handler is never called again. Writes made at once on several threads are delivered
    /// in the order their sets reached the observer, as with ``observe(_:_:)``.
    ///
    /// The handler must not capture a state object that holds this property strongly (a
    /// retain cycle): observe with an `owner:` instead.
    ///
    /// ```swift
    /// @MainActor final class AlbumsViewModel {
    ///     var albums: [String] = []
    ///     var token: RegistrationToken?
    ///
    ///     func bind(to albums: ObservedProperty<[String]>) {
    ///         token = albums.observe(.initial, on: .mainActor) { self.albums = $0 }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - options: `.initial` delivers the current value (on the main actor, first, unless
    ///     a newer write's value reaches the handler before it); `.skipEqual` skips a value
    ///     equal to the last one this observer was sent.
    ///   - on: ``MainActorDelivery/mainActor``.
    ///   - handler: Receives each new value on the main actor. It may set any property,
    ///     observe, or cancel.
    /// - Returns: A token that ends the observation.
    ///
    /// - Complexity: Amortised O(1) in the number of observers, as ``observe(_:_:)``. A set
    ///   on the main actor with nothing queued calls the handler directly; any other adds
    ///   one enqueue (one lock, one allocation) per main-actor observer.
    @inlinable
    @discardableResult
    public func observe(
        _ options: ObservationOptions = [], on _: MainActorDelivery,
        _ handler: @escaping @MainActor @Sendable (Value) -> Void
    ) -> RegistrationToken {
        guard options.isEmpty else { return _observe(options, onMainActor: handler) }
        // Inlinable, as `observe(_:_:)` is: the caller makes the observer, so the delivery
        // on the main actor runs specialised for the value type, as a plain observer's.
        let observation = _ObsMainActorObservation<Value> { value in
            handler(value)
            return true
        }
        // Captured here, not read from the observation: a generic class's closure field is
        // stored unspecialised, and each call through it would convert the value twice.
        let immediate = _ObsMainActorObservation<Value>.callable(handler)
        return _register(
            _ObsDeliveringObserver(
                id: _obsMakeID(),
                plain: { value in
                    guard observation.isActive else { return }
                    if _MainActorQueue.shared.isIdleOnMainActor {
                        immediate(value)
                    } else {
                        observation.enqueue(value)
                    }
                },
                end: { observation.end() }))
    }

    /// Calls `handler` with `owner` and each new value on the main actor, for as long as
    /// `owner` lives; the owner is held weakly and handed to the handler, so the handler
    /// need not capture it. A `@MainActor` class (a view model) is `Sendable`, so it can be
    /// the owner.
    ///
    /// Deliveries are ordered, immediate and dropped as for `observe(_:on:_:)` with
    /// `.mainActor`.
    /// Once `owner` is released the handler is never called again (not even for values
    /// queued before), and the observation is removed at the next delivery. The owner is
    /// only read on the main actor, so observing never makes another thread release it.
    ///
    /// ```swift
    /// @MainActor final class AlbumsScreen {
    ///     var albums: [String] = []
    ///
    ///     init(albums: ObservedProperty<[String]>) {
    ///         albums.observe(owner: self, on: .mainActor) { screen, value in
    ///             screen.albums = value
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// - Returns: A token that ends the observation earlier.
    ///
    /// - Complexity: As `observe(_:on:_:)` with `.mainActor`: amortised O(1) in the number
    ///   of observers; a set adds one enqueue per main-actor observer.
    @discardableResult
    public func observe<Owner: AnyObject & Sendable>(
        _ options: ObservationOptions = [], owner: Owner, on _: MainActorDelivery,
        _ handler: @escaping @MainActor @Sendable (Owner, Value) -> Void
    ) -> RegistrationToken {
        _observeOnMainActor(options, owner: owner, handler)
    }

    /// The values assigned from now on, as an `AsyncStream` (works on Linux and on every
    /// Apple OS version the package supports).
    ///
    /// The stream finishes when the property goes away; ending the iteration (or its task)
    /// removes the observer.
    ///
    /// ```swift
    /// for await value in image.$url.values(.initial) { print(value) }
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
