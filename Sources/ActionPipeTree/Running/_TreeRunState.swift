/// The mutable state of a run; only touched with the run's lock held.
struct _TreeRunState {
    /// Items ready to start, a batch's in one range: queuing a batch is O(1) under the lock,
    /// however many objects it has.
    var ready = _TreeDeque<ReadyRange>()
    /// The items in `ready`.
    var readyCount = 0
    /// Workers started (never above the run's limit), and those not yet at their first item.
    var workers = 0
    var starting = 0
    var idle: [UnsafeContinuation<_TreeWorkItem?, Never>] = []
    var stop: OperationTreeReport.Outcome?
    var done = false
    var running = 0
    var peak = 0
    var nextID = 1
    var failures: [OperationTreeFailure] = []
    var nextTicket: UInt64 = 0
    /// By the plan's `countSlot`.
    var nodes: [Node]

    /// One node of the plan, however many places it has.
    struct Node {
        let id: ObjectIdentifier
        /// The node's own limit; 0: none.
        let limit: Int
        var counts = OperationTreeReport.NodeCounts()
        var running = 0
        /// Items waiting for a place under `limit`.
        var waiting = _TreeDeque<_TreeWorkItem>()
    }

    /// Items `next ..< end` of `batch`, not yet handed out.
    struct ReadyRange {
        let batch: _TreeBatch
        var next: Int
        let end: Int
    }

    var isOver: Bool { done || stop != nil }

    mutating func takeTicket() -> UInt64 {
        defer { nextTicket += 1 }
        return nextTicket
    }

    /// Queues items `next ..< end` of `batch`, in order, at the front (depth first) or the back.
    mutating func push(_ batch: _TreeBatch, _ next: Int = 0, end: Int? = nil, front: Bool) {
        let range = ReadyRange(batch: batch, next: next, end: end ?? batch.count)
        guard range.next < range.end else { return }
        if front { ready.pushFront(range) } else { ready.pushBack(range) }
        readyCount += range.end - range.next
    }

    /// The first ready item, taken from its range.
    private mutating func popReady() -> _TreeWorkItem? {
        guard var range = ready.popFront() else { return nil }
        let item = _TreeWorkItem(batch: range.batch, index: range.next)
        range.next += 1
        if range.next < range.end { ready.pushFront(range) }
        readyCount -= 1
        return item
    }

    /// The next item to start, counted as running; `nil` when none is ready or the run is over.
    mutating func pop() -> _TreeWorkItem? {
        guard stop == nil else { return nil }
        while let item = popReady() {
            let slot = item.plan?.limitSlot ?? -1
            if slot >= 0 {
                guard nodes[slot].running < nodes[slot].limit else {
                    nodes[slot].waiting.pushBack(item)
                    continue
                }
                nodes[slot].running += 1
            }
            running += 1
            peak = max(peak, running)
            return item
        }
        return nil
    }

    /// Counts `item` done, queues its children, finishes what is now complete, and pops the
    /// caller's next item and items for parked workers.
    mutating func complete(
        _ item: _TreeWorkItem, _ outcome: _TreeItemOutcome, options: OperationTreeOptions,
        events: _TreeEventSink?, progress: Bool
    ) -> _TreeCompletion {
        var completion = _TreeCompletion()
        release(item)
        if let slot = item.plan?.countSlot {
            if outcome.notStarted { nodes[slot].counts.notStarted += 1 }
            if outcome.succeeded { nodes[slot].counts.succeeded += 1 }
        }
        for slot in outcome.retrySlots { nodes[slot].counts.retries += 1 }
        failures += outcome.failures
        if !isOver {
            if options.failFast && !outcome.failures.isEmpty {
                stop = .stoppedByFailure
            } else if outcome.cancelled {
                stop = .cancelled
            }
        }
        if stop == nil {
            queueChildren(of: item, outcome, depthFirst: options.order == .depthFirst)
            finishUp(item, events: events, progress: progress, &completion)
        }
        // The worker's own next item first, then the parked workers'; the rest wait for
        // new workers, or, once the run is over, for nothing.
        completion.next = pop()
        while !idle.isEmpty, let item = pop() { completion.wake.append((idle.removeLast(), item)) }
        if isOver {
            completion.wake += idle.map { ($0, nil) }
            idle = []
            completion.isOver = true
            completion.cancelAll = stop == .stoppedByFailure
        } else if readyCount > starting, workers < options.concurrencyLimit {
            completion.startWorkers = min(readyCount - starting, options.concurrencyLimit - workers)
            workers += completion.startWorkers
            starting += completion.startWorkers
        }
        if !completion.finished.isEmpty { completion.ticket = takeTicket() }
        return completion
    }

    private mutating func queueChildren(
        of item: _TreeWorkItem, _ outcome: _TreeItemOutcome, depthFirst: Bool
    ) {
        if let output = outcome.output { item.batch.setOutput(item.index, output) }
        guard !outcome.batches.isEmpty else { return }
        item.batch.addPending(item.index, outcome.batches.reduce(0) { $0 + $1.count })
        for batch in outcome.batches {
            batch.firstID = nextID
            nextID += batch.count
        }
        // Depth first pushes to the front last to first, so the batches keep their order.
        for batch in depthFirst ? outcome.batches.reversed() : outcome.batches {
            push(batch, front: depthFirst)
        }
    }

    /// Counts `item`'s work done, and finishes it and every ancestor whose subtree is now
    /// complete, emitting `finished` in post-order (the lock makes that order global).
    private mutating func finishUp(
        _ item: _TreeWorkItem, events: _TreeEventSink?, progress: Bool,
        _ completion: inout _TreeCompletion
    ) {
        var batch = item.batch
        var index = item.index
        while batch.finishOne(index) {
            guard let parent = batch.parent else {
                done = true  // the run's root item: the whole tree is done
                return
            }
            if events != nil || progress {
                let event = OperationTreeEvent.finished(
                    _TreeWorkItem(batch: batch, index: index).info, output: batch.output(index))
                events?.yield(event, dropped: &completion.dropped)
                if progress { completion.finished.append(event) }
            }
            index = batch.parentIndex
            batch = parent
        }
    }

    /// Counts `item`'s call over: frees its place in the limits (the run's and its node's),
    /// queuing first an item that waited for the node's slot.
    private mutating func release(_ item: _TreeWorkItem) {
        running -= 1
        let slot = item.plan?.limitSlot ?? -1
        if slot >= 0 {
            nodes[slot].running -= 1
            if let waiting = nodes[slot].waiting.popFront() {
                push(waiting.batch, waiting.index, end: waiting.index + 1, front: true)
            }
        }
    }

    func report() -> OperationTreeReport {
        var nodes = nodes
        // What is still queued never started (an item waits in its own node's slot).
        for index in nodes.indices { nodes[index].counts.notStarted += nodes[index].waiting.count }
        var ready = ready
        while let range = ready.popFront() {
            if let slot = range.batch.plan?.countSlot {
                nodes[slot].counts.notStarted += range.end - range.next
            }
        }
        func total(_ count: KeyPath<OperationTreeReport.NodeCounts, Int>) -> Int {
            nodes.reduce(0) { $0 + $1.counts[keyPath: count] }
        }
        var byNode = Dictionary(uniqueKeysWithValues: nodes.map { ($0.id, $0.counts) })
        for failure in failures { byNode[failure.nodeID]?.failed += 1 }
        return OperationTreeReport(
            outcome: done ? .completed : (stop ?? .completed), failures: failures,
            succeededCount: total(\.succeeded), retryCount: total(\.retries),
            notStartedCount: total(\.notStarted), peakConcurrency: peak, workersStarted: workers,
            nodeCounts: byNode)
    }
}

/// What running one item gave, handed to `_TreeRunState.complete` in one piece.
struct _TreeItemOutcome {
    var batches: [_TreeBatch] = []
    var failures: [OperationTreeFailure] = []
    /// The count slot of each retry's node.
    var retrySlots: [Int] = []
    var succeeded = false
    var cancelled = false
    /// The run had stopped before the item's work began: the report counts it not started.
    var notStarted = false
    /// The item's output, kept only for a listener's `finished` event.
    var output: (any Sendable)?
}

/// What a completion hands back to its worker, to carry out after unlocking: its next item,
/// parked workers to resume with theirs (`nil`: the run is over), how many workers to
/// start, the `finished` events for the progress callback and their ticket, and the events
/// a full stream dropped (they may hold the user's outputs).
struct _TreeCompletion {
    var next: _TreeWorkItem?
    var wake: [(UnsafeContinuation<_TreeWorkItem?, Never>, _TreeWorkItem?)] = []
    var startWorkers = 0
    var isOver = false
    var cancelAll = false
    var finished: [OperationTreeEvent] = []
    var ticket: UInt64 = 0
    var dropped: [OperationTreeEvent] = []
}
