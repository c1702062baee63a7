/// What a plumber's lock guards: what snapshots are built from, and the ports it owns.
struct _PlumbingConfiguration<Payload: Sendable> {
    var storage = _PlumbingStageStorage<Payload>(capacity: 4)
    /// The registration id of each stage of `storage`, in order.
    var stageIDs: [UInt64] = []
    var firstAsync: Int?
    var sink: (@Sendable (PlumbingPacket<Payload>) -> Void)?
    var sinkID: UInt64?
    var onStop: (@Sendable (PlumbingOutcome<Payload>) -> Void)?
    var onStopID: UInt64?
    /// Told every packet's outcome after `sink` or `onStop`, and replaced by neither.
    var taps: [(id: UInt64, body: @Sendable (PlumbingOutcome<Payload>) -> Void)] = []
    var ports: [PlumbingPort<Payload>] = []

    /// - Complexity: Amortised O(1).
    mutating func append(name: String, body: _PlumbingStageBody<Payload>, id: UInt64) {
        if storage.initialized == storage.capacity { storage = storage.grown() }
        if case .async = body, firstAsync == nil { firstAsync = storage.initialized }
        storage.append(name: name, body: body)
        stageIDs.append(id)
    }

    /// Returns the storage the stage was in, to release after unlocking; `nil` for no such id.
    ///
    /// - Complexity: O(s) for s stages.
    mutating func removeStage(_ id: UInt64) -> _PlumbingStageStorage<Payload>? {
        guard let index = stageIDs.firstIndex(of: id) else { return nil }
        let removed = storage
        stageIDs.remove(at: index)
        storage = removed.removing(at: index)
        firstAsync = storage.firstAsync()
        return removed
    }

    /// Returns the sink registered as `id`, to release after unlocking; `nil` if replaced.
    mutating func removeSink(_ id: UInt64) -> (@Sendable (PlumbingPacket<Payload>) -> Void)? {
        guard sinkID == id else { return nil }
        defer { (sink, sinkID) = (nil, nil) }
        return sink
    }

    /// Returns the observer registered as `id`, to release after unlocking; `nil` if replaced.
    mutating func removeStopObserver(_ id: UInt64)
        -> (@Sendable (PlumbingOutcome<Payload>) -> Void)?
    {
        guard onStopID == id else { return nil }
        defer { (onStop, onStopID) = (nil, nil) }
        return onStop
    }

    /// Returns the tap, to release after unlocking.
    ///
    /// - Complexity: O(t) for t taps.
    mutating func removeTap(_ id: UInt64) -> (@Sendable (PlumbingOutcome<Payload>) -> Void)? {
        guard let index = taps.firstIndex(where: { $0.id == id }) else { return nil }
        return taps.remove(at: index).body
    }

    /// - Complexity: O(1) for the sink and the observer, O(s) for a stage, O(t) for a tap.
    func holds(_ id: UInt64, _ kind: _PlumbingRegistration) -> Bool {
        switch kind {
        case .stage: stageIDs.contains(id)
        case .sink: sinkID == id
        case .stopObserver: onStopID == id
        case .tap: taps.contains { $0.id == id }
        }
    }

    /// With taps, the snapshot's sink (stop observer) is one closure calling it then each tap,
    /// so the hot path without taps is unchanged.
    func snapshot(plumber: String) -> _PlumbingSnapshot<Payload> {
        let count = storage.initialized
        var (sink, onStop) = (self.sink, self.onStop)
        if !taps.isEmpty {
            let taps = taps.map(\.body)
            sink = { [sink] packet in
                sink?(packet)
                let outcome = PlumbingOutcome(
                    packet: packet, stage: nil, stagesPassed: count, stageCount: count,
                    reason: nil, plumber: plumber)
                for tap in taps { tap(outcome) }
            }
            onStop = { [onStop] stop in
                onStop?(stop)
                for tap in taps { tap(stop) }
            }
        }
        return _PlumbingSnapshot(
            storage: storage, count: count, firstAsync: firstAsync, sink: sink, onStop: onStop,
            plumber: plumber)
    }
}
