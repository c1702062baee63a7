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
    /// let plumber = PipelinePlumber<Int>()
    /// plumber.sink { _ in }
    /// try plumber.addPort(port)  // after the sink
    /// #expect(port.isConnected && plumber.portNumbers == [100])
    /// ```
    /// - Returns: The plumber, so that `try PipelinePlumber<Int>().addPort(port)` makes and
    ///   connects it in one expression. The port itself is the handle: remove it with
    ///   ``removePort(_:)``.
    /// - Throws: ``PlumbingError/portInUse(port:plumber:)``.
    /// - Complexity: O(p) for the plumber's p ports.
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
    /// Packets the port emitted into this plumber and still holds in its queue are not
    /// touched: they finish here (sink or `onStop`), in order, and none reaches a plumber
    /// the port is added to later.
    ///
    /// ```swift
    /// let port = PlumbingPort<Int>(1)
    /// let plumber = try PipelinePlumber<Int>().addPort(port)
    /// #expect(plumber.removePort(port))
    /// #expect(!plumber.removePort(port))
    /// #expect(!port.isConnected)
    /// ```
    /// - Complexity: O(p) for the plumber's p ports.
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
    /// plumber.addStage("double") { packet in
    ///     packet.payload *= 2
    ///     return .pass
    /// }
    /// let small = plumber.addStage("small") { packet in packet.payload < 100 ? .pass : .stop("too big") }
    /// #expect(plumber.send(21, from: 1).delivered?.payload == 42)
    /// #expect(plumber.send(60, from: 1).reason?.refusal == "too big")
    /// small.cancel()
    /// #expect(plumber.send(60, from: 1).delivered?.payload == 120)
    /// ```
    /// - Parameters:
    ///   - name: The stage's name in stops.
    ///   - body: The stage. It runs with no lock held, on the thread of the packet.
    /// - Returns: The token that removes the stage. Packets already in the stages finish
    ///   with the stages they started with; the stage (and what it captured) is released
    ///   once the last of them is done.
    /// - Complexity: Amortised O(1); cancelling the token is O(s) for the plumber's s
    ///   stages.
    @discardableResult
    public func addStage(
        _ name: String,
        _ body: @escaping @Sendable (inout PlumbingPacket<Payload>) throws -> PlumbingVerdict
    ) -> RegistrationToken {
        _addStage(name, .sync(body))
    }

    /// Appends an asynchronous stage, one that may await (a request, an actor) before it
    /// passes or stops the packet. Plumbers with async stages are driven with
    /// `await process(_:from:)` or through ports.
    ///
    /// ```swift
    /// let plumber = PipelinePlumber<String>()
    /// plumber.addStage("request-link") { packet in
    ///     try await Task.sleep(for: .milliseconds(1))
    ///     packet.payload = "www.link.com"
    ///     return .pass
    /// }
    /// #expect(!plumber.isSynchronous)
    /// #expect(await plumber.process("doc", from: 100).delivered?.payload == "www.link.com")
    /// ```
    /// - Returns: The token that removes the stage; see the synchronous `addStage(_:_:)`.
    /// - Complexity: Amortised O(1); cancelling the token is O(s) for the plumber's s
    ///   stages.
    @discardableResult
    public func addStage(
        _ name: String,
        _ body:
            nonisolated(nonsending) @escaping @Sendable (inout PlumbingPacket<Payload>) async throws
            -> PlumbingVerdict
    ) -> RegistrationToken {
        _addStage(name, .async(body))
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
    /// let plumber = PipelinePlumber<Int>()
    /// plumber.addStage(PlumbPositive())
    /// #expect(plumber.send(0, from: 1).stop != nil)
    /// ```
    /// - Returns: The token that removes the stage; see the closure form.
    /// - Complexity: Amortised O(1); cancelling the token is O(s) for the plumber's s
    ///   stages.
    @discardableResult
    public func addStage<Stage: PlumbingStage>(_ stage: Stage) -> RegistrationToken
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
    /// let plumber = PipelinePlumber<Int>()
    /// plumber.addStage(PlumbSlowPositive())
    /// #expect(await plumber.process(1, from: 1).wasDelivered)
    /// ```
    /// - Returns: The token that removes the stage; see the closure form.
    /// - Complexity: Amortised O(1); cancelling the token is O(s) for the plumber's s
    ///   stages.
    @discardableResult
    public func addStage<Stage: AsyncPlumbingStage>(_ stage: Stage) -> RegistrationToken
    where Stage.Payload == Payload {
        addStage(stage.name) { packet in try await stage.receive(&packet) }
    }

    /// Sets the sink, which receives every packet that all stages pass (the original's
    /// `throwPacketBlock`). Setting it again replaces it. With no stages, packets reach the
    /// sink unchanged. For a `@MainActor` sink that updates UI, see ``sink(on:_:)``.
    ///
    /// With no sink (none set yet, or its token cancelled), a packet that every stage
    /// passes is still delivered: `send` and `process` return it as
    /// ``PlumbingOutcome/delivered``, and a packet a port emitted goes nowhere (it did
    /// not stop, so `onStop` is not told).
    ///
    /// ```swift
    /// let seen = Mutex<[Int]>([])
    /// let plumber = PipelinePlumber<Int>()
    /// let sink = plumber.sink { packet in seen.withLock { $0.append(packet.payload) } }
    /// plumber.send(7, from: 1)
    /// sink.cancel()
    /// #expect(plumber.send(8, from: 1).wasDelivered)  // returned, not sunk
    /// #expect(seen.withLock { $0 } == [7])
    /// ```
    /// - Returns: The token that removes this sink. Once another sink replaces it, the
    ///   token is inactive and cancelling it removes nothing (it returns `false`).
    /// - Complexity: O(1), and so is cancelling the token.
    @discardableResult
    public func sink(_ body: @escaping @Sendable (PlumbingPacket<Payload>) -> Void)
        -> RegistrationToken
    {
        _setSink { _ in body }
    }

    /// Installs the sink built from the registration's id (a main-actor sink checks it),
    /// replacing the one before, and returns its token.
    func _setSink(
        withID makeBody: (UInt64) -> @Sendable (PlumbingPacket<Payload>) -> Void
    ) -> RegistrationToken {
        let id = RegistrationToken.nextID()
        let body = makeBody(id)
        _update { configuration in
            configuration.sink = body
            configuration.sinkID = id
        }
        return _token(id, .sink, label: "sink")
    }

    /// Sets an observer told about every packet that stops, however it was sent (also
    /// fire-and-forget from a port). Setting it again replaces it. For a `@MainActor`
    /// observer, see ``onStop(on:_:)``.
    ///
    /// ```swift
    /// let reasons = Mutex<[String]>([])
    /// let plumber = PipelinePlumber<Int>()
    /// plumber.addStage("gate") { _ in .stop("closed") }
    /// plumber.onStop { stop in
    ///     reasons.withLock { $0.append("\(stop.stage ?? "?"): \(stop.reason?.refusal ?? "?")") }
    /// }
    /// plumber.send(1, from: 1)
    /// #expect(reasons.withLock { $0 } == ["gate: closed"])
    /// ```
    /// - Returns: The token that removes this observer. Once another observer replaces
    ///   it, the token is inactive and cancelling it removes nothing.
    /// - Complexity: O(1), and so is cancelling the token.
    @discardableResult
    public func onStop(_ body: @escaping @Sendable (PlumbingOutcome<Payload>) -> Void)
        -> RegistrationToken
    {
        _setStopObserver { _ in body }
    }

    /// Installs the stop observer built from the registration's id, replacing the one
    /// before, and returns its token.
    func _setStopObserver(
        withID makeBody: (UInt64) -> @Sendable (PlumbingOutcome<Payload>) -> Void
    ) -> RegistrationToken {
        let id = RegistrationToken.nextID()
        let body = makeBody(id)
        _update { configuration in
            configuration.onStop = body
            configuration.onStopID = id
        }
        return _token(id, .stopObserver, label: "onStop")
    }

    /// Adds `body` beside the sink and the stop observer: it is told every packet's outcome,
    /// after the sink (for a delivered packet) or the observer (for a stopped one), and
    /// neither setting them nor cancelling their tokens removes it. For the test recorders
    /// and the bus connector, which must not replace the app's sink and `onStop`.
    ///
    /// - Returns: The token that removes this tap only.
    /// - Complexity: O(t) for t taps, and so is cancelling the token.
    @discardableResult
    package func _addTap(_ body: @escaping @Sendable (PlumbingOutcome<Payload>) -> Void)
        -> RegistrationToken
    {
        let id = RegistrationToken.nextID()
        _update { configuration in configuration.taps.append((id, body)) }
        return _token(id, .tap, label: "tap")
    }

    private func _addStage(_ name: String, _ body: _PlumbingStageBody<Payload>)
        -> RegistrationToken
    {
        let id = RegistrationToken.nextID()
        _update { $0.append(name: name, body: body, id: id) }
        return _token(id, .stage, label: name)
    }

    /// A token named `plumber/label#id`, from strings the plumber already holds.
    private func _token(_ id: UInt64, _ kind: _PlumbingRegistration, label: String)
        -> RegistrationToken
    {
        RegistrationToken(
            registry: self, id: id, detail: kind.rawValue, scope: name, joiner: "/", label: label)
    }

    /// Changes the configuration and publishes a new snapshot, under the lock; runs no
    /// user code. `change` returns what it removed (`nil`: nothing changed, nothing is
    /// published), which is released after unlocking. What it overwrote (a replaced sink)
    /// the current snapshot still holds, so it is released with that snapshot, unlocked too.
    @discardableResult
    private func _update<Removed>(
        _ change: (inout _PlumbingConfiguration<Payload>) -> Removed?
    ) -> Removed? {
        let (removed, replaced) = _configuration.withLock {
            configuration -> (Removed?, [AnyObject]) in
            guard let removed = change(&configuration) else { return (nil, []) }
            return (removed, _current.store(configuration.snapshot(plumber: name)))
        }
        // The snapshots no packet runs on any more, and the stages, sink or stop observer
        // only they held, are released here, unlocked.
        withExtendedLifetime(replaced) {}
        return removed
    }
}

extension PipelinePlumber: _Registry {
    /// Removes the stage, sink or stop observer `id` if it is still installed; what it
    /// captured is released after unlocking, or by the last packet still running with it.
    package func _cancelRegistration(_ id: UInt64, detail: Int) -> Bool {
        guard let kind = _PlumbingRegistration(rawValue: detail) else { return false }
        switch kind {
        case .stage:
            return _update { $0.removeStage(id) } != nil
        case .sink:
            return _update { $0.removeSink(id) } != nil
        case .stopObserver:
            return _update { $0.removeStopObserver(id) } != nil
        case .tap:
            return _update { $0.removeTap(id) } != nil
        }
    }

    /// Whether the stage, sink or stop observer `id` is still installed.
    package func _isRegistrationActive(_ id: UInt64, detail: Int) -> Bool {
        guard let kind = _PlumbingRegistration(rawValue: detail) else { return false }
        return _configuration.withLock { $0.holds(id, kind) }
    }
}
