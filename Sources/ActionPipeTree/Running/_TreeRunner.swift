import ActionPipeConcurrency
import Synchronization

/// One run of an operation tree: workers of one task group pull ready items; each runs an
/// item's work and its children's `objects`, then in one lock round-trip queues the children,
/// finishes what is complete, pops its next item and asks for more workers. Idle ones park.
final class _TreeRunner: Sendable {
    /// What the task group's owner is asked to do.
    enum Demand: Sendable {
        case startWorker
        /// Fail fast: cancel the calls running.
        case cancelAll
    }

    let plan: _TreePlanNode
    let options: OperationTreeOptions
    let events: _TreeEventSink?
    let progress: _TreeProgress?
    /// Requests to the task group's owner; finished when the run is over.
    let demand: AsyncStream<Demand>.Continuation
    let demandRequests: AsyncStream<Demand>
    let state: LockedValue<_TreeRunState>
    /// Set when the run stops (cancelled, or failed fast), before `cancel()` returns: a
    /// worker reads it before each call it starts, so nothing starts after that.
    let halted = Atomic<Bool>(false)

    init(
        root: any _TreeNodeErased, options: OperationTreeOptions,
        events: _TreeEventSink?, progress: _TreeProgress? = nil
    ) {
        let (plan, nodes) = _TreePlanNode.make(root, defaultRetry: options.retry)
        self.plan = plan
        self.options = options
        self.events = events
        self.progress = progress
        state = LockedValue(_TreeRunState(nodes: nodes))
        (demandRequests, demand) = AsyncStream.makeStream(of: Demand.self)
    }

    nonisolated(nonsending) func run(_ input: any Sendable) async -> OperationTreeReport {
        state.withLock { state in
            state.push(_TreeTypedBatch<any Sendable>([input]), front: false)
            state.workers = 1
            state.starting = 1
        }
        demand.yield(.startWorker)
        await withTaskCancellationHandler {
            await withTaskGroup(of: Void.self) { group in
                for await request in demandRequests {
                    switch request {
                    case .startWorker: group.addTask { await self.workLoop() }
                    case .cancelAll: group.cancelAll()
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
        var parked = false
        let item = await withUnsafeContinuation { continuation in
            let item: _TreeWorkItem?
            (item, parked) = state.withLock { state -> (_TreeWorkItem?, Bool) in
                if let item = state.pop() { return (item, false) }
                if state.isOver { return (nil, false) }
                state.idle.append(continuation)
                return (nil, true)
            }
            if !parked { continuation.resume(returning: item) }
        }
        // A waker that resumes before this task suspends lets it go on through an ordering
        // ThreadSanitizer cannot see (the runtime's); the lock the waker released shows it.
        if parked, item != nil { state.withLock { _ in } }
        return item
    }

    private func stop(_ outcome: OperationTreeReport.Outcome) {
        halted.store(true, ordering: .releasing)
        let idle = state.withLock { state -> [UnsafeContinuation<_TreeWorkItem?, Never>] in
            if !state.isOver { state.stop = outcome }
            defer { state.idle = [] }
            return state.idle
        }
        for continuation in idle { continuation.resume(returning: nil) }
        demand.finish()
    }

    /// Runs one item (its work, then its children's `objects`) and completes it; returns the
    /// worker's next item. Without listener, timeout or instrument a first attempt is direct.
    @inline(__always)
    nonisolated(nonsending) private func process(_ item: _TreeWorkItem) async -> _TreeWorkItem? {
        var outcome = _TreeItemOutcome()
        let listening = events != nil || progress != nil
        let direct = !listening && options.itemTimeout == nil && !Instrumentation.isOn
        let children = item.plan?.children ?? [plan]
        var output: (any Sendable)?
        if let node = item.plan {
            if isHalted {
                // Handed out before the run stopped, not begun: it never starts.
                outcome.cancelled = true
                outcome.notStarted = true
            } else if direct {
                do {
                    // A leaf's output is not kept.
                    output = try await node.work(
                        item.batch, item.index,
                        OperationTreeWorkContext(attempt: 1, maxAttempts: node.retry.maxAttempts),
                        !children.isEmpty)
                    outcome.succeeded = true
                } catch {
                    output = await slowCall(node, item: item, object: item.object, error, &outcome)
                }
            } else {
                let span =
                    Instrumentation.isOn
                    ? Instrumentation.begin(.treeItem, name: node.name, detail: "\(item.info)")
                    : nil
                output = await slowCall(node, item: item, object: item.object, nil, &outcome)
                if let span { span.end(Self.instrumentedOutcome(outcome)) }
                if listening { outcome.output = output }
            }
        } else {
            output = item.object  // the run's input, for the root node
        }
        if let output {
            for child in children where !outcome.cancelled {
                if isHalted {
                    outcome.cancelled = true  // the children's items are dropped, as on stop
                    break
                }
                var batch: _TreeBatch?
                var firstError: (any Error)?
                if direct {
                    do { batch = try await child.objects(output) } catch { firstError = error }
                }
                if !direct || firstError != nil {
                    batch =
                        await slowCall(child, item: nil, object: output, firstError, &outcome)
                        as? _TreeBatch
                }
                if let batch {
                    batch.plan = child
                    batch.parent = item.batch
                    batch.parentIndex = item.index
                    outcome.batches.append(batch)
                }
            }
        }
        let completion = state.withLock {
            $0.complete(item, outcome, options: options, events: events, progress: progress != nil)
        }
        apply(completion)
        if let progress, !completion.finished.isEmpty {
            await progress.deliver(completion.finished, ticket: completion.ticket)
        }
        return completion.next
    }

    /// Carries out a completion, after unlocking.
    private func apply(_ completion: _TreeCompletion) {
        for (continuation, item) in completion.wake { continuation.resume(returning: item) }
        for _ in 0..<completion.startWorkers { demand.yield(.startWorker) }
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

    /// Calls `node`'s work on `item`, or with no item its `objects` for `object`, with events,
    /// timeout and retries after `firstError` (of an attempt made); `nil` after a failure,
    /// a cancellation, or for no objects.
    @inline(never)
    private func slowCall(
        _ node: _TreePlanNode, item: _TreeWorkItem?, object: any Sendable,
        _ firstError: (any Error)?, _ outcome: inout _TreeItemOutcome
    ) async -> (any Sendable)? {
        @Sendable func job(_ context: OperationTreeWorkContext) async throws -> (any Sendable)? {
            guard let item else { return try await node.objects(object) }
            return try await node.work(item.batch, item.index, context, true)
        }
        let policy = node.retry
        var attempt = 1
        while true {
            let error: any Error
            if attempt == 1, let firstError {
                error = firstError
            } else {
                if isHalted { break }
                if let item {
                    await emit(.started(item.info, attempt: attempt))
                    if isHalted { break }  // the progress callback may have outlasted a stop
                }
                do {
                    let context = OperationTreeWorkContext(
                        attempt: attempt, maxAttempts: policy.maxAttempts)
                    let value =
                        if let limit = options.itemTimeout, limit < _treeLongestWait {
                            try await _treeWithTimeout(
                                limit, node: node.name, clock: options.clock
                            ) { try await job(context) }
                        } else {
                            try await job(context)
                        }
                    if let item, let value {
                        outcome.succeeded = true
                        await emit(.produced(item.info, output: value))
                    }
                    return value
                } catch let thrown {
                    error = thrown
                }
            }
            if Task.isCancelled || isStopped { break }
            let failure = OperationTreeFailure(
                node: node.name, stage: item == nil ? .objects : .work, item: item?.info,
                object: object, error: error, attempts: attempt, nodeID: node.nodeID)
            guard attempt < policy.maxAttempts, policy.shouldRetry(error) else {
                outcome.failures.append(failure)
                await emit(.failed(failure))
                return nil
            }
            attempt += 1
            outcome.retrySlots.append(node.countSlot)
            let delay = policy.backoff.delay(beforeAttempt: attempt)
            await emit(.retrying(failure, delay: delay))
            if delay > .zero {
                do {
                    try await options.clock.sleep(for: min(delay, _treeLongestWait))
                } catch {
                    break
                }
            }
            if Task.isCancelled || isStopped { break }
        }
        outcome.cancelled = true
        return nil
    }

    private var isStopped: Bool { state.withLock { $0.stop != nil } }

    private var isHalted: Bool { halted.load(ordering: .acquiring) }

    /// Returns once the progress callback has seen `event`.
    private func emit(_ event: OperationTreeEvent) async {
        var dropped: [OperationTreeEvent] = []  // released here, unlocked
        events?.yield(event, dropped: &dropped)
        if let progress {
            let ticket = state.withLock { $0.takeTicket() }
            await progress.deliver([event], ticket: ticket)
        }
    }
}
