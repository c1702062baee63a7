extension PipelinePlumber {
    /// Connects a port: its packets go through this plumber's stages from now on.
    ///
    /// Ports may be added at any time, before or after the sink (the original only wires
    /// ports it has when the sink is set). Adding a port that already feeds this plumber
    /// does nothing; a port feeds one plumber at a time, so adding one that feeds another
    /// plumber throws ``PlumbingError/portInUse(port:plumber:)``. The plumber keeps its
    /// ports; a port holds its plumber weakly.
    ///
    /// ```swift
    /// let port = PlumbingPort<Int>(100)
    /// let plumber = try PipelinePlumber<Int>().sink { _ in }.addPort(port)  // after the sink
    /// #expect(port.isConnected && plumber.portNumbers == [100])
    /// ```
    /// - Throws: ``PlumbingError/portInUse(port:plumber:)``.
    @discardableResult
    public func addPort(_ port: PlumbingPort<Payload>) throws(PlumbingError) -> Self {
        if try port._connect(to: self) {
            _configuration.withLock { $0.ports.append(port) }
            // A `removePort` racing with this call may have disconnected the port before it
            // was listed; do not list a port that no longer feeds this plumber.
            if !port._feeds(self) {
                _configuration.withLock { $0.ports.removeAll { $0 === port } }
            }
        }
        return self
    }

    /// Disconnects a port; its later packets stop with
    /// ``PlumbingStopReason/portNotConnected``. Returns whether the port fed this plumber.
    ///
    /// ```swift
    /// let port = PlumbingPort<Int>(1)
    /// let plumber = try PipelinePlumber<Int>().addPort(port)
    /// #expect(plumber.removePort(port))
    /// #expect(!plumber.removePort(port))
    /// #expect(!port.isConnected)
    /// ```
    @discardableResult
    public func removePort(_ port: PlumbingPort<Payload>) -> Bool {
        guard port._disconnect(from: self) else { return false }
        _configuration.withLock { $0.ports.removeAll { $0 === port } }
        return true
    }

    /// Appends a synchronous stage: it receives the packet `inout`, may change it, and
    /// returns `.pass` or `.stop(reason)`. A thrown error stops the packet with
    /// `.failed(error)`.
    ///
    /// ```swift
    /// let plumber = PipelinePlumber<Int>()
    ///     .addStage("double") { packet in
    ///         packet.payload *= 2
    ///         return .pass
    ///     }
    ///     .addStage("small") { packet in packet.payload < 100 ? .pass : .stop("too big") }
    /// #expect(plumber.send(21, from: 1).delivered?.payload == 42)
    /// #expect(plumber.send(60, from: 1).stop?.reason.refusal == "too big")
    /// ```
    /// - Parameters:
    ///   - name: The stage's name in stops.
    ///   - body: The stage. It runs with no lock held, on the thread of the packet.
    @discardableResult
    public func addStage(
        _ name: String,
        _ body: @escaping @Sendable (inout PlumbingPacket<Payload>) throws -> PlumbingVerdict
    ) -> Self {
        _update { $0.append(name: name, body: .sync(body)) }
    }

    /// Appends an asynchronous stage, one that may await (a request, an actor) before it
    /// passes or stops the packet. Plumbers with async stages are driven with
    /// `await process(_:from:)` or through ports.
    ///
    /// ```swift
    /// let plumber = PipelinePlumber<String>().addStage("request-link") { packet in
    ///     try await Task.sleep(for: .milliseconds(1))
    ///     packet.payload = "www.link.com"
    ///     return .pass
    /// }
    /// #expect(!plumber.isSynchronous)
    /// #expect(await plumber.process("doc", from: 100).delivered?.payload == "www.link.com")
    /// ```
    @discardableResult
    public func addStage(
        _ name: String,
        _ body:
            nonisolated(nonsending) @escaping @Sendable (inout PlumbingPacket<Payload>) async throws
            -> PlumbingVerdict
    ) -> Self {
        _update { $0.append(name: name, body: .async(body)) }
    }

    /// Appends a stage object (the original's `addPipeline(pipeline)`). One object may
    /// serve any number of plumbers.
    ///
    /// ```swift
    /// struct PlumbPositive: PlumbingStage {
    ///     func receive(_ packet: inout PlumbingPacket<Int>) -> PlumbingVerdict {
    ///         packet.payload > 0 ? .pass : .stop("not positive")
    ///     }
    /// }
    /// #expect(PipelinePlumber<Int>().addStage(PlumbPositive()).send(0, from: 1).stop != nil)
    /// ```
    @discardableResult
    public func addStage<Stage: PlumbingStage>(_ stage: Stage) -> Self
    where Stage.Payload == Payload {
        addStage(stage.name) { packet in try stage.receive(&packet) }
    }

    /// Appends an async stage object.
    ///
    /// ```swift
    /// struct PlumbSlowPositive: AsyncPlumbingStage {
    ///     func receive(_ packet: inout PlumbingPacket<Int>) async -> PlumbingVerdict {
    ///         await Task.yield()
    ///         return packet.payload > 0 ? .pass : .stop("not positive")
    ///     }
    /// }
    /// let plumber = PipelinePlumber<Int>().addStage(PlumbSlowPositive())
    /// #expect(await plumber.process(1, from: 1).wasDelivered)
    /// ```
    @discardableResult
    public func addStage<Stage: AsyncPlumbingStage>(_ stage: Stage) -> Self
    where Stage.Payload == Payload {
        addStage(stage.name) { packet in try await stage.receive(&packet) }
    }

    /// Sets the sink, which receives every packet that all stages pass (the original's
    /// `throwPacketBlock`). Setting it again replaces it. With no stages, packets reach the
    /// sink unchanged; with no sink, delivered packets are only returned to the caller.
    ///
    /// ```swift
    /// let seen = Mutex<[Int]>([])
    /// let plumber = PipelinePlumber<Int>().sink { packet in seen.withLock { $0.append(packet.payload) } }
    /// plumber.send(7, from: 1)
    /// #expect(seen.withLock { $0 } == [7])
    /// ```
    @discardableResult
    public func sink(_ body: @escaping @Sendable (PlumbingPacket<Payload>) -> Void) -> Self {
        _update { $0.sink = body }
    }

    /// Sets an observer told about every packet that stops, however it was sent (also
    /// fire-and-forget from a port). Setting it again replaces it.
    ///
    /// ```swift
    /// let reasons = Mutex<[String]>([])
    /// let plumber = PipelinePlumber<Int>()
    ///     .addStage("gate") { _ in .stop("closed") }
    ///     .onStop { stop in reasons.withLock { $0.append("\(stop.stage ?? "?"): \(stop.reason)") } }
    /// plumber.send(1, from: 1)
    /// #expect(reasons.withLock { $0 } == ["gate: refused: closed"])
    /// ```
    @discardableResult
    public func onStop(_ body: @escaping @Sendable (PlumbingStop<Payload>) -> Void) -> Self {
        _update { $0.onStop = body }
    }

    /// Changes the configuration and publishes a new snapshot, under the lock. Runs no
    /// user code.
    private func _update(_ change: (inout _PlumbingConfiguration<Payload>) -> Void) -> Self {
        let replaced = _configuration.withLock { configuration in
            change(&configuration)
            return _current.store(configuration.snapshot(plumber: name))
        }
        // The snapshots no packet runs on any more, and the sink or stop observer only they
        // held, are released here, unlocked.
        withExtendedLifetime(replaced) {}
        return self
    }
}
