import ActionPipeConcurrency

/// Produces packets for a plumber, each stamped with the port's number.
///
/// A port feeds one plumber at a time (``PipelinePlumber/addPort(_:)``) and holds it weakly;
/// a queued packet keeps the plumber it was emitted into and runs there. Packets of one port
/// run one at a time, in emission order. ``emit(_:)`` never blocks; ``process(_:)`` awaits.
public final class PlumbingPort<Payload: Sendable>: Sendable {
    /// The number stamped on every packet of this port.
    public let number: Int

    @usableFromInline let _state = LockedValue(_PlumbingPortState<Payload>())

    /// A port that stamps its packets with `number`, a label for the stages, not an identity.
    ///
    /// - Complexity: O(1).
    public init(_ number: Int) {
        self.number = number
    }

    /// Whether the port feeds a plumber that is still alive.
    public var isConnected: Bool {
        _state.withLock { $0.plumber } != nil  // released after unlocking
    }

    /// Emits a packet and returns at once; the plumber's `sink` and `onStop` tell the rest.
    /// When the port is free and every stage is synchronous, the packet runs on this thread;
    /// otherwise a task the port starts runs it in order. With no plumber it is dropped.
    ///
    /// - Complexity: O(stages) when it runs here; O(1) amortised to queue.
    @inlinable
    public func emit(_ payload: Payload) {
        // Inlinable down to the lock and the stages, so a client specialises it.
        let admission = _state.withLock { state in
            _admit(&state, payload, waiter: nil, cancelled: nil)
        }
        switch admission {
        case .runHere(let plumber):
            // Run here if every stage is synchronous, else queue for the drain (port claimed).
            let ran = plumber._withSnapshot { snapshot in
                guard snapshot.isSync else { return false }
                _ = snapshot.runSync(PlumbingPacket(payload, port: number))
                return true
            }
            if ran {
                _finishTurn()
            } else {
                // First in line: what queued since the claim came later.
                _state.withLock { state in
                    state.next.append((payload, plumber, waiter: nil, cancelled: nil))
                }
                _startDrain()
            }
        case .queued(let startDrain, _):
            if startDrain { _startDrain() }
        case .notConnected:
            break
        }
    }

    /// Emits a packet and awaits what became of it, after earlier packets of this port.
    /// Cancelling the task stops the packet before its next stage (or the sink), or its wait.
    ///
    /// - Complexity: O(stages), plus the wait for earlier packets.
    @discardableResult
    public nonisolated(nonsending) func process(_ payload: Payload) async
        -> PlumbingOutcome<Payload>
    {
        let running = _PlumbingRunning.turns
        let claim = _state.withLock { state -> _PlumbingClaim<Payload> in
            guard let plumber = state.plumber else { return .notConnected }
            if state.busy {
                // From a stage of this port's running packet: run nested, not wait for itself.
                let current = _PlumbingTurn(port: ObjectIdentifier(self), turn: state.turn)
                return running.contains(current) ? .nested(plumber) : .wait(plumber)
            }
            return .claimed(plumber, state.begin())
        }
        switch claim {
        case .claimed(let plumber, let turn):
            let outcome = await _run(payload, in: plumber, turn: turn, nestedIn: running) {
                Task.isCancelled
            }
            _finishTurn()
            return outcome
        case .nested(let plumber):
            return await plumber.process(payload, from: number)
        case .notConnected:
            return _notConnected(payload)
        case .wait(let plumber):
            return await _processQueued(payload, plumber: plumber)
        }
    }

    /// Runs the packet in `plumber` as this port's `turn`, nested in `running`, on the caller's
    /// actor (the `withValue` closure captures `isolation`).
    private func _run(
        _ payload: Payload, in plumber: PipelinePlumber<Payload>, turn: UInt64,
        nestedIn running: [_PlumbingTurn] = [], isCancelled: () -> Bool,
        isolation: isolated (any Actor)? = #isolation
    ) async -> PlumbingOutcome<Payload> {
        let snapshot = plumber._current.load().unsafelyUnwrapped  // retained across the awaits
        let turns = running + [_PlumbingTurn(port: ObjectIdentifier(self), turn: turn)]
        return await _PlumbingRunning.$turns.withValue(turns) {
            _ = isolation
            let packet = PlumbingPacket(payload, port: number)
            return await snapshot.runAsync(packet, isCancelled: isCancelled)
        }
    }

    /// Waits in the queue for the drain to run the packet. Cancelling the caller withdraws the
    /// packet and resumes at once (two ports whose stages await each other would wait for
    /// ever). `plumber`: the one the port fed when the caller found it busy.
    private nonisolated(nonsending) func _processQueued(
        _ payload: Payload, plumber: PipelinePlumber<Payload>
    ) async -> PlumbingOutcome<Payload> {
        let cancelled = _PlumbingCancelFlag()
        var queuedInto = plumber
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let admission = _state.withLock { state -> _PlumbingAdmission<Payload>? in
                    // Cancelled before it could queue: `onCancel` found nothing to take out.
                    if cancelled.isSet { return nil }
                    return _admit(&state, payload, waiter: continuation, cancelled: cancelled)
                }
                switch admission {
                case nil:
                    continuation.resume(returning: nil)
                case .queued(let startDrain, let into):
                    queuedInto = into
                    if startDrain { _startDrain() }
                case .notConnected:
                    continuation.resume(returning: _notConnected(payload))
                case .runHere:
                    preconditionFailure("a waiting packet is never run by its caller")
                }
            }
        } onCancel: {
            cancelled.set()
            // The lock makes one of this, the admission and the drain resume the caller.
            let withdrawn = _state.withLock { state in state.withdraw(cancelled) }
            withdrawn?.waiter?.resume(returning: nil)
        }
        // `nil`: withdrawn before it ran; the stop is reported in the caller's task.
        if let outcome { return outcome }
        return queuedInto._withSnapshot {
            $0.stopped(PlumbingPacket(payload, port: number), at: 0, .cancelled)
        }
    }

    /// Under the lock: claim the free port, or queue the packet. An `emit` (no `waiter`) runs
    /// a packet that claimed the port itself.
    @inlinable
    func _admit(
        _ state: inout _PlumbingPortState<Payload>, _ payload: Payload,
        waiter: CheckedContinuation<PlumbingOutcome<Payload>?, Never>?,
        cancelled: _PlumbingCancelFlag?
    ) -> _PlumbingAdmission<Payload> {
        guard let plumber = state.plumber else { return .notConnected }
        let claimed = !state.busy
        if claimed {
            _ = state.begin()
            // The plumber's snapshot is checked after unlocking.
            if waiter == nil { return .runHere(plumber) }
        }
        state.queue.append((payload, plumber, waiter, cancelled))
        return .queued(startDrain: claimed, plumber: plumber)
    }

    /// Releases the port, or hands what queued meanwhile to a drain task.
    @inlinable
    func _finishTurn() {
        let drain = _state.withLock { state in
            if state.hasWaiting { return true }
            state.busy = false
            return false
        }
        if drain { _startDrain() }
    }

    /// Runs queued packets one at a time, in order, until the queue is empty.
    @usableFromInline
    func _startDrain() {
        Task { await self._drain() }
    }

    private func _drain() async {
        while true {
            let next = _state.withLock { state -> (_PlumbingQueuedPacket<Payload>, UInt64)? in
                guard let item = state.dequeue() else {
                    state.busy = false
                    return nil
                }
                return (item, state.begin())
            }
            // Released unlocked: the packet and the plumber it keeps.
            guard let (item, turn) = next else { return }
            let cancelled = item.cancelled
            let outcome = await _run(item.payload, in: item.plumber, turn: turn) {
                cancelled?.isSet ?? false
            }
            item.waiter?.resume(returning: outcome)
        }
    }

    private func _notConnected(_ payload: Payload) -> PlumbingOutcome<Payload> {
        PlumbingOutcome(
            packet: PlumbingPacket(payload, port: number), stage: nil, stagesPassed: 0,
            stageCount: 0, reason: .portNotConnected, plumber: "")
    }

    /// `false` when already connected. Throws when another live plumber has the port.
    func _connect(to plumber: PipelinePlumber<Payload>) throws(PlumbingError) -> Bool {
        // The current plumber leaves the lock, to be released outside it.
        let current = _state.withLock { state in
            defer { if state.plumber == nil { state.plumber = plumber } }
            return state.plumber
        }
        guard let current else { return true }
        if current === plumber { return false }
        throw .portInUse(port: number, plumber: current.name)
    }

    func _feeds(_ plumber: PipelinePlumber<Payload>) -> Bool {
        _state.withLock { $0.plumber } === plumber  // released after unlocking
    }

    /// Disconnects from `plumber`; `false` when the port did not feed it.
    func _disconnect(from plumber: PipelinePlumber<Payload>) -> Bool {
        let current = _state.withLock { state in
            defer { if state.plumber === plumber { state.plumber = nil } }
            return state.plumber  // released after unlocking
        }
        return current === plumber
    }
}
