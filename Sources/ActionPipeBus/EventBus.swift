import ActionPipeConcurrency
import Synchronization

/// A publish-subscribe bus for typed events: the Swift form of DWEventBus.
///
/// Publishers and subscribers know the event types, not each other. A subscriber listens
/// to a ``BusTopic`` (an event type and, exactly, a subtype, or any subtype); a publish
/// calls, synchronously on the publisher's thread and in subscription order, every
/// handler whose topic matches, unless the subscription named an ``BusExecutor`` to run
/// on. A subscription made with an `owner:` object ends by itself when that object goes away.
///
/// ```swift
/// struct Login: BusEvent {
///     enum Kind: Hashable, Sendable { case login, logout }
///     let subtype: Kind
///     let user: String
/// }
/// let bus = EventBus(name: "session")
/// bus.subscribe(BusTopic(Login.self, .login), owner: screen) { screen, event in
///     screen.greet(event.user)
/// }
/// bus.publish(Login(subtype: .login, user: "ann"))   // screen.greet("ann")
/// ```
///
/// Buses are independent: an event published on one never reaches another's
/// subscribers. ``default`` is one shared bus.
public final class EventBus: Sendable, CustomStringConvertible {
    /// The shared bus, for apps that need only one.
    ///
    /// ```swift
    /// EventBus.default.publish(Ping())
    /// ```
    public static let `default` = EventBus(name: "default")

    /// The bus's name, for descriptions and subscription tokens.
    ///
    /// ```swift
    /// EventBus(name: "session").name == "session"
    /// ```
    public let name: String

    @usableFromInline let _state: LockedValue<_BusState>
    /// The routes publishes read, apart from `_state`: pinned by a publish (no lock, no
    /// retain), stored by changes under `_state`'s lock (see `_BusRouteTable`).
    @usableFromInline let _published: SnapshotCell<_BusRouteTable>
    /// `NestingDepth.key`, copied here: reading the global costs a check per publish.
    @usableFromInline let _depthKey = NestingDepth.key
    /// `_instrumentationFlag`, copied here: a publish reads the bus anyway, and reading the
    /// global costs a call to its lazy-initialisation accessor.
    @usableFromInline nonisolated(unsafe) let _instrumentationFlag = UnsafePointer(
        ActionPipeShared._instrumentationFlag)

    /// A new bus, independent of every other.
    ///
    /// ```swift
    /// let bus = EventBus(name: "session")
    /// ```
    public init(name: String) {
        self.name = name
        let published = SnapshotCell<_BusRouteTable>()
        _ = published.store(_BusRouteTable.make([:]))
        _published = published
        _state = LockedValue(_BusState(published: published))
        _handle = _BusWeakBus(name: name)
        _handle.value = self
    }

    /// The bus held weakly, for its subscription tokens and its unions' queued jobs.
    let _handle: _BusWeakBus

    /// `EventBus(session)`.
    ///
    /// ```swift
    /// print(bus)
    /// ```
    public var description: String { "EventBus(\(name))" }

    /// How many subscriptions are registered and have a live subscriber (or none).
    ///
    /// ```swift
    /// bus.subscriptionCount
    /// ```
    ///
    /// - Complexity: O(n) for n subscriptions.
    public var subscriptionCount: Int {
        // The owners are read after unlocking: reading a weak reference makes a strong one,
        // which may be the last, and the owner's deinit must not run under the lock.
        let owners = _state.withLock { state in state.records.values.map(\.owner) }
        return owners.count { $0 == nil || $0?.object != nil }
    }

    /// Whether the subscription `id` is still registered (its subscriber may be gone).
    func _isRegistered(_ id: UInt64) -> Bool {
        _state.withLock { $0.records[id] != nil }
    }

    /// Delivers `event`, now, on this thread, to every subscription whose topic matches it,
    /// in subscription order; handlers with an executor are handed to it instead.
    ///
    /// A handler may publish, subscribe and unsubscribe on this bus: a nested publish is
    /// delivered at once (depth first); a subscription made during a publish does not get
    /// the event being delivered; one cancelled during a publish does not get it either, if
    /// it has not yet. A handler that throws does not stop the others; it is counted in
    /// ``BusPublishResult/failedCount`` (ask for feedback to see the error). A publish nested
    /// deeper than ``NestingLimitError/depthLimit`` (counted with synchronous core calls)
    /// reaches nobody: it is reported, and returned in ``BusPublishResult/nestingError``.
    ///
    /// ```swift
    /// let result = bus.publish(Login(subtype: .login, user: "ann"))
    /// result.handledCount   // how many handlers ran
    /// ```
    ///
    /// - Complexity: No lock, no reference counting and no write to memory another thread
    ///   writes to read the event type's routes (the publish pins them in a hazard slot of
    ///   its own thread), then one call per matching subscription.
    ///   Allocates nothing (unless a handler has an executor, or a subscriber has gone and
    ///   its subscriptions are pruned).
    @inlinable
    @discardableResult
    public func publish<Event: BusEvent>(_ event: Event) -> BusPublishResult {
        if _instrumentationFlag.pointee.load(ordering: .relaxed) {
            return _publishInstrumented(event)
        }
        return _publish(event)
    }

    /// The publish with an instrument installed, between its begin and end. Never inlined,
    /// so a plain publish pays only the check.
    @inlinable @inline(never)
    func _publishInstrumented<Event: BusEvent>(_ event: Event) -> BusPublishResult {
        // `_typeName`, not `String(describing:)`: the latter goes through the runtime's
        // printing machinery, several times the cost of the publish.
        let span = Instrumentation.begin(
            .publish, name: _typeName(Event.self, qualified: false), detail: name)
        let result = _publish(event)
        span?.end(result.nestingError.map { .failed($0) } ?? .succeeded)
        return result
    }

    /// Delivers `event`: the body of ``publish(_:)``.
    @inlinable @inline(__always)
    func _publish<Event: BusEvent>(_ event: Event) -> BusPublishResult {
        // The thread's record, found once: its depth word, read here rather than through
        // `_enterCall` (one call less), and its hazard slots.
        let thread = ThreadRecord.current(key: _depthKey)
        let depth = thread.counter(.call)
        guard depth.pointee < NestingDepth.callLimit else { return _refuse(Event.self) }
        depth.pointee &+= 1
        let published = _published
        let pin = published.pin(on: thread)
        // One frame from here to the handler: a nested publish pays for every frame between
        // two publishes, so the lookup, the borrows and the walk are all inlined here.
        let lookup = _BusRouteTable.lookup(Event.self, in: pin.snapshot.unsafelyUnwrapped)
        var result = BusPublishResult()
        var sawGone = false
        if case .found(let routes) = lookup {
            (result, sawGone) = routes.with { routes in _deliver(event, routes) }
        }
        published.unpin(pin)
        if case .stale = lookup {
            // Subscriptions changed since the routes were built: rebuild them, then deliver.
            result = _publishStale(event)
        } else if sawGone {
            _pruneGone()
        }
        // Not a `defer`: one made the publish handle its result through value witnesses.
        depth.pointee &-= 1
        return result
    }

    /// A publish refused for nesting too deep: reported, and returned in the result.
    @usableFromInline @inline(never)
    func _refuse<Event: BusEvent>(_ type: Event.Type) -> BusPublishResult {
        var result = BusPublishResult()
        result.refusedEventType = Event.self
        if let error = result.nestingError { NestingLimitError._report(error) }
        return result
    }

    /// A publish that found its routes stale: it rebuilds them and delivers with them
    /// retained.
    @usableFromInline @inline(never)
    func _publishStale<Event: BusEvent>(_ event: Event) -> BusPublishResult {
        guard let routes = _routes(Event.self) else { return BusPublishResult() }
        let (result, sawGone) = _deliver(event, routes)
        if sawGone { _pruneGone() }
        return result
    }

    /// Delivers `event` to the subscriptions of `routes` that get its subtype (`routes` kept
    /// alive by the caller); returns the counts and whether a subscriber was found gone.
    ///
    /// - Complexity: O(k) plus the handlers, for k matching subscriptions.
    @inlinable @inline(__always)
    func _deliver<Event: BusEvent>(_ event: Event, _ routes: _BusRoutes<Event>)
        -> (BusPublishResult, Bool)
    {
        // Plain counters, not the result: they stay in registers across the handler calls.
        var handled = 0
        var failed = 0
        var scheduled = 0
        var sawGone = false
        routes.forEach(for: event.subtype) { entry in
            if entry.isCancelled.load(ordering: .acquiring) { return }
            guard entry.isPlain else {
                switch _deliverOwnedOrLater(entry, event) {
                case .handled: handled &+= 1
                case .failed: failed &+= 1
                case .scheduled: scheduled &+= 1
                case .gone: sawGone = true
                }
                return
            }
            do {
                _ = try knownCast(entry, to: _BusPlainEntry<Event>.self).handler(event)
                handled &+= 1
            } catch {
                failed &+= 1
            }
        }
        var result = BusPublishResult()
        result.handledCount = handled
        result.failedCount = failed
        result.scheduledCount = scheduled
        return (result, sawGone)
    }

    /// Delivers `event` to an entry that is not plain: with a subscriber object, an
    /// executor, or a union's or a stream's forwarder. Out of line: its strong subscriber and executor
    /// copy would otherwise enlarge every publish's frame.
    @inlinable @inline(never)
    func _deliverOwnedOrLater<Event: BusEvent>(_ entry: _BusEntry<Event>, _ event: Event)
        -> _BusDelivery
    {
        let general = knownCast(entry, to: _BusGeneralEntry<Event>.self)
        if let executor = general.runsOn {
            if entry.ownerIsGone { return .gone }
            // Only the main actor's queue runs a job at once (a publish on the main actor
            // with nothing queued): handled, not scheduled.
            let ran = executor.enqueue { entry._runReportingErrors(event) }
            return ran ? .handled : .scheduled
        }
        var subscriber: AnyObject? = nil
        if let owner = general.subscriber {
            guard let alive = owner.object else { return .gone }
            subscriber = alive
        }
        do {
            _ = try general.handler(subscriber, event)
            return .handled
        } catch {
            return .failed
        }
    }

    /// Publishes `event` on `executor`: the publish itself runs there, later.
    ///
    /// ```swift
    /// bus.publish(Ping(), on: .task)   // returns at once
    /// ```
    public func publish<Event: BusEvent>(_ event: Event, on executor: BusExecutor) {
        executor.enqueue { self.publish(event) }
    }

    /// The current routes of `Event`, retained and rebuilt if a change left them stale, or
    /// `nil` when nobody listens to it.
    @inlinable
    func _routes<Event: BusEvent>(_ type: Event.Type) -> _BusRoutes<Event>? {
        // The table is held until the routes are retained: `routes(for:)` hands them out
        // unretained, and a table replaced meanwhile may be freed as soon as this reference
        // to it ends.
        guard let table = _published.load() else { return nil }
        let found = withExtendedLifetime(table) {
            table.routes(for: ObjectIdentifier(Event.self))?.object
        }
        guard var routes = found else { return nil }
        if routes === _busStaleRoutes {
            guard let fresh = _refreshRoutes(ObjectIdentifier(Event.self)) else { return nil }
            routes = fresh
        }
        return knownCast(routes, to: _BusRoutes<Event>.self)
    }

    /// Rebuilds the routes of `type` if stale and returns them, retained: from the entries
    /// copied under the bus's lock, built after unlocking, and installed under it unless a
    /// change came meanwhile. Publishes that find the routes stale at the same moment each
    /// build them, and one installs them; a burst of changes with no publish among them
    /// costs one build.
    @usableFromInline
    func _refreshRoutes(_ type: ObjectIdentifier) -> AnyObject? {
        let (current, stale) = _state.withLock { $0.routesToRefresh(type) }
        guard let stale else { return current }
        // Built with no lock held: indexing the entries by subtype hashes and compares
        // subtypes, which may be the app's code.
        let fresh = stale.makeRoutes()
        let (routes, released) = _state.withLock { $0.install(fresh, builtFrom: stale) }
        withExtendedLifetime(released) {}
        return routes
    }

    /// Removes the subscriptions `ids`; returns how many of them were registered with a
    /// live subscriber (or none). Subscriptions of gone subscribers are pruned too.
    func _remove(_ ids: Set<UInt64>) -> Int {
        let (owners, released) = _state.withLock { state -> ([_BusOwner?], [AnyObject]) in
            let owners = ids.compactMap { state.records[$0] }.map(\.owner)
            return (owners, state.remove(ids))
        }
        // The owners are read, then the handlers (and what they capture) released, with no
        // lock held; read first, a subscriber that only its handler kept counts as live.
        let live = owners.count { $0 == nil || $0?.object != nil }
        withExtendedLifetime(released) {}
        return live
    }

    /// Removes the subscriptions whose subscriber object has gone.
    ///
    /// Three steps, so that no weak reference is read under the lock: take the owned
    /// subscriptions' owner boxes, see which owners are gone (unlocked), remove those.
    ///
    /// - Complexity: O(n) for n subscriptions.
    @usableFromInline
    func _pruneGone() {
        let owned = _state.withLock { state -> [(UInt64, _BusOwner)] in
            state.pruneThreshold = Swift.max(64, 2 * state.records.count)
            guard !state.byOwner.isEmpty else { return [] }  // no subscription has an owner
            return state.records.compactMap { id, record in record.owner.map { (id, $0) } }
        }
        let gone = Set(owned.lazy.filter { $0.1.object == nil }.map(\.0))
        guard !gone.isEmpty else { return }
        let released = _state.withLock { state in state.remove(gone) }
        withExtendedLifetime(released) {}
    }

    /// Prunes gone subscribers when the subscriptions have doubled since the last prune:
    /// subscribing stays amortised O(1), and subscriptions of gone owners never outnumber
    /// the live ones by more than that.
    func _pruneGoneIfDue(count: Int, threshold: Int) {
        if count >= threshold { _pruneGone() }
    }
}

extension _BusEntry {
    /// Runs the handler on an executor, after the publish: skipped when the subscription
    /// was cancelled or its subscriber went away in between.
    ///
    /// - Returns: The outcome, or `nil` when skipped.
    @usableFromInline
    func _runLater(_ event: Event) -> Result<Event.Feedback?, any Error>? {
        if isCancelled.load(ordering: .acquiring) { return nil }
        var subscriber: AnyObject? = nil
        if let owner {
            guard let alive = owner.object else { return nil }
            subscriber = alive
        }
        return Result { try call(subscriber, event) }
    }
}

extension _BusEntry {
    /// Runs the handler on an executor with nobody to receive its outcome: an error it
    /// throws goes to ``Diagnostics`` instead of being dropped.
    @usableFromInline
    func _runReportingErrors(_ event: Event) {
        guard case .failure(let error) = _runLater(event) else { return }
        _reportDropped(error, subscriber: name, event: Event.self)
    }
}

/// Reports an error thrown by a subscriber run on an executor, which no caller receives.
func _reportDropped(_ error: any Error, subscriber: String, event: Any.Type) {
    Diagnostics.report(
        Diagnostic(
            .handlerErrorDropped,
            "subscriber '\(subscriber)' of \(event), run on an executor, threw \(error); "
                + "nobody receives it (publish(_:feedback:) hands subscribers' errors to its "
                + "closure).",
            error: error))
}
