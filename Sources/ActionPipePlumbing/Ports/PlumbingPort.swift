import ActionPipeConcurrency

/// Produces packets for a plumber, each stamped with the port's number.
///
/// A port feeds one plumber at a time (``PipelinePlumber/addPort(_:)``) and holds it weakly.
/// A queued packet keeps the plumber it was emitted into alive and runs there, even if the
/// port is removed meanwhile. Packets of one port run one at a time, in emission order;
/// different ports run concurrently. ``emit(_:)`` never blocks; ``process(_:)`` awaits.
///
/// ```swift
/// let port = PlumbingPort<String>(100)
/// let plumber = try PipelinePlumber<String>().addPort(port)
/// plumber.addStage("non-empty") { packet in packet.payload.isEmpty ? .stop("empty") : .pass }
/// #expect(await port.process("tap").delivered == PlumbingPacket("tap", port: 100))
/// #expect(await port.process("").stop?.stage == "non-empty")
/// _ = plumber
/// ```
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

    /// Emits a packet and returns at once; learn what became of it through the plumber's
    /// `sink` and `onStop`.
    ///
    /// When the port is free and every stage is synchronous, the packet runs on this thread
    /// before `emit` returns; otherwise it is queued and run in order by a task the port
    /// starts. A port that feeds no plumber drops the packet.
    ///
    /// - Complexity: O(stages) when it runs here; O(1) amortised to queue.
    @inlinable
    public func emit(_ payload: Payload) {
        // Inlinable down to the lock and the stages, so a client specialises it for its
        // payload (generic code looks up metadata on every emit).
        let admission = _state.withLock { state in
            _admit(&state, payload, waiter: nil, cancelled: nil, canRunHere: true)
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
                // First in line: packets queued since the claim came later (the claim keeps
                // `next` empty and no drain running).
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

    /// Emits a packet and awaits what became of it.
    ///
    /// The packet waits for earlier packets of this port. Cancelling the awaiting task
    /// stops the packet before its next stage (or the sink), also while it waits.
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
                // Called from a stage of this port's running packet: run nested, as `send`
                // does; waiting would wait for itself.
                let current = _PlumbingTurn(port: ObjectIdentifier(self), turn: state.turn)
                return running.contains(current) ? .nested(plumber) : .wait(plumber)
            }
            return .claimed(plumber, state.begin())
        }
        switch claim {
        case .claimed(let plumber, let turn):
            // The port was free: run in the caller's task (its cancellation applies), on its actor.
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

    /// Runs the packet in `plumber` as this port's `turn`, nested in the turns `running`, on
    /// the caller's actor: the `withValue` closure captures `isolation` (a nonisolated one
    /// would run the stages off the main actor).
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

    /// Waits in the queue; the drain runs the packet and resumes the caller. Cancelling the
    /// caller while it waits withdraws the packet and resumes at once, stopped before its
    /// first stage: else two ports whose stages await each other would wait forever.
    /// `plumber`: the one the port fed when the caller found it busy.
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
                    return _admit(
                        &state, payload, waiter: continuation, cancelled: cancelled,
                        canRunHere: false)
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
            // The lock makes exactly one of this, the admission and the drain resume the
            // caller. The payload is released out here, unlocked.
            let withdrawn = _state.withLock { state in state.withdraw(cancelled) }
            withdrawn?.waiter?.resume(returning: nil)
        }
        // `nil`: withdrawn before it ran, so stopped before the first stage of the plumber
        // it was emitted into. Built in the caller's task: it tells the stop observer, which
        // runs on its packet's task.
        if let outcome { return outcome }
        return queuedInto._withSnapshot {
            $0.stopped(PlumbingPacket(payload, port: number), at: 0, .cancelled)
        }
    }

    /// Under the lock: claim the free port, or queue the packet.
    @inlinable
    func _admit(
        _ state: inout _PlumbingPortState<Payload>, _ payload: Payload,
        waiter: CheckedContinuation<PlumbingOutcome<Payload>?, Never>?,
        cancelled: _PlumbingCancelFlag?, canRunHere: Bool
    ) -> _PlumbingAdmission<Payload> {
        guard let plumber = state.plumber else { return .notConnected }
        let claimed = !state.busy
        if claimed {
            _ = state.begin()
            // The plumber's snapshot is checked after unlocking.
            if canRunHere { return .runHere(plumber) }
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

    /// Runs queued packets one at a time, in order, until the queue is empty; each packet
    /// holds its plumber until its outcome, so dropping the plumber or the port loses none.
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
