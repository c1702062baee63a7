import ActionPipeConcurrency
import Synchronization

/// A publish-subscribe bus for typed events: a publish calls every handler whose ``BusTopic``
/// matches, in subscription order, on the publisher's thread or its ``BusExecutor``.
public final class EventBus: Sendable, CustomStringConvertible {
    /// The shared bus, for apps that need only one.
    public static let `default` = EventBus(name: "default")

    /// The bus's name, for descriptions and subscription tokens.
    public let name: String

    @usableFromInline let _state: LockedValue<_BusState>
    /// Pinned by a publish (no lock, no retain), stored by changes under `_state`'s lock.
    @usableFromInline let _published: SnapshotCell<_BusRouteTable>
    /// The globals' values copied: a publish skips their lazy-initialisation checks.
    @usableFromInline let _depthKey = NestingDepth.key
    @usableFromInline nonisolated(unsafe) let _instrumentationFlag = UnsafePointer(
        ActionPipeShared._instrumentationFlag)

    /// A new bus, independent of every other.
    public init(name: String) {
        self.name = name
        let published = SnapshotCell<_BusRouteTable>()
        _ = published.store(_BusRouteTable.make([:]))
        _published = published
        _state = LockedValue(_BusState(published: published))
    }

    /// `EventBus(session)`.
    public var description: String { "EventBus(\(name))" }

    /// How many subscriptions are registered and have a live subscriber (or none).
    ///
    /// - Complexity: O(n) for n subscriptions.
    public var subscriptionCount: Int {
        // Owners are read after unlocking: the strong reference made may be the last.
        let owners = _state.withLock { state in state.records.values.map(\.owner) }
        return owners.count { $0 == nil || $0?.object != nil }
    }

    /// Its subscriber may be gone.
    func _isRegistered(_ id: UInt64) -> Bool {
        _state.withLock { $0.records[id] != nil }
    }

    /// Delivers `event` now, on this thread, to every matching subscription in order (or to
    /// its executor); one nested deeper than ``NestingLimitError/depthLimit`` reaches nobody.
    ///
    /// - Complexity: O(k) for k matching subscriptions, read with no lock. The first publish of
    ///   a type after its subscriptions change rebuilds its routes, unlocked (O(n log n) for
    ///   its n subscriptions); one that meets a gone subscriber prunes (O(n)).
    @inlinable
    @discardableResult
    public func publish<Event: BusEvent>(_ event: Event) -> BusPublishResult {
        if _instrumentationFlag.pointee.load(ordering: .relaxed) {
            return _publishInstrumented(event)
        }
        return _publish(event)
    }

    /// Out of line, so a plain publish pays only the check.
    @inlinable @inline(never)
    func _publishInstrumented<Event: BusEvent>(_ event: Event) -> BusPublishResult {
        let span = Instrumentation.begin(
            .publish, name: _typeName(Event.self, qualified: false), detail: name)
        let result = _publish(event)
        span?.end(result.nestingError.map { .failed($0) } ?? .succeeded)
        return result
    }

    @inlinable @inline(__always)
    func _publish<Event: BusEvent>(_ event: Event) -> BusPublishResult {
        // The thread's record, found once: its depth word and its hazard slots.
        let thread = ThreadRecord.current(key: _depthKey)
        let depth = thread.counter(.call)
        guard depth.pointee < NestingDepth.callLimit else { return _refuse(Event.self) }
        depth.pointee &+= 1
        let published = _published
        let pin = published.pin(on: thread)
        let lookup = _BusRouteTable.lookup(Event.self, in: pin.snapshot.unsafelyUnwrapped)
        var result = BusPublishResult()
        var sawGone = false
        if case .found(let routes) = lookup {
            (result, sawGone) = routes.with { routes in _deliver(event, routes) }
        }
        published.unpin(pin)
        if case .stale = lookup {
            result = _publishStale(event)
        } else if sawGone {
            _pruneGone()
        }
        // Not a `defer`: one made the result go through value witnesses.
        depth.pointee &-= 1
        return result
    }

    @usableFromInline @inline(never)
    func _refuse<Event: BusEvent>(_ type: Event.Type) -> BusPublishResult {
        var result = BusPublishResult()
        result.refusedEventType = Event.self
        if let error = result.nestingError { NestingLimitError._report(error) }
        return result
    }

    /// Rebuilds the routes, and delivers with them retained.
    @usableFromInline @inline(never)
    func _publishStale<Event: BusEvent>(_ event: Event) -> BusPublishResult {
        guard let routes = _routes(Event.self) else { return BusPublishResult() }
        let (result, sawGone) = _deliver(event, routes)
        if sawGone { _pruneGone() }
        return result
    }

    /// Delivers to `routes` (kept alive by the caller); returns whether a subscriber was gone.
    @inlinable @inline(__always)
    func _deliver<Event: BusEvent>(_ event: Event, _ routes: _BusRoutes<Event>)
        -> (BusPublishResult, Bool)
    {
        // Plain counters, not the result: they stay in registers across handler calls.
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

    /// Out of line: its subscriber and executor would enlarge every publish's frame.
    @inlinable @inline(never)
    func _deliverOwnedOrLater<Event: BusEvent>(_ entry: _BusEntry<Event>, _ event: Event)
        -> _BusDelivery
    {
        let general = knownCast(entry, to: _BusGeneralEntry<Event>.self)
        if let executor = general.runsOn {
            if entry.ownerIsGone { return .gone }
            // Only the main actor's queue runs a job at once: handled, not scheduled.
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
    public func publish<Event: BusEvent>(_ event: Event, on executor: BusExecutor) {
        executor.enqueue { self.publish(event) }
    }

    /// Retained and rebuilt if stale; `nil` when nobody listens to `Event`.
    @inlinable
    func _routes<Event: BusEvent>(_ type: Event.Type) -> _BusRoutes<Event>? {
        // The table hands out its routes unretained: hold it until they are retained.
        guard let table = _published.load() else { return nil }
        let found = withExtendedLifetime(table) {
            table.routes(for: ObjectIdentifier(Event.self))?.object
        }
        guard let found else { return nil }
        let routes =
            found === _busStaleRoutes ? _refreshRoutes(ObjectIdentifier(Event.self)) : found
        return routes.map { knownCast($0, to: _BusRoutes<Event>.self) }
    }

    /// Rebuilds the routes of `type` if stale (unlocked: subtype hashing is app code) and
    /// returns them, retained.
    @usableFromInline
    func _refreshRoutes(_ type: ObjectIdentifier) -> AnyObject? {
        let (current, stale) = _state.withLock { $0.routesToRefresh(type) }
        guard let stale else { return current }
        // A table is dropped with its last entry; its entries know their event type.
        guard let entry = stale.entries.first?.value else {
            preconditionFailure("ActionPipe: a route table outlived its last subscription")
        }
        let fresh = entry.makeRoutes(from: stale.entries, more: stale.more)
        let (routes, released) = _state.withLock { $0.install(fresh, builtFrom: stale) }
        withExtendedLifetime(released) {}
        return routes
    }

    /// Removes `ids`; returns how many had a live subscriber (or none).
    func _remove(_ ids: some Collection<UInt64>) -> Int {
        let (owners, released) = _state.withLock { state -> ([_BusOwner?], [AnyObject]) in
            let owners = ids.compactMap { state.records[$0] }.map(\.owner)
            return (owners, state.remove(ids))
        }
        // Owners read before the handlers are released: one only its handler kept counts.
        let live = owners.count { $0 == nil || $0?.object != nil }
        withExtendedLifetime(released) {}
        return live
    }

    /// Owner boxes are taken under the lock, read unlocked, then the gone removed: O(n).
    @usableFromInline
    func _pruneGone() {
        let owned = _state.withLock { state -> [(UInt64, _BusOwner)] in
            state.pruneThreshold = Swift.max(64, 2 * state.records.count)
            guard !state.byOwner.isEmpty else { return [] }  // no subscription has an owner
            return state.records.compactMap { id, record in record.owner.map { (id, $0) } }
        }
        let gone = Set(owned.lazy.filter { $0.1.object == nil }.map(\.0))
        if !gone.isEmpty { _ = _remove(gone) }
    }
}

extension _BusEntry {
    /// `nil` when cancelled or its subscriber went away since the publish.
    @usableFromInline
    func _runLater(_ event: Event) -> Result<Event.Feedback?, any Error>? {
        if isCancelled.load(ordering: .acquiring) { return nil }
        let owner = owner
        let subscriber = owner?.object
        guard owner == nil || subscriber != nil else { return nil }
        return Result { try call(subscriber, event) }
    }

    /// With nobody to receive its outcome, an error goes to ``Diagnostics``.
    @usableFromInline
    func _runReportingErrors(_ event: Event) {
        guard case .failure(let error) = _runLater(event) else { return }
        _reportDropped(error, subscriber: name, event: Event.self)
    }
}

func _reportDropped(_ error: any Error, subscriber: String, event: Any.Type) {
    Diagnostics.report(
        Diagnostic(
            .handlerErrorDropped,
            "subscriber '\(subscriber)' of \(event), run on an executor, threw \(error); "
                + "nobody receives it (publish(_:feedback:) hands subscribers' errors to its "
                + "closure).",
            error: error))
}
