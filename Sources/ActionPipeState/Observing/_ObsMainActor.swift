import ActionPipeConcurrency
import Synchronization

/// One observation delivered on the main actor (`observe(on: .mainActor)`): a set enqueues
/// each value on the one main-actor queue (`_MainActorQueue`), so deliveries of every
/// property keep the order of the writes; a delivery runs only if the observation is active.
///
/// - ``end()`` clears ``isActive`` before it returns, so a cancel made on the main actor
///   drops every delivery still queued.
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
    /// To remove the registration from the main actor once the owner is gone.
    @usableFromInline let token = LockedValue<RegistrationToken?>(nil)

    @inlinable
    init(_ handler: @escaping @MainActor @Sendable (Value) -> Bool) {
        self.handler = MainQueue.uncheckedIsolation(handler)
    }

    @inlinable var isActive: Bool { active.load(ordering: .acquiring) }

    /// Ends the observation: no delivery runs the handler after this.
    @usableFromInline func end() { active.store(false, ordering: .releasing) }

    /// `handler`, for a caller that has checked it is on the main actor.
    @inlinable
    static func callable(
        _ handler: @escaping @MainActor @Sendable (Value) -> Void
    ) -> @Sendable (Value) -> Void {
        MainQueue.uncheckedIsolation(handler)
    }

    @usableFromInline
    func enqueue(_ value: Value) {
        _MainActorQueue.shared.enqueue { self.run(value, initial: false) }
    }

    /// Keeps the registration's token, for ``run(_:initial:)`` to cancel.
    func keep(_ registration: RegistrationToken) {
        // The replaced token is released after unlocking.
        let replaced = token.withLock { token in
            defer { token = registration }
            return token
        }
        withExtendedLifetime(replaced) {}
    }

    /// The sink's delivery, on the writing thread; `false` once ended.
    func send(_ value: Value) -> Bool {
        guard isActive else { return false }
        // On the main actor with nothing queued, order allows delivering now.
        if _MainActorQueue.shared.isIdleOnMainActor {
            run(value, initial: false)
        } else {
            _MainActorQueue.shared.enqueue { self.run(value, initial: false) }
        }
        return true
    }

    func sendInitial(_ value: Value) {
        _MainActorQueue.shared.enqueue { self.run(value, initial: true) }
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
        let send: @Sendable (Value) -> Bool = { observation.send($0) }
        let skip = options.contains(.skipEqual)
        let (token, first) = _subscribe { first in
            _ObsSink(
                deliver: skip ? Self._skippingEqual(first, send) : send,
                end: { observation.end() })
        }
        observation.keep(token)
        if options.contains(.initial) { observation.sendInitial(first) }
        return token
    }

    /// ``_observeOnMainActor(_:whileAlive:)`` for a handler that is never gone.
    func _observeOnMainActor(
        _ options: ObservationOptions, _ handler: @escaping @MainActor @Sendable (Value) -> Void
    ) -> RegistrationToken {
        let deliver: @MainActor @Sendable (Value) -> Bool = { value in
            handler(value)
            return true
        }
        return _observeOnMainActor(options, whileAlive: deliver)
    }

    /// ``_observeOnMainActor(_:whileAlive:)`` bound to `owner`, held weakly and read on the
    /// main actor only.
    func _observeOnMainActor<Owner: AnyObject & Sendable>(
        _ options: ObservationOptions, owner: Owner,
        _ handler: @escaping @MainActor @Sendable (Owner, Value) -> Void
    ) -> RegistrationToken {
        let weakOwner = WeakBox(owner)
        let deliver: @MainActor @Sendable (Value) -> Bool = { value in
            guard let owner = weakOwner.object else { return false }
            handler(owner, value)
            return true
        }
        return _observeOnMainActor(options, whileAlive: deliver)
    }
}
