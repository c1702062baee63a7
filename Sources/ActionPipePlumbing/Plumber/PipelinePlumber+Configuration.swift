extension PipelinePlumber {
    /// Connects a port: its packets go through this plumber's stages from now on. Adding it
    /// again does nothing. The plumber keeps its ports; a port holds its plumber weakly.
    ///
    /// - Returns: The plumber, so `try PipelinePlumber<Int>().addPort(port)` makes and
    ///   connects it in one expression.
    /// - Throws: ``PlumbingError/portInUse(port:plumber:)`` when the port feeds another plumber.
    /// - Complexity: O(p) for the plumber's p ports.
    @discardableResult
    public func addPort(_ port: PlumbingPort<Payload>) throws(PlumbingError) -> Self {
        if try port._connect(to: self) {
            _configuration.withLock { $0.ports.append(port) }
            // A racing `removePort` may have disconnected the port before it was listed.
            if !port._feeds(self) {
                _configuration.withLock { $0.ports.removeAll { $0 === port } }
            }
        }
        return self
    }

    /// Disconnects a port; its later packets stop with ``PlumbingStopReason/portNotConnected``.
    /// Packets it already queued into this plumber still finish here, in order.
    ///
    /// - Returns: Whether the port fed this plumber.
    /// - Complexity: O(p) for the plumber's p ports.
    @discardableResult
    public func removePort(_ port: PlumbingPort<Payload>) -> Bool {
        guard port._disconnect(from: self) else { return false }
        _configuration.withLock { $0.ports.removeAll { $0 === port } }
        return true
    }

    /// Appends a synchronous stage: it receives the packet `inout`, may change it, and
    /// returns `.pass` or `.stop(reason)`; a thrown error stops the packet with `.failed(error)`.
    ///
    /// - Returns: The token that removes the stage. Packets already running finish with the
    ///   stages they started with; the stage is released once the last of them is done.
    /// - Complexity: Amortised O(1); cancelling the token is O(s) for s stages.
    @discardableResult
    public func addStage(
        _ name: String,
        _ body: @escaping @Sendable (inout PlumbingPacket<Payload>) throws -> PlumbingVerdict
    ) -> RegistrationToken {
        _register(.stage, label: name) { $0.append(name: name, body: .sync(body), id: $1) }
    }

    /// Appends an asynchronous stage; drive such a plumber with `process(_:from:)` or ports.
    ///
    /// - Returns: The token that removes the stage.
    /// - Complexity: Amortised O(1); cancelling the token is O(s) for s stages.
    @discardableResult
    public func addStage(
        _ name: String,
        _ body:
            nonisolated(nonsending) @escaping @Sendable (inout PlumbingPacket<Payload>) async throws
            -> PlumbingVerdict
    ) -> RegistrationToken {
        _register(.stage, label: name) { $0.append(name: name, body: .async(body), id: $1) }
    }

    /// Appends a stage object; one object may serve any number of plumbers.
    ///
    /// - Returns: The token that removes the stage.
    /// - Complexity: Amortised O(1); cancelling the token is O(s) for s stages.
    @discardableResult
    public func addStage<Stage: PlumbingStage>(_ stage: Stage) -> RegistrationToken
    where Stage.Payload == Payload {
        addStage(stage.name) { packet in try stage.receive(&packet) }
    }

    /// Appends an async stage object.
    ///
    /// - Returns: The token that removes the stage.
    /// - Complexity: Amortised O(1); cancelling the token is O(s) for s stages.
    @discardableResult
    public func addStage<Stage: AsyncPlumbingStage>(_ stage: Stage) -> RegistrationToken
    where Stage.Payload == Payload {
        addStage(stage.name) { packet in try await stage.receive(&packet) }
    }

    /// Sets the sink, which receives every packet that all stages pass; setting it again
    /// replaces it. With no sink, a passed packet is still delivered (`onStop` is not told).
    ///
    /// - Returns: The token that removes this sink; inactive once another sink replaces it.
    /// - Complexity: O(1), and so is cancelling the token.
    @discardableResult
    public func sink(_ body: @escaping @Sendable (PlumbingPacket<Payload>) -> Void)
        -> RegistrationToken
    {
        _register(.sink, label: "sink") { $0.sink = ($1, body) }
    }

    /// Sets an observer told about every packet that stops, however it was sent; setting it
    /// again replaces it.
    ///
    /// - Returns: The token that removes this observer; inactive once another replaces it.
    /// - Complexity: O(1), and so is cancelling the token.
    @discardableResult
    public func onStop(_ body: @escaping @Sendable (PlumbingOutcome<Payload>) -> Void)
        -> RegistrationToken
    {
        _register(.stopObserver, label: "onStop") { $0.onStop = ($1, body) }
    }

    /// Adds `body`, told every packet's outcome after the sink or stop observer, and never
    /// removed by replacing them: for the test recorders and the bus connector.
    ///
    /// - Complexity: O(t) for t taps, and so is cancelling the token.
    @discardableResult
    package func _addTap(_ body: @escaping @Sendable (PlumbingOutcome<Payload>) -> Void)
        -> RegistrationToken
    {
        _register(.tap, label: "tap") { $0.taps.append(($1, body)) }
    }

    /// Adds a registration with a new id, and returns its token.
    func _register(
        _ kind: _PlumbingRegistration, label: String,
        _ add: (inout _PlumbingConfiguration<Payload>, UInt64) -> Void
    ) -> RegistrationToken {
        let id = RegistrationToken.nextID()
        _update { configuration -> Void? in add(&configuration, id) }
        return RegistrationToken(
            registry: self, id: id, detail: kind.rawValue, scope: name, joiner: "/", label: label)
    }

    /// Changes the configuration and publishes a new snapshot under the lock. `change` returns
    /// what it removed (`nil`: nothing published), released after unlocking.
    @discardableResult
    private func _update<Removed>(
        _ change: (inout _PlumbingConfiguration<Payload>) -> Removed?
    ) -> Removed? {
        let (removed, replaced) = _configuration.withLock {
            configuration -> (Removed?, [AnyObject]) in
            guard let removed = change(&configuration) else { return (nil, []) }
            return (removed, _current.store(configuration.snapshot(plumber: name)))
        }
        // Released unlocked: the replaced snapshots and what only they held.
        withExtendedLifetime(replaced) {}
        return removed
    }
}

extension PipelinePlumber: _Registry {
    /// What the registration captured is released after unlocking, or by the last packet
    /// still running with it.
    package func _cancelRegistration(_ id: UInt64, detail: Int) -> Bool {
        guard let kind = _PlumbingRegistration(rawValue: detail) else { return false }
        return _update { $0.remove(id, kind) } != nil
    }

    package func _isRegistrationActive(_ id: UInt64, detail: Int) -> Bool {
        guard let kind = _PlumbingRegistration(rawValue: detail) else { return false }
        return _configuration.withLock { $0.holds(id, kind) }
    }
}
