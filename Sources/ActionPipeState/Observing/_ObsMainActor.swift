import ActionPipeConcurrency
import Synchronization

/// One observation delivered on the main actor (`observe(on: .mainActor)`): a set enqueues
/// each value on the one main-actor queue (`_MainActorQueue`), so deliveries of every
/// property keep the order of the writes; a delivery runs only if the observation is active.
///
/// - `.initial`'s value is older than any write delivered, yet a write's delivery can be
///   enqueued before it; it is then dropped, so no older value follows a newer one.
/// - An owner is read only on the main actor, so its `deinit` never runs on the writing
///   thread.
@usableFromInline
final class _ObsMainActorObservation<Value: Sendable>: Sendable {
    /// Returns `false` when its owner is gone; called only on the main actor.
    @usableFromInline let handler: @Sendable (Value) -> Bool
    @usableFromInline let active = Atomic<Bool>(true)
    /// A write's value was delivered: the initial value is stale.
    @usableFromInline let wrote = Atomic<Bool>(false)
    /// For ``run(_:initial:)`` to remove the registration once the owner is gone.
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

    /// The sink's delivery, on the writing thread; `false` once ended.
    func send(_ value: Value) -> Bool {
        guard isActive else { return false }
        // On the main actor with nothing queued, order allows delivering now.
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
            // The owner is gone: remove the observer, with no lock held.
            end()
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
            _ObsSink(deliver: { observation.send($0) }, end: { observation.end() })
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
        let weakOwner = WeakBox(owner)
        return _observeOnMainActor(options) { value in
            guard let owner = weakOwner.object else { return false }
            handler(owner, value)
            return true
        }
    }
}
