import ActionPipeConcurrency
import Synchronization

/// One run of an operation tree.
///
/// Worker tasks (one task group, children of the calling task) pull ready items from one
/// queue; a completion that leaves items no worker will take asks the group's owner for more
/// workers, up to the limit. A worker runs an item's work and its children's `objects`, then,
/// in one lock round-trip, queues the children, finishes what is complete and pops its next
/// item. Idle workers park on a continuation. No user code runs under the lock.
final class _TreeRunner: Sendable {
    let plan: _TreePlanNode
    let options: OperationTreeOptions
    let events: _TreeEventSink?
    let progress: _TreeProgress?
    /// Requests to the task group's owner; finished when the run is over.
    let demand: AsyncStream<_TreeDemand>.Continuation
    let demandRequests: AsyncStream<_TreeDemand>
    let state: LockedValue<_TreeRunState>
    /// Set when the run stops (cancelled, or failed fast), before `cancel()` returns: a
    /// worker reads it before each call it starts, so nothing starts after that.
    let halted = Atomic<Bool>(false)

    init(
        root: any _TreeNodeErased, options: OperationTreeOptions,
        events: _TreeEventSink?, progress: _TreeProgress? = nil
    ) {
        let (plan, limits, nodeIDs) = _TreePlanNode.make(root, defaultRetry: options.retry)
        self.plan = plan
        self.options = options
        self.events = events
        self.progress = progress
        state = LockedValue(_TreeRunState(limits: limits, nodeIDs: nodeIDs))
        (demandRequests, demand) = AsyncStream.makeStream(of: _TreeDemand.self)
    }

    nonisolated(nonsending) func run(_ input: any Sendable) async -> OperationTreeReport {
        let root = _TreeTypedBatch<any Sendable>([input])
        state.withLock { state in
            state.pushReady(_TreeReadyRange(batch: root, start: 0, end: 1), front: false)
            state.workers = 1
            state.starting = 1
        }
        await withTaskCancellationHandler {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.workLoop() }
                for await request in demandRequests {
                    switch request {
                    case .worker: group.addTask { await self.workLoop() }
                    case .cancelAll: group.cancelAll()  // fail fast: cancel the calls running
                    }
                }
            }
        } onCancel: {
            stop(.cancelled)
        }
        let report = state.withLock { $0.report() }
        events?.finish()
        return report
    }

    // MARK: - Workers

    nonisolated(nonsending) private func workLoop() async {
        var next = state.withLock { state in
            state.starting -= 1
            return state.pop()
        }
        while true {
            if next == nil { next = await park() }
            guard let item = next else { break }
            next = await process(item)
        }
    }

    nonisolated(nonsending) private func park() async -> _TreeWorkItem? {
        await withUnsafeContinuation { continuation in
            let (item, parked) = state.withLock { state -> (_TreeWorkItem?, Bool) in
                if let item = state.pop() { return (item, false) }
                if state.isOver { return (nil, false) }
                state.idle.append(continuation)
                return (nil, true)
            }
            if !parked { continuation.resume(returning: item) }
        }
    }

    private func stop(_ outcome: OperationTreeReport.Outcome) {
        halted.store(true, ordering: .releasing)
        let idle = state.withLock { state -> [UnsafeContinuation<_TreeWorkItem?, Never>] in
            if state.stop == nil && !state.done { state.stop = outcome }
            defer { state.idle = [] }
            return state.idle
        }
        for continuation in idle { continuation.resume(returning: nil) }
        demand.finish()
    }

    /// Runs one item (its work, then its children's `objects`) and completes it; returns the
    /// worker's next item. The common case calls the provider directly; all else is in
    /// `slowCall`, which keeps this frame, allocated per item, small.
    @inline(__always)
    nonisolated(nonsending) private func process(_ item: _TreeWorkItem) async -> _TreeWorkItem? {
        var outcome = _TreeItemOutcome()
        var output: (any Sendable)?
        let listening = events != nil || progress != nil
        let direct = !listening && options.itemTimeout == nil && !Instrumentation.isOn
        let hasChildren: Bool
        if let node = item.plan {
            hasChildren = !node.children.isEmpty
            let jobs = node.jobs
            if isHalted {
                // Handed out before the run stopped, not begun: it never starts.
                outcome.cancelled = true
                outcome.notStarted = true
            } else if direct {
                do {
                    output = try await jobs.workOnItem(
                        item.batch, item.index, hasChildren,
                        OperationTreeWorkContext(attempt: 1, maxAttempts: node.retry.maxAttempts))
                    outcome.succeeded = true
                } catch {
                    output = await slowCall(
                        node, .work, item: item, object: item.object, error, &outcome,
                        jobs.work)
                    outcome.succeeded = output != nil
                }
            } else {
                let span =
                    Instrumentation.isOn
                    ? Instrumentation.begin(.treeItem, name: node.name, detail: "\(item.info)")
                    : nil
                output = await slowCall(
                    node, .work, item: item, object: item.object, nil, &outcome, jobs.work)
                outcome.succeeded = output != nil
                if let span { span.end(Self.instrumentedOutcome(outcome)) }
                if listening { outcome.output = output }
            }
        } else {
            hasChildren = true
            output = item.object  // the run's root item passes the input on to the root node
        }
        // `hasChildren` first: a leaf item then never copies its output.
        if hasChildren, let output {
            for child in item.plan?.children ?? [plan] where !outcome.cancelled {
                if isHalted {
                    outcome.cancelled = true  // the children's items are dropped, as on stop
                    break
                }
                var batch: _TreeBatch?
                let jobs = child.jobs
                if direct {
                    do {
                        batch = try await jobs.objects(output)
                    } catch {
                        batch =
                            await slowCall(
                                child, .objects, item: nil, object: output, error, &outcome,
                                { object, _ in try await jobs.objects(object) }) ?? nil
                    }
                } else {
                    batch =
                        await slowCall(
                            child, .objects, item: nil, object: output, nil, &outcome,
                            { object, _ in try await jobs.objects(object) }) ?? nil
                }
                if let batch {
                    batch.plan = child
                    batch.limitSlot = child.limitSlot
                    batch.parent = item.batch
                    batch.parentIndex = item.index
                    outcome.append(batch)
                }
            }
        }
        var dropped: [OperationTreeEvent] = []
        // `finished` events for the progress callback: ticketed under the lock, delivered
        // after unlocking.
        var finished: [OperationTreeEvent]? = progress == nil ? nil : []
        var ticket: UInt64 = 0
        let completion = state.withLock { state in
            let completion = state.complete(
                item, outcome, failFast: options.failFast,
                depthFirst: options.order == .depthFirst, limit: options.concurrencyLimit,
                events: events, dropped: &dropped, finished: &finished)
            if finished?.isEmpty == false { ticket = state.takeTicket() }
            return completion
        }
        // Dropped events hold the user's outputs: released here, unlocked.
        dropped = []
        apply(completion)
        if let progress, let finished, !finished.isEmpty {
            await progress.deliver(finished, ticket: ticket)
        }
        return completion.next
    }

    /// Carries out a completion, after unlocking.
    private func apply(_ completion: _TreeCompletion) {
        if let wake = completion.wake {
            for (continuation, item) in wake { continuation.resume(returning: item) }
        }
        if completion.startWorkers > 0 {
            for _ in 0..<completion.startWorkers { demand.yield(.worker) }
        }
        if completion.isOver {
            if completion.cancelAll {
                halted.store(true, ordering: .releasing)
                demand.yield(.cancelAll)
            }
            demand.finish()
        }
    }

    private static func instrumentedOutcome(_ outcome: _TreeItemOutcome) -> InstrumentedOutcome {
        if outcome.succeeded { return .succeeded }
        if let failure = outcome.failures.last { return .failed(failure.error) }
        return .stopped(outcome.cancelled ? "cancelled" : "not produced")
    }

    /// Calls a job with events, the timeout and the retry policy; `firstError` is that of a
    /// first attempt already made. Returns `nil` after recording a failure or a cancellation.
    @inline(never)
    private func slowCall<Value: Sendable>(
        _ node: _TreePlanNode, _ stage: OperationTreeFailure.Stage, item: _TreeWorkItem?,
        object: any Sendable, _ firstError: (any Error)?, _ outcome: inout _TreeItemOutcome,
        _ job: @escaping @Sendable (any Sendable, OperationTreeWorkContext) async throws -> Value
    ) async -> Value? {
        var attempt = 1
        var lastError = firstError
        while true {
            if lastError == nil {
                if isHalted {
                    outcome.cancelled = true
                    return nil
                }
                if let item {
                    await emit(.started(item.info, attempt: attempt))
                    // The progress callback may have outlasted a stop.
                    if isHalted {
                        outcome.cancelled = true
                        return nil
                    }
                }
                do {
                    let value: Value
                    let context = OperationTreeWorkContext(
                        attempt: attempt, maxAttempts: node.retry.maxAttempts)
                    if let limit = options.itemTimeout, limit < _treeLongestWait {
                        value = try await _treeWithTimeout(
                            limit, node: node.name, clock: options.clock
                        ) {
                            try await job(object, context)
                        }
                    } else {
                        value = try await job(object, context)
                    }
                    if let item { await emit(.produced(item.info, output: value)) }
                    return value
                } catch {
                    lastError = error
                }
            }
            guard let error = lastError else { continue }
            lastError = nil
            if Task.isCancelled || isStopped {
                outcome.cancelled = true
                return nil
            }
            let failure = OperationTreeFailure(
                node: node.name, nodeID: node.nodeID, stage: stage, item: item?.info,
                object: object, error: error, attempts: attempt)
            let policy = node.retry
            guard attempt < policy.maxAttempts, policy.shouldRetry(error) else {
                outcome.failures.append(failure)
                outcome.failureSlots.append(node.countSlot)
                await emit(.failed(failure))
                return nil
            }
            attempt += 1
            outcome.retries += 1
            outcome.retrySlots.append(node.countSlot)
            let delay = policy.backoff.delay(beforeAttempt: attempt)
            await emit(.retrying(failure, delay: delay))
            if delay > .zero {
                do {
                    try await options.clock.sleep(for: Swift.min(delay, _treeLongestWait))
                } catch {
                    outcome.cancelled = true
                    return nil
                }
            }
            if Task.isCancelled || isStopped {
                outcome.cancelled = true
                return nil
            }
        }
    }

    private var isStopped: Bool { state.withLock { $0.stop != nil } }

    /// Read before each call starts.
    private var isHalted: Bool { halted.load(ordering: .acquiring) }

    /// Returns once the progress callback has seen `event`.
    private func emit(_ event: OperationTreeEvent) async {
        events?.yield(event)
        if let progress {
            let ticket = state.withLock { $0.takeTicket() }
            await progress.deliver(event, ticket: ticket)
        }
    }
}

/// Parked workers to resume, each with its next item (`nil`: the run is over).
typealias _TreeWakeList = [(UnsafeContinuation<_TreeWorkItem?, Never>, _TreeWorkItem?)]
