/// What an ``ObservedProperty`` guards with its lock. The value comes last, so every other
/// field's offset is independent of `Value` and unspecialised code needs no metadata.
@usableFromInline
struct _ObsPropertyState<Value: Sendable> {
    /// Every observer, in registration order; the published list is rebuilt from it lazily.
    @usableFromInline var table = _ObsTable()
    /// Lets ``ObservedProperty/modify(_:)`` tell whether a store came between read and write.
    @usableFromInline var version: UInt64 = 0
    @usableFromInline var tracking: _ObsTracking<Value>?
    /// Cancels of listed observers since the list was built; 32 bits, to share a word.
    @usableFromInline var cancelledSinceBuilt: UInt32 = 0

    @usableFromInline var listIsStale = false
    /// Whether the value was ever read through Observation; never cleared (a tracker is
    /// installed only when its `apply` returns, and a store in between must not lose it).
    @usableFromInline var readByTracking = false
    /// Decided at the first read through the wrapper, then kept.
    @usableFromInline var trackingMode = _ObsTrackingMode.undecided
    @inlinable var storeNeedsSlowPath: Bool { listIsStale || readByTracking }

    @usableFromInline var value: Value
}

/// Whether a property's reads through its wrapper take part in Swift Observation.
@usableFromInline
enum _ObsTrackingMode: UInt8 {
    case undecided, off, on
}
