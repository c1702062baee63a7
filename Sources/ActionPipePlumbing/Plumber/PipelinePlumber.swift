import ActionPipeConcurrency

/// Joins ports to one ordered list of stages and one sink: the Swift form of
/// PipelinePlumber.
///
/// Packets produced by any of the plumber's ports (or sent to it directly) go through the
/// stages in the order they were added; a stage passes a packet (possibly changed) or stops
/// it with a reason; a packet that every stage passes reaches the sink. The caller learns
/// what became of each packet: ``send(_:from:)`` and ``process(_:from:)`` return a
/// ``PlumbingOutcome``, and ``onStop(_:)`` observes every stopped packet.
///
/// Stages, the sink and the stop observer are registrations: adding one returns a
/// `RegistrationToken` that removes it (`token.cancel()`, or a `RegistrationBag`). Ports are
/// their own handles (``removePort(_:)``).
///
/// ```swift
/// struct PlumbShare: Sendable { var docId: Int; var userId: Int; var link: String? }
/// let port = PlumbingPort<PlumbShare>(100)
/// let plumber = try PipelinePlumber<PlumbShare>(name: "share").addPort(port)
/// plumber.addStage("check-login") { packet in packet.userId != 0 ? .pass : .stop("not logged in") }
/// plumber.addStage("request-link") { packet in
///     packet.link = "www.link.com"
///     return .pass
/// }
/// plumber.sink { packet in print(packet.port, packet.link ?? "") }
/// let outcome = await port.process(PlumbShare(docId: 111111, userId: 22222))
/// #expect(outcome.delivered?.link == "www.link.com")
/// #expect(plumber.stageNames == ["check-login", "request-link"])
/// ```
///
/// Configuration (ports, stages, sink) may change at any time, from any thread, even from
/// inside a stage; a packet runs against the configuration it started with. No stage, sink
/// or observer ever runs while the plumber holds a lock.
public final class PipelinePlumber<Payload: Sendable>: Sendable {
    /// The plumber's name, shown in stops.
    ///
    /// ```swift
    /// #expect(PipelinePlumber<Int>(name: "share").name == "share")
    /// ```
    public let name: String

    /// The snapshot packets read, pinned (a hazard slot of the packet's thread: no lock, no
    /// reference counting). A change publishes a new one; the replaced snapshot, with the
    /// sink and stop observer only it held, is released as soon as no packet runs on it.
    @usableFromInline let _current = SnapshotCell<_PlumbingSnapshot<Payload>>()
    let _configuration: LockedValue<_PlumbingConfiguration<Payload>>

    /// A plumber with no ports, no stages and no sink.
    ///
    /// ```swift
    /// let plumber = PipelinePlumber<Int>()
    /// #expect(plumber.name == "plumber" && plumber.stageNames.isEmpty)
    /// ```
    public init(name: String = "plumber") {
        self.name = name
        let configuration = _PlumbingConfiguration<Payload>()
        _ = _current.store(configuration.snapshot(plumber: name))  // replaces none
        _configuration = LockedValue(configuration)
    }

    /// The names of the stages, in order.
    ///
    /// ```swift
    /// let plumber = PipelinePlumber<Int>()
    /// plumber.addStage("a") { _ in .pass }
    /// plumber.addStage("b") { _ in .pass }
    /// #expect(plumber.stageNames == ["a", "b"])
    /// ```
    public var stageNames: [String] {
        _withSnapshot { $0.names }
    }

    /// Whether every stage is synchronous, so ``send(_:from:)`` can run them all.
    ///
    /// ```swift
    /// let plumber = PipelinePlumber<Int>()
    /// plumber.addStage("a") { _ in .pass }
    /// #expect(plumber.isSynchronous)
    /// ```
    public var isSynchronous: Bool {
        _withSnapshot { $0.isSync }
    }

    /// Runs `body` with the current snapshot, pinned.
    @inlinable @inline(__always)
    func _withSnapshot<Result>(_ body: (_PlumbingSnapshot<Payload>) -> Result) -> Result {
        // A plumber always has a snapshot (one is stored at `init`).
        _current.read(body)
    }

    /// The numbers of the ports that feed the plumber, in the order they were added.
    ///
    /// ```swift
    /// let plumber = try PipelinePlumber<Int>().addPort(PlumbingPort(1)).addPort(PlumbingPort(2))
    /// #expect(plumber.portNumbers == [1, 2])
    /// ```
    public var portNumbers: [Int] {
        _configuration.withLock { $0.ports.map(\.number) }
    }

    /// Sends a packet through the stages on the calling thread and returns what became of
    /// it: delivered to the sink, or stopped (by which stage, and why).
    ///
    /// The fast path: no lock, no allocation for an inline payload. Every stage must be
    /// synchronous; a packet that reaches an async stage stops there with
    /// ``PlumbingStopReason/stageIsAsync`` (use ``process(_:from:)``). Calls from several
    /// threads run concurrently; a call that a stage makes from inside a stage runs at once,
    /// nested.
    ///
    /// ```swift
    /// let plumber = PipelinePlumber<Int>()
    /// plumber.addStage("positive") { packet in packet.payload > 0 ? .pass : .stop("not positive") }
    /// #expect(plumber.send(1, from: 100).delivered == PlumbingPacket(1, port: 100))
    /// #expect(plumber.send(-1, from: 100).stop?.stage == "positive")
    /// ```
    /// - Complexity: O(stages), one atomic load.
    @inlinable
    @discardableResult
    public func send(_ payload: Payload, from port: Int) -> PlumbingOutcome<Payload> {
        _withSnapshot { $0.runSync(PlumbingPacket(payload, port: port)) }
    }

    /// Sends a packet through the stages, awaiting async ones, and returns what became of
    /// it.
    ///
    /// Runs in the caller's task. Cancelling that task stops the packet before the next
    /// stage (or before the sink) with ``PlumbingStopReason/cancelled``; a stage that is
    /// awaiting sees the cancellation itself (e.g. `Task.sleep` throws, and the packet stops
    /// with `.failed(CancellationError())`).
    ///
    /// ```swift
    /// let plumber = PipelinePlumber<Int>()
    /// plumber.addStage("later") { packet in
    ///     await Task.yield()
    ///     packet.payload *= 10
    ///     return .pass
    /// }
    /// #expect(await plumber.process(4, from: 1).delivered?.payload == 40)
    /// ```
    @inlinable
    @discardableResult
    public nonisolated(nonsending) func process(_ payload: Payload, from port: Int) async
        -> PlumbingOutcome<Payload>
    {
        let snapshot = _current.load().unsafelyUnwrapped  // retained across the awaits
        return await snapshot.runAsync(PlumbingPacket(payload, port: port)) { Task.isCancelled }
    }

    deinit {
        // Ports hold their plumber weakly; nothing else to undo. The current snapshot (and
        // with it every stage, sink and observer) goes with `_current`.
    }
}
