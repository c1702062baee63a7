import ActionPipeConcurrency

/// The mutable state of a run; only touched with the run's lock held.
struct _TreeRunState {
    var ready = _TreeDeque<_TreeReadyRange>()
    /// Items in `ready` (ranges hold several).
    var readyItems = 0
    /// Workers started (never above the run's limit), and those not yet at their first item.
    var workers = 0
    var starting = 0
    var idle: [UnsafeContinuation<_TreeWorkItem?, Never>] = []
    var stop: OperationTreeReport.Outcome?
    var done = false
    var running = 0
    var peak = 0
    /// Items handed to a worker that found the run stopped before starting them.
    var notStartedHandedOut = 0
    var nextID = 1
    var succeeded = 0
    var retries = 0
    var failures: [OperationTreeFailure] = []
    /// Per count slot: the node's identity and its counts.
    let nodeIDs: [ObjectIdentifier]
    var nodeCounts: [OperationTreeReport.NodeCounts]
    /// The next ticket of the progress callback's order.
    var nextTicket: UInt64 = 0
    /// Per limit slot: the limit, the calls running, and the items waiting for a place.
    let limits: [Int]
    var slotRunning: [Int]
    var slotWaiting: [_TreeDeque<_TreeWorkItem>]

    init(limits: [Int], nodeIDs: [ObjectIdentifier]) {
        self.limits = limits
        self.nodeIDs = nodeIDs
        nodeCounts = Array(repeating: .init(), count: nodeIDs.count)
        slotRunning = Array(repeating: 0, count: limits.count)
        slotWaiting = Array(repeating: _TreeDeque(), count: limits.count)
    }

    var isOver: Bool { done || stop != nil }

    mutating func takeTicket() -> UInt64 {
        defer { nextTicket += 1 }
        return nextTicket
    }

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
        limit: Int, events: _TreeEventSink?, dropped: inout [OperationTreeEvent],
        finished: inout [OperationTreeEvent]?
    ) -> _TreeCompletion {
        release(item)
        if outcome.notStarted {
            notStartedHandedOut += 1
            if let plan = item.batch.plan { nodeCounts[plan.countSlot].notStarted += 1 }
        }
        if outcome.succeeded {
            succeeded += 1
            if let plan = item.batch.plan { nodeCounts[plan.countSlot].succeeded += 1 }
        }
        retries += outcome.retries
        for slot in outcome.retrySlots { nodeCounts[slot].retries += 1 }
        if !outcome.failures.isEmpty {
            failures.append(contentsOf: outcome.failures)
            for slot in outcome.failureSlots { nodeCounts[slot].failed += 1 }
            if failFast && stop == nil && !done { stop = .stoppedByFailure }
        }
        if outcome.cancelled && stop == nil && !done { stop = .cancelled }
        if stop != nil {
            defer { idle = [] }
            return _TreeCompletion(
                next: nil, wake: idle.map { ($0, nil) }, isOver: true,
                cancelAll: stop == .stoppedByFailure)
        }
        if let output = outcome.output { item.batch.setOutput(item.index, output) }
        if outcome.childCount > 0 {
            item.batch.addPending(item.index, outcome.childCount)
            // Numbered in order; depth first pushes the batches to the front last to first,
            // so they keep that order ahead of everything else.
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
        var completion = handOut(limit: limit)
        completion.next = next
        completion.isOver = done
        return completion
    }

    /// Counts `item`'s call over: frees its place in the limits (the run's and its node's),
    /// queuing first an item that waited for the node's slot.
    private mutating func release(_ item: _TreeWorkItem) {
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
        if !done, readyItems > starting, workers < limit {
            start = Swift.min(readyItems - starting, limit - workers)
            workers += start
            starting += start
        }
        return _TreeCompletion(wake: wake, startWorkers: start)
    }

    func report() -> OperationTreeReport {
        var counts = nodeCounts
        var notStarted = notStartedHandedOut
        for var waiting in slotWaiting {
            while let item = waiting.popFront() {
                notStarted += 1
                if let plan = item.batch.plan { counts[plan.countSlot].notStarted += 1 }
            }
        }
        var queue = ready
        while let range = queue.popFront() {
            if let plan = range.batch.plan {
                notStarted += range.end - range.start
                counts[plan.countSlot].notStarted += range.end - range.start
            }
        }
        var byNode: [ObjectIdentifier: OperationTreeReport.NodeCounts] = [:]
        for (slot, id) in nodeIDs.enumerated() { byNode[id] = counts[slot] }
        return OperationTreeReport(
            outcome: done ? .completed : (stop ?? .completed), failures: failures,
            succeededCount: succeeded, retryCount: retries, notStartedCount: notStarted,
            peakConcurrency: peak, workersStarted: workers, nodeCounts: byNode)
    }
}
