/// What a plumber's lock guards: what snapshots are built from, and the ports it owns.
struct _PlumbingConfiguration<Payload: Sendable> {
    typealias Sink = @Sendable (PlumbingPacket<Payload>) -> Void
    typealias Observer = @Sendable (PlumbingOutcome<Payload>) -> Void

    var storage = _PlumbingStageStorage<Payload>(capacity: 4)
    /// The registration id of each stage of `storage`, in order.
    var stageIDs: [UInt64] = []
    var sink: (id: UInt64, body: Sink)?
    var onStop: (id: UInt64, body: Observer)?
    /// Told every packet's outcome after `sink` or `onStop`, and replaced by neither.
    var taps: [(id: UInt64, body: Observer)] = []
    var ports: [PlumbingPort<Payload>] = []

    /// Amortised O(1).
    mutating func append(name: String, body: _PlumbingStageBody<Payload>, id: UInt64) {
        if storage.initialized == storage.capacity { storage = storage.grown() }
        storage.append(name: name, body: body)
        stageIDs.append(id)
    }

    /// Removes registration `id`; returns what it held (a stage: its storage), to release
    /// after unlocking, or `nil` when it is no longer there. O(1) for the sink and the
    /// observer, O(s) for a stage, O(t) for a tap.
    mutating func remove(_ id: UInt64, _ kind: _PlumbingRegistration) -> Any? {
        switch kind {
        case .stage:
            guard let index = stageIDs.firstIndex(of: id) else { return nil }
            let removed = storage
            stageIDs.remove(at: index)
            storage = removed.removing(at: index)
            return removed
        case .sink:
            return sink?.id == id ? sink.take() : nil
        case .stopObserver:
            return onStop?.id == id ? onStop.take() : nil
        case .tap:
            return taps.firstIndex { $0.id == id }.map { taps.remove(at: $0) }
        }
    }

    /// O(1) for the sink and the observer, O(s) for a stage, O(t) for a tap.
    func holds(_ id: UInt64, _ kind: _PlumbingRegistration) -> Bool {
        switch kind {
        case .stage: stageIDs.contains(id)
        case .sink: sink?.id == id
        case .stopObserver: onStop?.id == id
        case .tap: taps.contains { $0.id == id }
        }
    }

    func snapshot(plumber: String) -> _PlumbingSnapshot<Payload> {
        _PlumbingSnapshot(
            storage: storage, count: storage.initialized, sink: sink?.body, onStop: onStop?.body,
            taps: taps.map(\.body), plumber: plumber)
    }
}

/// What a plumber's `RegistrationToken` names, kept in its `detail`.
enum _PlumbingRegistration: Int {
    case stage
    case sink
    case stopObserver
    /// An outcome observer beside the sink and the stop observer, replacing neither.
    case tap
}
