/// The mutable state of a run; only touched with the run's lock held.
struct _TreeRunState {
    var ready = _TreeDeque<_TreeWorkItem>()
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
    /// The next ticket of the progress callback's order.
    var nextTicket: UInt64 = 0
    /// Per count slot: the node's identity, its counts, its limit (0: none), its calls
    /// running and the items waiting for a place.
    let nodeIDs: [ObjectIdentifier]
    var nodeCounts: [OperationTreeReport.NodeCounts]
    let limits: [Int]
    var slotRunning: [Int]
    var slotWaiting: [_TreeDeque<_TreeWorkItem>]

    init(nodeIDs: [ObjectIdentifier], limits: [Int]) {
        self.nodeIDs = nodeIDs
        self.limits = limits
        nodeCounts = Array(repeating: .init(), count: nodeIDs.count)
        slotRunning = Array(repeating: 0, count: nodeIDs.count)
        slotWaiting = Array(repeating: _TreeDeque(), count: nodeIDs.count)
    }

    var isOver: Bool { done || stop != nil }

    mutating func takeTicket() -> UInt64 {
        defer { nextTicket += 1 }
        return nextTicket
    }

    /// Queues `batch`'s items, in order, at the front (depth first) or the back.
    mutating func push(_ batch: _TreeBatch, front: Bool) {
        if front {
            for index in (0..<batch.count).reversed() {
                ready.pushFront(_TreeWorkItem(batch: batch, index: index))
            }
        } else {
            for index in 0..<batch.count {
                ready.pushBack(_TreeWorkItem(batch: batch, index: index))
            }
        }
    }

    /// The next item to start, counted as running; `nil` when none is ready or the run is over.
    mutating func pop() -> _TreeWorkItem? {
        guard stop == nil else { return nil }
        while let item = ready.popFront() {
            let slot = item.plan?.limitSlot ?? -1
            if slot >= 0 {
                guard slotRunning[slot] < limits[slot] else {
                    slotWaiting[slot].pushBack(item)
                    continue
                }
                slotRunning[slot] += 1
            }
            running += 1
            peak = max(peak, running)
            return item
        }
        return nil
    }

    /// Counts `item` done, queues its children, finishes every item whose subtree is now
    /// complete (emitting `finished` in post-order; the lock makes that order global), and
    /// pops the caller's next item and items for parked workers.
    mutating func complete(
        _ item: _TreeWorkItem, _ outcome: _TreeItemOutcome, options: OperationTreeOptions,
        events: _TreeEventSink?, dropped: inout [OperationTreeEvent],
        finished: inout [OperationTreeEvent]?
    ) -> _TreeCompletion {
        release(item)
        if let slot = item.plan?.countSlot {
            if outcome.notStarted { nodeCounts[slot].notStarted += 1 }
            if outcome.succeeded { nodeCounts[slot].succeeded += 1 }
        }
        for slot in outcome.retrySlots { nodeCounts[slot].retries += 1 }
        failures += outcome.failures
        if !isOver {
            if options.failFast && !outcome.failures.isEmpty {
                stop = .stoppedByFailure
            } else if outcome.cancelled {
                stop = .cancelled
            }
        }
        if stop != nil {
            defer { idle = [] }
            return _TreeCompletion(
                next: nil, wake: idle.map { ($0, nil) }, isOver: true,
                cancelAll: stop == .stoppedByFailure)
        }
        if let output = outcome.output { item.batch.setOutput(item.index, output) }
        if !outcome.batches.isEmpty {
            item.batch.addPending(item.index, outcome.batches.reduce(0) { $0 + $1.count })
            for batch in outcome.batches {
                batch.firstID = nextID
                nextID += batch.count
            }
            // Depth first pushes to the front last to first, so the batches keep their order.
            let depthFirst = options.order == .depthFirst
            for batch in depthFirst ? outcome.batches.reversed() : outcome.batches {
                push(batch, front: depthFirst)
            }
        }
        var batch = item.batch
        var index = item.index
        while batch.finishOne(index) {
            guard let parent = batch.parent else {
                done = true  // the run's root item: the whole tree is done
                break
            }
            if events != nil || finished != nil {
                let event = OperationTreeEvent.finished(
                    _TreeWorkItem(batch: batch, index: index).info, output: batch.output(index))
                events?.yield(event, dropped: &dropped)
                finished?.append(event)
            }
            index = batch.parentIndex
            batch = parent
        }
        // The worker's own next item first, then the parked workers'.
        let next = pop()
        var completion = handOut(limit: options.concurrencyLimit)
        completion.next = next
        completion.isOver = done
        return completion
    }

    /// Counts `item`'s call over: frees its place in the limits (the run's and its node's),
    /// queuing first an item that waited for the node's slot.
    private mutating func release(_ item: _TreeWorkItem) {
        running -= 1
        let slot = item.plan?.limitSlot ?? -1
        if slot >= 0 {
            slotRunning[slot] -= 1
            if let waiting = slotWaiting[slot].popFront() { ready.pushFront(waiting) }
        }
    }

    /// Ready items for parked workers, and how many workers to start for the rest.
    private mutating func handOut(limit: Int) -> _TreeCompletion {
        // `nil` when no worker is parked: no array to release.
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
        var start = 0
        if !done, ready.count > starting, workers < limit {
            start = min(ready.count - starting, limit - workers)
            workers += start
            starting += start
        }
        return _TreeCompletion(wake: wake, startWorkers: start)
    }

    func report() -> OperationTreeReport {
        var counts = nodeCounts
        // What is still queued never started.
        var queues = slotWaiting + [ready]
        for index in queues.indices {
            while let item = queues[index].popFront() {
                if let slot = item.plan?.countSlot { counts[slot].notStarted += 1 }
            }
        }
        func total(_ count: KeyPath<OperationTreeReport.NodeCounts, Int>) -> Int {
            counts.reduce(0) { $0 + $1[keyPath: count] }
        }
        var byNode: [ObjectIdentifier: OperationTreeReport.NodeCounts] = [:]
        for (slot, id) in nodeIDs.enumerated() { byNode[id] = counts[slot] }
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
    /// The batches of the item's children, in order.
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

/// What a completion hands back to its worker.
struct _TreeCompletion {
    var next: _TreeWorkItem?
    var wake: _TreeWakeList?
    var startWorkers = 0
    var isOver = false
    var cancelAll = false
}

/// Parked workers to resume, each with its next item (`nil`: the run is over).
typealias _TreeWakeList = [(UnsafeContinuation<_TreeWorkItem?, Never>, _TreeWorkItem?)]
