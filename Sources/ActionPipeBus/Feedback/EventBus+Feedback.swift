import ActionPipeConcurrency

extension EventBus {
    /// Delivers `event` like ``publish(_:)``, and reports each subscriber's answer or error
    /// to `feedback`, in order (an executor's when it has run).
    ///
    /// - Complexity: O(k) for k matching subscriptions, as ``publish(_:)``.
    @discardableResult
    public func publish<Event: BusEvent>(
        _ event: Event,
        feedback: @escaping @Sendable (BusFeedback<Event.Feedback>) -> Void
    ) -> BusPublishResult {
        guard let depth = _enterCall(_depthKey) else { return _refuse(Event.self) }
        defer { depth.pointee &-= 1 }
        guard let routes = _routes(Event.self) else { return BusPublishResult() }
        var result = BusPublishResult()
        var sawGone = false
        for entry in routes.entries(for: event.subtype) {
            if entry.isCancelled.load(ordering: .acquiring) { continue }
            if entry.ownerIsGone {
                sawGone = true
                continue
            }
            if let executor = entry.executor {
                let ran = executor.enqueue { [self] in
                    if let report = _timed(entry, event) { feedback(report) }
                }
                if ran { result.handledCount += 1 } else { result.scheduledCount += 1 }
                continue
            }
            guard let report = _timed(entry, event) else {
                sawGone = true
                continue
            }
            if report.isSuccess { result.handledCount += 1 } else { result.failedCount += 1 }
            feedback(report)
        }
        if sawGone { _pruneGone() }
        return result
    }

    /// Delivers `event` and waits until every subscriber, executors included, has finished.
    ///
    /// - Complexity: O(k) for k matching subscriptions, as ``publish(_:)``.
    public nonisolated(nonsending) func publishAndWait<Event: BusEvent>(
        _ event: Event
    ) async -> BusSummary<Event.Feedback> {
        let clock = ContinuousClock()
        let start = clock.now
        guard let routes = _routes(Event.self) else {
            return BusSummary(reports: [], skippedCount: 0, duration: clock.now - start)
        }
        var reports: [(UInt64, BusFeedback<Event.Feedback>)] = []
        var skipped = 0
        var later: [(_BusEntry<Event>, BusExecutor)] = []
        for entry in routes.entries(for: event.subtype) {
            if entry.isCancelled.load(ordering: .acquiring) || entry.ownerIsGone { continue }
            if let executor = entry.executor {
                later.append((entry, executor))
            } else if let report = _timed(entry, event) {
                reports.append((entry.id, report))
            } else {
                skipped += 1
            }
        }
        if !later.isEmpty {
            await withTaskGroup(of: (UInt64, BusFeedback<Event.Feedback>?).self) { group in
                for (entry, executor) in later {
                    group.addTask { [self] in
                        (entry.id, await executor.run { self._timed(entry, event) })
                    }
                }
                for await (id, report) in group {
                    if let report { reports.append((id, report)) } else { skipped += 1 }
                }
            }
        }
        _pruneGone()
        reports.sort { $0.0 < $1.0 }
        return BusSummary(
            reports: reports.map(\.1), skippedCount: skipped, duration: clock.now - start)
    }

    /// `nil` when skipped (cancelled, or its subscriber gone).
    func _timed<Event: BusEvent>(_ entry: _BusEntry<Event>, _ event: Event)
        -> BusFeedback<Event.Feedback>?
    {
        let clock = ContinuousClock()
        let start = clock.now
        guard let result = entry._runLater(event) else { return nil }
        let duration = clock.now - start
        let outcome: BusFeedback<Event.Feedback>.Outcome
        switch result {
        case .success(let value): outcome = .handled(value)
        case .failure(let error): outcome = .failed(error)
        }
        return BusFeedback(
            subscription: _token(entry.id, entry.name), subscriber: entry.name, outcome: outcome,
            duration: duration)
    }
}
