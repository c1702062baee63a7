/// What a plumber's lock guards: what snapshots are built from, and the ports it owns.
struct _PlumbingConfiguration<Payload: Sendable> {
    var storage = _PlumbingStageStorage<Payload>(capacity: 4)
    var firstAsync: Int?
    var sink: (@Sendable (PlumbingPacket<Payload>) -> Void)?
    var onStop: (@Sendable (PlumbingStop<Payload>) -> Void)?
    var ports: [PlumbingPort<Payload>] = []

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
