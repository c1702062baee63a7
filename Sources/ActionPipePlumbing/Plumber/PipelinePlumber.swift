import ActionPipeConcurrency

/// Joins ports to one ordered list of stages and one sink.
///
/// Packets from the plumber's ports (or sent directly) go through the stages in the order
/// added; each stage passes a packet (possibly changed) or stops it; a packet every stage
/// passes reaches the sink. ``send(_:from:)`` and ``process(_:from:)`` return a
/// ``PlumbingOutcome``; ``onStop(_:)`` observes every stop (the Plumbing guide).
///
/// Configuration may change at any time, even inside a stage; a packet runs against the
/// configuration it started with.
public final class PipelinePlumber<Payload: Sendable>: Sendable {
    /// The plumber's name, shown in stops.
    public let name: String

    /// Pinned by a packet in its thread's hazard slot; a replaced one is released once unused.
    @usableFromInline let _current = SnapshotCell<_PlumbingSnapshot<Payload>>()
    let _configuration: LockedValue<_PlumbingConfiguration<Payload>>

    /// A plumber with no ports, no stages and no sink.
    ///
    /// - Complexity: O(1).
    public init(name: String = "plumber") {
        self.name = name
        let configuration = _PlumbingConfiguration<Payload>()
        _ = _current.store(configuration.snapshot(plumber: name))  // replaces none
        _configuration = LockedValue(configuration)
    }

    /// The names of the stages, in order.
    public var stageNames: [String] {
        _withSnapshot { $0.names }
    }

    /// Whether every stage is synchronous, so ``send(_:from:)`` can run them all.
    public var isSynchronous: Bool {
        _withSnapshot { $0.isSync }
    }

    /// A plumber always has a snapshot (stored at `init`).
    @inlinable @inline(__always)
    func _withSnapshot<Result>(_ body: (_PlumbingSnapshot<Payload>) -> Result) -> Result {
        _current.read(body)
    }

    /// The numbers of the ports that feed the plumber, in the order they were added.
    public var portNumbers: [Int] {
        _configuration.withLock { $0.ports.map(\.number) }
    }

    /// Sends a packet through the stages on the calling thread and returns what became of it.
    /// A packet reaching an async stage stops with ``PlumbingStopReason/stageIsAsync``; a call
    /// from inside a stage runs at once, nested.
    ///
    /// - Complexity: O(stages); no lock.
    @inlinable
    @discardableResult
    public func send(_ payload: Payload, from port: Int) -> PlumbingOutcome<Payload> {
        _withSnapshot { $0.runSync(PlumbingPacket(payload, port: port)) }
    }

    /// Sends a packet through the stages, awaiting async ones, in the caller's task, and
    /// returns what became of it. Cancelling the task stops the packet before the next stage
    /// (or the sink) with ``PlumbingStopReason/cancelled``.
    ///
    /// - Complexity: O(stages), plus what the stages await.
    @inlinable
    @discardableResult
    public nonisolated(nonsending) func process(_ payload: Payload, from port: Int) async
        -> PlumbingOutcome<Payload>
    {
        let snapshot = _current.load().unsafelyUnwrapped  // retained across the awaits
        return await snapshot.runAsync(PlumbingPacket(payload, port: port)) { Task.isCancelled }
    }
}
