import ActionPipeConcurrency
import Synchronization

/// One observation delivered on the main actor: a set enqueues each value on the one
/// `_MainActorQueue` (so every property's deliveries keep the writes' order), run only while
/// active. `.initial`'s value is dropped once a write's was delivered (it is older).
@usableFromInline
final class _ObsMainActorObservation<Value: Sendable>: Sendable {
    /// Returns `false` when its owner is gone; called only on the main actor.
    @usableFromInline let handler: @Sendable (Value) -> Bool
    @usableFromInline let active = Atomic<Bool>(true)
    /// A write's value was delivered: the initial value is stale.
    @usableFromInline let wrote = Atomic<Bool>(false)
    @usableFromInline let token = LockedValue<RegistrationToken?>(nil)

    @inlinable
    init(_ handler: @escaping @MainActor @Sendable (Value) -> Bool) {
        self.handler = MainQueue.uncheckedIsolation(handler)
    }

    @inlinable var isActive: Bool { active.load(ordering: .acquiring) }

    /// Ends the observation: no delivery runs the handler after this.
    @usableFromInline func end() { active.store(false, ordering: .releasing) }

    @usableFromInline
    func enqueue(_ value: Value, initial: Bool = false) {
        _MainActorQueue.shared.enqueue { self.run(value, initial: initial) }
    }

    /// The observer's delivery, on the writing thread; `false` once ended.
    func send(_ value: Value) -> Bool {
        guard isActive else { return false }
        if _MainActorQueue.shared.isIdleOnMainActor {
            run(value, initial: false)
        } else {
            enqueue(value)
        }
        return true
    }

    /// A delivery, on the main actor (the caller checked, or runs in the queue's drain).
    private func run(_ value: Value, initial: Bool) {
        guard isActive else { return }
        if initial {
            guard !wrote.load(ordering: .relaxed) else { return }
        } else {
            wrote.store(true, ordering: .relaxed)
        }
        if !handler(value) {
            end()  // the owner is gone
            let registration = token.withLock { $0 }
            registration?.cancel()
        }
    }
}

extension _ObsSource {
    /// Observes on the main actor; `handler` returns `false` once its owner is gone.
    func _observeOnMainActor(
        _ options: ObservationOptions,
        whileAlive handler: @escaping @MainActor @Sendable (Value) -> Bool
    ) -> RegistrationToken {
        let observation = _ObsMainActorObservation(handler)
        let (token, first) = _subscribe {
            _ObsDeliveringObserver(deliver: { observation.send($0) }, end: { observation.end() })
                .applying(options, first: $0)
        }
        observation.token.withLock { $0 = token }
        if options.contains(.initial) { observation.enqueue(first, initial: true) }
        return token
    }

    @usableFromInline
    func _observeOnMainActor(
        _ options: ObservationOptions, _ handler: @escaping @MainActor @Sendable (Value) -> Void
    ) -> RegistrationToken {
        _observeOnMainActor(options) { value in
            handler(value)
            return true
        }
    }

    /// `owner` is held weakly and read on the main actor only.
    func _observeOnMainActor<Owner: AnyObject & Sendable>(
        _ options: ObservationOptions, owner: Owner,
        _ handler: @escaping @MainActor @Sendable (Owner, Value) -> Void
    ) -> RegistrationToken {
        _observeOnMainActor(options) { [weak owner] value in
            guard let owner else { return false }
            handler(owner, value)
            return true
        }
    }
}
