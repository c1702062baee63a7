import ActionPipeConcurrency
import Synchronization

/// Where the process's ``Instrument`` is installed. With none (the default), the parts pay
/// one relaxed atomic load per operation.
///
/// ```swift
/// Instrumentation.install(LogInstrument())
/// defer { Instrumentation.uninstall() }
/// ```
public enum Instrumentation {
    /// Installs `instrument` for the whole process, replacing the previous one. Operations
    /// that began before end with the instrument that saw them begin.
    ///
    /// - Complexity: O(1).
    public static func install(_ instrument: some Instrument) { replace(with: instrument) }

    /// Removes the installed instrument: operations that begin from now on are not observed.
    ///
    /// - Complexity: O(1).
    public static func uninstall() { replace(with: nil) }

    private static func replace(with instrument: (any Instrument)?) {
        // The flag is stored with the instrument, under the lock: after unlocking, a racing
        // uninstall could leave the flag and the instrument disagreeing.
        let old = _installed.withLock { installed in
            defer {
                installed = instrument
                _instrumentationFlag.pointee.store(instrument != nil, ordering: .releasing)
            }
            return installed
        }
        withExtendedLifetime(old) {}  // released after unlocking
    }

    /// The installed instrument, if any.
    public static var instrument: (any Instrument)? { _installed.withLock { $0 } }

    /// Hot paths read ``_instrumentationFlag`` through a copy of its address in their
    /// snapshot: the global costs a call to its lazy-initialisation accessor.
    @inlinable @inline(__always)
    package static var isOn: Bool { _instrumentationFlag.pointee.load(ordering: .relaxed) }

    /// `nil` when no instrument is installed. Only the parts' instrumented (slow) path.
    @usableFromInline
    package static func begin(
        _ kind: InstrumentedOperation.Kind, name: String, detail: String
    ) -> _InstrumentedSpan? {
        guard let instrument = instrument else { return nil }
        let operation = InstrumentedOperation(kind: kind, name: name, detail: detail)
        let context = instrument.begin(operation)
        return _InstrumentedSpan(
            instrument: instrument, operation: operation, context: context,
            start: ContinuousClock.now)
    }
}

/// An operation under way.
@usableFromInline
package struct _InstrumentedSpan: Sendable {
    let instrument: any Instrument
    let operation: InstrumentedOperation
    let context: (any Sendable)?
    let start: ContinuousClock.Instant

    @usableFromInline
    package func end(_ outcome: InstrumentedOutcome) {
        instrument.end(
            operation, context: context, duration: ContinuousClock.now - start,
            outcome: outcome)
    }
}

/// Allocated once and never freed, so snapshots can copy its address. `nonisolated(unsafe)`:
/// the pointer never changes, and the flag is atomic.
@usableFromInline nonisolated(unsafe) package let _instrumentationFlag:
    UnsafeMutablePointer<Atomic<Bool>> = {
        let flag = UnsafeMutablePointer<Atomic<Bool>>.allocate(capacity: 1)
        flag.initialize(to: Atomic(false))
        return flag
    }()

private let _installed = LockedValue<(any Instrument)?>(nil)
