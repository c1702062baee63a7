/// What a plumber's lock guards: what snapshots are built from, and the ports it owns.
struct _PlumbingConfiguration<Payload: Sendable> {
    var storage = _PlumbingStageStorage<Payload>(capacity: 4)
    /// The registration id of each stage of `storage`, in the same order.
    var stageIDs: [UInt64] = []
    var firstAsync: Int?
    var sink: (@Sendable (PlumbingPacket<Payload>) -> Void)?
    /// The registration id of `sink`; a replaced sink's id is no longer here.
    var sinkID: UInt64?
    var onStop: (@Sendable (PlumbingStop<Payload>) -> Void)?
    var onStopID: UInt64?
    /// Sinks added beside `sink` (`_addSinkTap`), in the order they were added: each
    /// receives every delivered packet after `sink`; setting the sink replaces none.
    var sinkTaps: [(id: UInt64, body: @Sendable (PlumbingPacket<Payload>) -> Void)] = []
    /// Stop observers added beside `onStop` (`_addStopTap`), told after it.
    var stopTaps: [(id: UInt64, body: @Sendable (PlumbingStop<Payload>) -> Void)] = []
    var ports: [PlumbingPort<Payload>] = []

    /// Appends a stage, moving the stages to a bigger storage when full.
    ///
    /// - Complexity: Amortised O(1).
    mutating func append(name: String, body: _PlumbingStageBody<Payload>, id: UInt64) {
        if storage.initialized == storage.capacity { storage = storage.grown() }
        if case .async = body, firstAsync == nil { firstAsync = storage.initialized }
        storage.append(name: name, body: body)
        stageIDs.append(id)
    }

    /// Removes the stage registered as `id` and returns the storage it was in, which the
    /// caller releases after unlocking; `nil` when no stage has that id.
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

    /// Removes the sink if it is the one registered as `id`, and returns it for the caller
    /// to release after unlocking; `nil` when another sink (or none) is installed.
    ///
    /// - Complexity: O(1).
    mutating func removeSink(_ id: UInt64) -> (@Sendable (PlumbingPacket<Payload>) -> Void)? {
        guard sinkID == id else { return nil }
        defer { (sink, sinkID) = (nil, nil) }
        return sink
    }

    /// Removes the stop observer if it is the one registered as `id`, and returns it for
    /// the caller to release after unlocking; `nil` when another observer (or none) is
    /// installed.
    ///
    /// - Complexity: O(1).
    mutating func removeStopObserver(_ id: UInt64) -> (@Sendable (PlumbingStop<Payload>) -> Void)? {
        guard onStopID == id else { return nil }
        defer { (onStop, onStopID) = (nil, nil) }
        return onStop
    }

    /// Removes the sink tap `id` and returns it for the caller to release after unlocking;
    /// `nil` when there is none.
    ///
    /// - Complexity: O(t) for t taps.
    mutating func removeSinkTap(_ id: UInt64) -> (@Sendable (PlumbingPacket<Payload>) -> Void)? {
        guard let index = sinkTaps.firstIndex(where: { $0.id == id }) else { return nil }
        return sinkTaps.remove(at: index).body
    }

    /// Removes the stop tap `id` and returns it for the caller to release after unlocking;
    /// `nil` when there is none.
    ///
    /// - Complexity: O(t) for t taps.
    mutating func removeStopTap(_ id: UInt64) -> (@Sendable (PlumbingStop<Payload>) -> Void)? {
        guard let index = stopTaps.firstIndex(where: { $0.id == id }) else { return nil }
        return stopTaps.remove(at: index).body
    }

    /// Whether the registration `id` of `kind` is still here.
    ///
    /// - Complexity: O(1) for the sink and the observer, O(s) for a stage, O(t) for a tap.
    func holds(_ id: UInt64, _ kind: _PlumbingRegistration) -> Bool {
        switch kind {
        case .stage: stageIDs.contains(id)
        case .sink: sinkID == id
        case .stopObserver: onStopID == id
        case .sinkTap: sinkTaps.contains { $0.id == id }
        case .stopTap: stopTaps.contains { $0.id == id }
        }
    }

    /// A snapshot of the configuration as it is now. With taps, the snapshot's sink (stop
    /// observer) is one closure that calls the sink, then each tap: a packet still makes one
    /// call, and with no tap nothing changes on the hot path.
    func snapshot(plumber: String) -> _PlumbingSnapshot<Payload> {
        _PlumbingSnapshot(
            storage: storage, count: storage.initialized, firstAsync: firstAsync,
            sink: Self.joined(sink, sinkTaps.map(\.body)),
            onStop: Self.joined(onStop, stopTaps.map(\.body)), plumber: plumber)
    }

    /// `first`, then each of `taps`, as one closure; `first` itself when there is no tap.
    private static func joined<Value>(
        _ first: (@Sendable (Value) -> Void)?, _ taps: [@Sendable (Value) -> Void]
    ) -> (@Sendable (Value) -> Void)? {
        if taps.isEmpty { return first }
        return { value in
            first?(value)
            for tap in taps { tap(value) }
        }
    }
}
