import ActionPipeConcurrency

/// One observation of a path `outer → sub-state → property`. The observer on `outer` holds
/// the link; the inner observer holds it weakly and removes itself once the link is gone.
final class _ObsPathLink<Sub: AnyObject & Sendable, Value: Sendable>: _Registry {
    struct State {
        var generation: UInt64 = 0
        var observer: _ObsObserver<Value>?
        var outerToken: RegistrationToken?
        var innerToken: RegistrationToken?
        var ended = false
    }

    /// Weak: the root's observer holds this link, so a strong reference back is a cycle.
    let currentSub: @Sendable () -> Sub?
    let keyPath: KeyPath<Sub, ObservedProperty<Value>> & Sendable
    let state = LockedValue(State())
    let id = RegistrationToken.nextID()

    init(
        _ currentSub: @escaping @Sendable () -> Sub?,
        _ keyPath: KeyPath<Sub, ObservedProperty<Value>> & Sendable
    ) {
        self.currentSub = currentSub
        self.keyPath = keyPath
    }

    // The outer property went away (its observer held the link).
    deinit { end() }

    func start(
        _ outer: ObservedPath<Sub>, _ makeObserver: (Value) -> _ObsObserver<Value>
    ) -> (token: RegistrationToken, value: Value) {
        let (outerToken, sub) = outer.subscribe { _ in
            _ObsDeliveringObserver { [self] _ in self.replace() }
        }
        let generation = state.withLock { state in
            state.outerToken = outerToken
            return state.generation
        }
        let value = attach(sub, generation) { value in
            // Under the inner property's lock; the link's lock is a leaf, taken inside it.
            let observer = makeObserver(value)
            state.withLock { $0.observer = observer }
        }
        // The outer property may have been replaced between the two subscriptions.
        let now = outer.current()
        if now !== sub { _ = replace() }
        return (RegistrationToken(registry: self, id: id, scope: "observation"), value)
    }

    /// Observes the property of `sub` for `generation` (`first` gets its value, under its
    /// lock) and keeps the token while `generation` is current, else cancels it.
    func attach(_ sub: Sub, _ generation: UInt64, first: (Value) -> Void = { _ in }) -> Value {
        let (token, value) = sub[keyPath: keyPath]._subscribe { value in
            first(value)
            return innerObserver(generation)
        }
        let kept = state.withLock { state in
            guard state.generation == generation, !state.ended else { return false }
            state.innerToken = token
            return true
        }
        if !kept { token.cancel() }
        return value
    }

    /// Delivers while `generation` is current; removes itself once the link is gone or moved on.
    func innerObserver(_ generation: UInt64) -> _ObsObserver<Value> {
        _ObsDeliveringObserver { [weak self] value in
            guard let self, let observer = observer(of: generation) else { return false }
            if !observer.deliver(value) { end() }
            return true
        }
    }

    /// The path's observer while `generation` is current and the link has not ended.
    func observer(of generation: UInt64) -> _ObsObserver<Value>? {
        state.withLock { $0.generation == generation && !$0.ended ? $0.observer : nil }
    }

    /// The outer property was assigned: move to its sub-state's property and deliver. The
    /// sub-state is read after taking a generation, so the newest one sees the newest sub-state.
    func replace() -> Bool {
        let (old, generation, ended) = state.withLock { state in
            state.generation &+= 1
            return (state.innerToken.take(), state.generation, state.ended)
        }
        old?.cancel()
        guard !ended, let sub = currentSub() else { return false }
        let value = attach(sub, generation)
        guard let observer = observer(of: generation) else { return !state.withLock(\.ended) }
        if !observer.deliver(value) {
            end()
            return false
        }
        return true
    }

    @discardableResult
    func end() -> Bool {
        // Tokens and observer leave the lock in `old`, to be cancelled and released outside it.
        let old = state.withLock { state in
            defer { state = State(generation: state.generation, ended: true) }
            return state
        }
        if old.ended { return false }
        old.innerToken?.cancel()
        old.outerToken?.cancel()
        old.observer?.end?()
        return true
    }

    package func _cancelRegistration(_ id: UInt64, detail: Int) -> Bool {
        id == self.id ? end() : false
    }

    package func _isRegistrationActive(_ id: UInt64, detail: Int) -> Bool {
        id == self.id && !state.withLock(\.ended)
    }
}
