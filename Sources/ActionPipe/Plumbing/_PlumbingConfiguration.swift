/// What a plumber's lock guards: what snapshots are built from, the ports it owns, and
/// every snapshot it has published.
struct _PlumbingConfiguration<Payload: Sendable> {
    var storage = _PlumbingStageStorage<Payload>(capacity: 4)
    var firstAsync: Int?
    var sink: (@Sendable (PlumbingPacket<Payload>) -> Void)?
    var onStop: (@Sendable (PlumbingStop<Payload>) -> Void)?
    var ports: [PlumbingPort<Payload>] = []
    /// Every snapshot published so far, the current one last. A packet reads the current
    /// snapshot without a lock and without retaining it, so none may be freed while the
    /// plumber lives: a packet on another thread may still be running against it. Snapshots
    /// are small (the stages live in the shared, append-only storage), one per change of
    /// the configuration; see Docs/Plumbing.md.
    var published: [_PlumbingSnapshot<Payload>] = []

    /// Appends a stage, moving the stages to a bigger storage when full.
    mutating func append(name: String, body: _PlumbingStageBody<Payload>) {
        if storage.initialized == storage.capacity { storage = storage.grown() }
        if case .async = body, firstAsync == nil { firstAsync = storage.initialized }
        storage.append(name: name, body: body)
    }

    /// A snapshot of the configuration as it is now.
    func snapshot(plumber: String) -> _PlumbingSnapshot<Payload> {
        _PlumbingSnapshot(
            storage: storage, count: storage.initialized, firstAsync: firstAsync, sink: sink,
            onStop: onStop, plumber: plumber)
    }
}
