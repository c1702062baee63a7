import ActionPipeConcurrency

/// Joins ports to one ordered list of stages and one sink.
///
/// Packets from the plumber's ports (or sent to it directly) go through the stages in the
/// order they were added; a stage passes a packet (possibly changed) or stops it with a
/// reason; a packet every stage passes reaches the sink. ``send(_:from:)`` and
/// ``process(_:from:)`` return a ``PlumbingOutcome``; ``onStop(_:)`` observes every stop.
/// Stages, the sink and the stop observer return a `RegistrationToken` that removes them.
///
/// ```swift
/// struct PlumbShare: Sendable { var userId: Int; var link: String? }
/// let port = PlumbingPort<PlumbShare>(100)
/// let plumber = try PipelinePlumber<PlumbShare>(name: "share").addPort(port)
/// plumber.addStage("check-login") { packet in packet.userId != 0 ? .pass : .stop("not logged in") }
/// plumber.addStage("request-link") { packet in
///     packet.link = "www.link.com"
///     return .pass
/// }
/// plumber.sink { packet in print(packet.port, packet.link ?? "") }
/// let outcome = await port.process(PlumbShare(userId: 22222))
/// #expect(outcome.delivered?.link == "www.link.com")
/// ```
///
/// Configuration may change at any time, from any thread, even inside a stage; a packet runs
/// against the configuration it started with. No user code runs under the plumber's lock.
public final class PipelinePlumber<Payload: Sendable>: Sendable {
    /// The plumber's name, shown in stops.
    public let name: String

    /// Pinned by a packet in its thread's hazard slot (no lock, no reference counting); a
    /// replaced snapshot is released once no packet runs on it.
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
    ///
    /// Every stage must be synchronous: a packet reaching an async stage stops with
    /// ``PlumbingStopReason/stageIsAsync`` (use ``process(_:from:)``). Calls from several
    /// threads run concurrently; a call from inside a stage runs at once, nested.
    ///
    /// - Complexity: O(stages); no lock.
    @inlinable
    @discardableResult
    public func send(_ payload: Payload, from port: Int) -> PlumbingOutcome<Payload> {
        _withSnapshot { $0.runSync(PlumbingPacket(payload, port: port)) }
    }

    /// Sends a packet through the stages, awaiting async ones, in the caller's task, and
    /// returns what became of it.
    ///
    /// Cancelling the task stops the packet before the next stage (or the sink) with
    /// ``PlumbingStopReason/cancelled``; an awaiting stage sees the cancellation itself.
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
