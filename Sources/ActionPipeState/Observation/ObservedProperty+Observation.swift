import ActionPipeConcurrency

#if canImport(Observation)
    import Observation

    /// A property is `Observable` as itself: Swift Observation tracks its `value`. Reads take
    /// part when made through the `@Observed` wrapper of a class that conforms to
    /// `Observable`; stores report to the trackers those reads registered.
    extension ObservedProperty: Observable {}
#endif

extension ObservedProperty {
    /// The value, read through the `@Observed` wrapper of `object`: when `object`'s class
    /// conforms to `Observable`, the read is recorded for Swift Observation, and the next
    /// store tells Observation's trackers.
    ///
    /// - Complexity: O(1); the first read decides, once, whether `Enclosing` is `Observable`.
    @inlinable
    func _value<Enclosing: AnyObject>(readThrough object: Enclosing) -> Value {
        if Self._readsWord, _isUntracked { return _wordValue }
        lock.lock()
        let value = state.pointee.value
        switch state.pointee.trackingMode {
        case .off:
            lock.unlock()
        case .on:
            state.pointee.readByTracking = true
            let tracking = state.pointee.tracking
            lock.unlock()
            tracking?.access(self)
        case .undecided:
            lock.unlock()
            _beginTracking(Enclosing.self)
        }
        return value
    }

    /// Decides whether reads through an `Enclosing` take part in Observation, keeps the
    /// answer, and records this first read.
    @usableFromInline @inline(never)
    func _beginTracking<Enclosing: AnyObject>(_: Enclosing.Type) {
        var made: _ObsTracking<Value>? = nil
        #if canImport(Observation)
            if Enclosing.self is any Observable.Type { made = _ObsTracking() }
        #endif
        let tracking = withLock { state -> _ObsTracking<Value>? in
            if state.trackingMode == .undecided {
                state.trackingMode = made == nil ? .off : .on
                if made == nil { _markUntracked() }
                state.tracking = made
            }
            if state.trackingMode == .on { state.readByTracking = true }
            return state.tracking
        }
        tracking?.access(self)
    }
}
