import ActionPipeConcurrency
import Synchronization

/// Where the process's ``Instrument`` is installed; with none, an operation pays one
/// relaxed atomic load.
public enum Instrumentation {
    /// Installs `instrument` for the whole process, replacing the previous one (operations
    /// under way end with the instrument that saw them begin).
    ///
    /// - Complexity: O(1).
    public static func install(_ instrument: some Instrument) { replace(with: instrument) }

    /// Removes the installed instrument.
    ///
    /// - Complexity: O(1).
    public static func uninstall() { replace(with: nil) }

    private static func replace(with instrument: (any Instrument)?) {
        // The flag is stored under the lock, so racing changes leave it agreeing.
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

    /// Hot paths read a copy of ``_instrumentationFlag``'s address instead: no lazy accessor.
    @inlinable @inline(__always)
    package static var isOn: Bool { _instrumentationFlag.pointee.load(ordering: .relaxed) }

    /// `nil` when no instrument is installed.
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

/// Never freed, so hot paths copy its address. `nonisolated(unsafe)`: the pointer never
/// changes, and the flag is atomic.
@usableFromInline nonisolated(unsafe) package let _instrumentationFlag:
    UnsafeMutablePointer<Atomic<Bool>> = {
        let flag = UnsafeMutablePointer<Atomic<Bool>>.allocate(capacity: 1)
        flag.initialize(to: Atomic(false))
        return flag
    }()

private let _installed = LockedValue<(any Instrument)?>(nil)
