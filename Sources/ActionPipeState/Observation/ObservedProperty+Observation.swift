import ActionPipeConcurrency
import Synchronization

#if canImport(Observation)
    import Observation

    /// Swift Observation tracks a property's `value` when read through the `@Observed`
    /// wrapper of an `Observable` class.
    extension ObservedProperty: Observable {}
#endif

extension ObservedProperty {
    /// The value, read through the `@Observed` wrapper of `object`; recorded for Observation
    /// when `object`'s class is `Observable`.
    ///
    /// - Complexity: O(1); the first read decides, once, whether `Enclosing` is `Observable`.
    @inlinable
    func _value<Enclosing: AnyObject>(readThrough object: Enclosing) -> Value {
        if Self._readsWord, untracked.load(ordering: .relaxed) { return _wordValue }
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

    /// Decides, once, whether reads through an `Enclosing` take part, and records this read.
    @usableFromInline @inline(never)
    func _beginTracking<Enclosing: AnyObject>(_: Enclosing.Type) {
        var made: _ObsTracking<Value>? = nil
        #if canImport(Observation)
            if Enclosing.self is any Observable.Type { made = _ObsTracking() }
        #endif
        let tracking = withLock { state -> _ObsTracking<Value>? in
            if state.trackingMode == .undecided {
                state.trackingMode = made == nil ? .off : .on
                if made == nil { untracked.store(true, ordering: .relaxed) }
                state.tracking = made
            }
            if state.trackingMode == .on { state.readByTracking = true }
            return state.tracking
        }
        tracking?.access(self)
    }
}
