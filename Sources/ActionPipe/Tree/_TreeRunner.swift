import ActionPipeKernel

/// One run of an operation tree.
///
/// Worker tasks (children of the calling task, in one task group) pull ready items from one
/// queue. Workers are started on demand, never more than `concurrencyLimit` and never more
/// than the items ready to run: a run starts one, and a completion that leaves ready items
/// no worker will take asks the group's owner for more. A worker runs an item's work, maps its output
/// to the children's items, then, in one lock round-trip, pushes those items, counts the
/// item done (finishing it and its ancestors whose subtrees are now complete, post-order)
/// and pops its next item. Workers with nothing to do park on a continuation; pushing work
/// hands items straight to parked workers. No provider code runs with the lock held.
final class _TreeRunner: Sendable {
    let plan: _TreePlanNode
    let options: OperationTreeOptions
    let events: _TreeEventSink?
    /// Requests to the task group's owner: start a worker, or cancel every call (fail
    /// fast). Finished when the run is over.
    let demand: AsyncStream<_TreeDemand>.Continuation
    let demandRequests: AsyncStream<_TreeDemand>
    // Workers take it once per item, for a few loads and stores.
    let state: LockedValue<_TreeRunState>

    init(
        root: any _TreeNodeErased, options: OperationTreeOptions,
        events: AsyncStream<OperationTreeEvent>.Continuation?
    ) {
        let (plan, limits) = _TreePlanNode.make(root, defaultRetry: options.retry)
        self.plan = plan
        self.options = options
        self.events = events.map(_TreeEventSink.init)
        state = LockedValue(_TreeRunState(limits: limits))
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
                // The run is over; the group waits for the workers to see it and return.
            }
        } onCancel: {
            stop(.cancelled)
        }
        let report = state.withLock { $0.report() }
        events?.finish()
        return report
    }

    // MARK: - Workers

    /// Runs items until the tree is done or the run stops.
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
        let idle = state.withLock { state -> [UnsafeContinuation<_TreeWorkItem?, Never>] in
            if state.stop == nil && !state.done { state.stop = outcome }
            defer { state.idle = [] }
            return state.idle
        }
        for continuation in idle { continuation.resume(returning: nil) }
        demand.finish()
    }

    /// Runs one item (its work, then its children's `objects`) and completes it; returns the
    /// worker's next item, if one is ready.
    ///
    /// The common case (no events, no timeout, no error) calls the provider directly; all
    /// else is in `slowCall`, so this async function's frame stays small: every item pays
    /// for its frame in the task allocator.
    @inline(__always)
    nonisolated(nonsending) private func process(_ item: _TreeWorkItem) async -> _TreeWorkItem? {
        var outcome = _TreeItemOutcome()
        var output: (any Sendable)?
        let direct = events == nil && options.itemTimeout == nil
        let hasChildren: Bool
        if let node = item.plan {
            hasChildren = !node.children.isEmpty
            let jobs = node.jobs
            if direct {
                do {
                    // Only children read the output (a listener needs the slow path).
                    output = try await jobs.workOnItem(item.batch, item.index, hasChildren)
                    outcome.succeeded = true
                } catch {
                    output = await slowCall(
                        node, .work, item: item, object: item.object, error, &outcome, jobs.work)
                    outcome.succeeded = output != nil
                }
            } else {
                output = await slowCall(
                    node, .work, item: item, object: item.object, nil, &outcome, jobs.work)
                outcome.succeeded = output != nil
                // Only `finished` events read it back; without a listener, skip the copy.
                if events != nil { outcome.output = output }
            }
        } else {
            hasChildren = true
            output = item.object  // the run's root item passes the input on to the root node
        }
        // `hasChildren` first: a leaf item (most items) then never copies its empty output
        // (an optional existential, copied through its value witnesses).
        if hasChildren, let output {
            for child in item.plan?.children ?? [plan] where !outcome.cancelled {
                var batch: _TreeBatch?
                let jobs = child.jobs
                if direct {
                    do {
                        batch = try await jobs.objects(output)
                    } catch {
                        batch =
                            await slowCall(
                                child, .objects, item: nil, object: output, error, &outcome,
                                jobs.objects) ?? nil
                    }
                } else {
                    batch =
                        await slowCall(
                            child, .objects, item: nil, object: output, nil, &outcome,
                            jobs.objects) ?? nil
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
        let completion = state.withLock {
            $0.complete(
                item, outcome, failFast: options.failFast,
                depthFirst: options.order == .depthFirst, limit: options.concurrencyLimit,
                events: events, dropped: &dropped)
        }
        // Events the stream dropped (a bounded buffer) are released here, unlocked: their
        // outputs are the user's values.
        dropped = []
        if let wake = completion.wake {
            for (continuation, item) in wake { continuation.resume(returning: item) }
        }
        if completion.startWorkers > 0 {
            for _ in 0..<completion.startWorkers { demand.yield(.worker) }
        }
        if completion.isOver {
            if completion.cancelAll { demand.yield(.cancelAll) }
            demand.finish()
        }
        return completion.next
    }

    /// Calls a provider job with events, the run's timeout and the node's retry policy;
    /// `firstError` is the error of a first attempt already made. Returns the value, or `nil`
    /// after recording a failure or a cancellation in `outcome`.
    @inline(never)
    private func slowCall<Value: Sendable>(
        _ node: _TreePlanNode, _ stage: OperationTreeFailure.Stage, item: _TreeWorkItem?,
        object: any Sendable, _ firstError: (any Error)?, _ outcome: inout _TreeItemOutcome,
        _ job: @escaping @Sendable (any Sendable) async throws -> Value
    ) async -> Value? {
        var attempt = 1
        var lastError = firstError
        while true {
            if lastError == nil {
                if let events, let item { events.yield(.started(item.info, attempt: attempt)) }
                do {
                    let value: Value
                    if let limit = options.itemTimeout, limit < _treeLongestWait {
                        value = try await _treeWithTimeout(limit, node: node.name) {
                            try await job(object)
                        }
                    } else {
                        value = try await job(object)
                    }
                    if let events, let item { events.yield(.produced(item.info, output: value)) }
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
                node: node.name, stage: stage, item: item?.info, object: object, error: error,
                attempts: attempt)
            let policy = node.retry
            guard attempt < policy.maxAttempts, policy.shouldRetry(error) else {
                outcome.failures.append(failure)
                events?.yield(.failed(failure))
                return nil
            }
            attempt += 1
            outcome.retries += 1
            let delay = policy.backoff.delay(beforeAttempt: attempt)
            events?.yield(.retrying(failure, delay: delay))
            if delay > .zero {
                do {
                    try await Task.sleep(for: Swift.min(delay, _treeLongestWait))
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
}

/// Where a run's events go; a class so that "no listener" is a cheap `nil` check.
final class _TreeEventSink: Sendable {
    let continuation: AsyncStream<OperationTreeEvent>.Continuation

    init(_ continuation: AsyncStream<OperationTreeEvent>.Continuation) {
        self.continuation = continuation
    }

    func yield(_ event: OperationTreeEvent) { continuation.yield(event) }

    /// Yields `event`; an event the bounded buffer drops to make room goes to `dropped`, for
    /// the caller to release after unlocking.
    func yield(_ event: OperationTreeEvent, dropped: inout [OperationTreeEvent]) {
        if case .dropped(let old) = continuation.yield(event) { dropped.append(old) }
    }

    func finish() { continuation.finish() }
}

/// What running one item gave, handed to `_TreeRunState.complete` in one piece.
/// What the task group's owner is asked to do.
enum _TreeDemand: Sendable {
    /// Start one more worker.
    case worker
    /// Cancel the calls running (fail fast).
    case cancelAll
}

/// What a completion hands back to its worker: its next item, the parked workers to wake,
/// how many workers to start, and whether the run is over.
struct _TreeCompletion {
    var next: _TreeWorkItem?
    var wake: _TreeWakeList?
    var startWorkers = 0
    var isOver = false
    var cancelAll = false
}

struct _TreeItemOutcome {
    /// The batches of the item's children, in order, linked through `_TreeBatch.next`.
    var firstBatch: _TreeBatch?
    var lastBatch: _TreeBatch?
    var childCount = 0
    var failures: [OperationTreeFailure] = []
    var succeeded = false
    var cancelled = false
    var retries = 0
    /// The item's output, kept only when someone listens (for its `finished` event).
    var output: (any Sendable)?

    mutating func append(_ batch: _TreeBatch) {
        if let lastBatch { lastBatch.next = batch } else { firstBatch = batch }
        lastBatch = batch
        childCount += batch.count
    }
}

/// Parked workers to resume, each with its next item (`nil`: the run is over).
typealias _TreeWakeList = [(UnsafeContinuation<_TreeWorkItem?, Never>, _TreeWorkItem?)]

/// The mutable state of a run; only touched with the run's lock held.
struct _TreeRunState {
    var ready = _TreeDeque<_TreeReadyRange>()
    /// Items in `ready`, to know how many more workers could start.
    var readyItems = 0
    /// Workers started so far (never more than the run's concurrency limit), and those of
    /// them that have not yet taken their first item (each will take one ready item).
    var workers = 0
    var starting = 0
    var idle: [UnsafeContinuation<_TreeWorkItem?, Never>] = []
    var stop: OperationTreeReport.Outcome?
    var done = false
    var running = 0
    var peak = 0
    var nextID = 1
    var succeeded = 0
    var retries = 0
    var failures: [OperationTreeFailure] = []
    /// Per-node limits (see `_TreePlanNode.limitSlot`), the calls running in each slot, and
    /// the items that were ready while their slot was full.
    let limits: [Int]
    var slotRunning: [Int]
    var slotWaiting: [_TreeDeque<_TreeWorkItem>]

    init(limits: [Int]) {
        self.limits = limits
        slotRunning = Array(repeating: 0, count: limits.count)
        slotWaiting = Array(repeating: _TreeDeque(), count: limits.count)
    }

    var isOver: Bool { done || stop != nil }

    /// Queues `range` at the front (depth first, or an item whose slot freed) or the back.
    mutating func pushReady(_ range: _TreeReadyRange, front: Bool) {
        readyItems += range.end - range.start
        if front { ready.pushFront(range) } else { ready.pushBack(range) }
    }

    /// The next item to start, counted as running; `nil` when none is ready or the run is over.
    mutating func pop() -> _TreeWorkItem? {
        guard stop == nil else { return nil }
        while let item = ready.popFirstItem() {
            readyItems -= 1
            let slot = item.batch.limitSlot
            if slot >= 0 {
                guard slotRunning[slot] < limits[slot] else {
                    slotWaiting[slot].pushBack(item)
                    continue
                }
                slotRunning[slot] += 1
            }
            running += 1
            if running > peak { peak = running }
            return item
        }
        return nil
    }

    /// Counts `item` done, queues its children, finishes every item whose subtree is now
    /// complete (emitting `finished` in post-order; the lock makes that order global), and
    /// pops the caller's next item and items for parked workers.
    mutating func complete(
        _ item: _TreeWorkItem, _ outcome: _TreeItemOutcome, failFast: Bool, depthFirst: Bool,
        limit: Int, events: _TreeEventSink?, dropped: inout [OperationTreeEvent]
    ) -> _TreeCompletion {
        running -= 1
        let slot = item.batch.limitSlot
        if slot >= 0 {
            slotRunning[slot] -= 1
            if let waiting = slotWaiting[slot].popFront() {
                pushReady(
                    _TreeReadyRange(
                        batch: waiting.batch, start: waiting.index, end: waiting.index + 1),
                    front: true)
            }
        }
        if outcome.succeeded { succeeded += 1 }
        retries += outcome.retries
        if !outcome.failures.isEmpty {
            failures.append(contentsOf: outcome.failures)
            if failFast && stop == nil && !done { stop = .stoppedByFailure }
        }
        if outcome.cancelled && stop == nil && !done { stop = .cancelled }
        if stop != nil {
            defer { idle = [] }
            return _TreeCompletion(
                next: nil, wake: idle.map { ($0, nil) }, isOver: true,
                cancelAll: stop == .stoppedByFailure)
        }
        if events != nil, let output = outcome.output { item.batch.setOutput(item.index, output) }
        if outcome.childCount > 0 {
            item.batch.addPending(item.index, outcome.childCount)
            // Numbered in order (sibling nodes in the order added, objects in order), then
            // queued: depth first puts them, still in that order, before everything else,
            // so it pushes the batches to the front last to first.
            var batch = outcome.firstBatch
            var reversed: _TreeBatch?
            while let current = batch {
                batch = current.next
                current.firstID = nextID
                nextID += current.count
                if depthFirst {
                    current.next = reversed
                    reversed = current
                } else {
                    current.next = nil
                    pushReady(
                        _TreeReadyRange(batch: current, start: 0, end: current.count), front: false)
                }
            }
            while let current = reversed {
                reversed = current.next
                current.next = nil
                pushReady(
                    _TreeReadyRange(batch: current, start: 0, end: current.count), front: true)
            }
        }
        // Borrowed, not retained (two atomic operations per step, on objects the other
        // workers touch too): `item` holds its batch, and every batch holds its parent.
        unowned(unsafe) var batch = item.batch
        var index = item.index
        while batch.finishOne(index) {
            guard let parent = batch.parent else {
                done = true  // the run's root item: the whole tree is done
                break
            }
            events?.yield(
                .finished(
                    _TreeWorkItem(batch: batch, index: index).info, output: batch.output(index)),
                dropped: &dropped)
            index = batch.parentIndex
            batch = parent
        }
        let next = pop()
        // `nil`, not an empty array, when no worker is parked (the common case): the caller
        // then has no array to release.
        var wake: _TreeWakeList?
        if !idle.isEmpty {
            var list: _TreeWakeList = []
            while !idle.isEmpty, let item = pop() {
                list.append((idle.removeLast(), item))
            }
            if done {
                list.append(contentsOf: idle.map { ($0, nil) })
                idle = []
            }
            wake = list
        }
        // Ready items no worker will take: start more workers, up to the limit.
        var start = 0
        if !done, readyItems > starting, workers < limit {
            start = Swift.min(readyItems - starting, limit - workers)
            workers += start
            starting += start
        }
        return _TreeCompletion(next: next, wake: wake, startWorkers: start, isOver: done)
    }

    func report() -> OperationTreeReport {
        var notStarted = slotWaiting.reduce(0) { $0 + $1.count }
        var queue = ready
        while let range = queue.popFront() {
            if range.batch.plan != nil { notStarted += range.end - range.start }
        }
        return OperationTreeReport(
            outcome: done ? .completed : (stop ?? .completed), failures: failures,
            succeeded: succeeded, retries: retries, notStarted: notStarted,
            peakConcurrency: peak, workersStarted: workers)
    }
}
