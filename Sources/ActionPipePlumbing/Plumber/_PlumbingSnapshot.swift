import ActionPipeConcurrency
import Synchronization

/// A plumber's stages, sink, stop observer and taps at one moment, read without a lock.
/// `@unchecked Sendable`: `bodies` points at slots of `storage`, never written again.
@usableFromInline
final class _PlumbingSnapshot<Payload: Sendable>: @unchecked Sendable {
    let storage: _PlumbingStageStorage<Payload>
    @usableFromInline let bodies: UnsafeMutablePointer<_PlumbingStageBody<Payload>>
    @usableFromInline let count: Int
    @usableFromInline let sink: (@Sendable (PlumbingPacket<Payload>) -> Void)?
    @usableFromInline let isSync: Bool
    /// Copied here: reading the global calls its lazy-initialisation accessor.
    @usableFromInline let instrumentationFlag = UnsafePointer(_instrumentationFlag)
    @usableFromInline let onStop: (@Sendable (PlumbingOutcome<Payload>) -> Void)?
    /// Told every outcome after the sink or the stop observer.
    @usableFromInline let taps: [@Sendable (PlumbingOutcome<Payload>) -> Void]
    /// Copied here for the same reason.
    @usableFromInline let depthKey = NestingDepth.key
    @usableFromInline let plumber: String

    init(
        storage: _PlumbingStageStorage<Payload>, count: Int,
        sink: (@Sendable (PlumbingPacket<Payload>) -> Void)?,
        onStop: (@Sendable (PlumbingOutcome<Payload>) -> Void)?,
        taps: [@Sendable (PlumbingOutcome<Payload>) -> Void], plumber: String
    ) {
        self.storage = storage
        bodies = storage.bodies
        self.count = count
        isSync = (storage.firstAsync ?? count) >= count
        self.sink = sink
        self.onStop = onStop
        self.taps = taps
        self.plumber = plumber
    }

    var names: [String] { (0..<count).map { storage.names[$0] } }

    /// Runs `packet` through every stage on this thread, then into the sink, stopping at the
    /// first async stage; one level of `.call` nesting (refused past the limit).
    @inlinable
    func runSync(_ packet: consuming PlumbingPacket<Payload>) -> PlumbingOutcome<Payload> {
        guard let depth = _enterCall(depthKey) else { return refusedNested(packet) }
        defer { depth.pointee &-= 1 }
        guard instrumentationFlag.pointee.load(ordering: .relaxed) else { return _runSync(packet) }
        return runSyncInstrumented(packet)
    }

    /// Stopped before its first stage, reported once; the observer runs one past the limit,
    /// so a `send` it makes is refused unreported.
    @usableFromInline @inline(never)
    func refusedNested(_ packet: PlumbingPacket<Payload>) -> PlumbingOutcome<Payload> {
        let depth = NestingDepth.counter(.call, key: depthKey)
        let error = NestingLimitError(refused: .packet(plumber: plumber), depth: depth.pointee + 1)
        let stop = PlumbingOutcome(
            packet: packet, stage: nil, stagesPassed: 0, stageCount: count,
            reason: .nestingLimit(error), plumber: plumber)
        if depth.pointee == NestingDepth.callLimit {
            NestingLimitError._report(error)
            depth.pointee &+= 1
            report(stop)
            depth.pointee &-= 1
        }
        return stop
    }

    @inlinable @inline(never)
    func runSyncInstrumented(_ packet: consuming PlumbingPacket<Payload>)
        -> PlumbingOutcome<Payload>
    {
        let span = Instrumentation.begin(.packet, name: plumber, detail: "port \(packet.port)")
        let outcome = _runSync(packet)
        span?.end(Self.instrumentedOutcome(outcome))
        return outcome
    }

    @inlinable @inline(__always)
    func _runSync(_ packet: consuming PlumbingPacket<Payload>) -> PlumbingOutcome<Payload> {
        var packet = packet
        var index = 0
        while index < count {
            switch bodies[index] {
            case .sync(let body):
                let verdict: PlumbingVerdict
                do {
                    verdict = try body(&packet)
                } catch {
                    return stopped(packet, at: index, .failed(error))
                }
                if case .stop(let reason) = verdict {
                    return stopped(packet, at: index, .refused(reason))
                }
            case .async:
                return stopped(packet, at: index, .stageIsAsync)
            }
            index &+= 1
        }
        return delivered(packet)
    }

    /// `isCancelled` is checked before each stage and before the sink.
    @inlinable
    nonisolated(nonsending) func runAsync(
        _ packet: consuming PlumbingPacket<Payload>, isCancelled: () -> Bool
    ) async -> PlumbingOutcome<Payload> {
        guard instrumentationFlag.pointee.load(ordering: .relaxed) else {
            return await _runAsync(packet, isCancelled: isCancelled)
        }
        let span = Instrumentation.begin(.packet, name: plumber, detail: "port \(packet.port)")
        let outcome = await _runAsync(packet, isCancelled: isCancelled)
        span?.end(Self.instrumentedOutcome(outcome))
        return outcome
    }

    @inlinable
    nonisolated(nonsending) func _runAsync(
        _ packet: consuming PlumbingPacket<Payload>, isCancelled: () -> Bool
    ) async -> PlumbingOutcome<Payload> {
        var packet = packet
        var index = 0
        while index < count {
            if isCancelled() { return stopped(packet, at: index, .cancelled) }
            let verdict: PlumbingVerdict
            do {
                switch bodies[index] {
                case .sync(let body): verdict = try body(&packet)
                case .async(let body): verdict = try await body(&packet)
                }
            } catch {
                return stopped(packet, at: index, .failed(error))
            }
            if case .stop(let reason) = verdict {
                return stopped(packet, at: index, .refused(reason))
            }
            index &+= 1
        }
        if isCancelled() { return stopped(packet, at: count, .cancelled) }
        return delivered(packet)
    }

    /// Hands `packet` to the sink, then its outcome to the taps.
    @inlinable @inline(__always)
    func delivered(_ packet: consuming PlumbingPacket<Payload>) -> PlumbingOutcome<Payload> {
        sink?(packet)
        let outcome = PlumbingOutcome(
            packet: packet, stage: nil, stagesPassed: count, stageCount: count, reason: nil,
            plumber: plumber)
        for tap in taps { tap(outcome) }
        return outcome
    }

    @usableFromInline
    func stopped(
        _ packet: PlumbingPacket<Payload>, at index: Int, _ reason: PlumbingStopReason
    ) -> PlumbingOutcome<Payload> {
        let stop = PlumbingOutcome(
            packet: packet, stage: index < count ? storage.names[index] : nil,
            stagesPassed: index, stageCount: count, reason: reason, plumber: plumber)
        report(stop)
        return stop
    }

    /// Tells the stop observer, then the taps.
    @usableFromInline
    func report(_ stop: PlumbingOutcome<Payload>) {
        onStop?(stop)
        for tap in taps { tap(stop) }
    }

    /// How an instrument sees `outcome`: delivered, failed (a stage threw) or stopped.
    @usableFromInline
    static func instrumentedOutcome(_ outcome: PlumbingOutcome<Payload>) -> InstrumentedOutcome {
        guard let reason = outcome.reason else { return .succeeded }
        if let error = reason.error { return .failed(error) }
        return .stopped("\(reason)")
    }
}
