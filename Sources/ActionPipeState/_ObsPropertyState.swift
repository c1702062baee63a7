/// What an ``ObservedProperty`` guards with its lock: the value and the observers.
///
/// The value comes last: every field before it then sits at an offset that does not depend on
/// `Value`, so unspecialised code (observing, cancelling) reaches them without looking up
/// this type's metadata.
@usableFromInline
struct _ObsPropertyState<Value: Sendable> {
    /// Every observer, in registration order. The list a set reads is built
    /// from it lazily: observing marks it stale, and the next set rebuilds it once for a
    /// whole burst of changes. Cancelling an observer that the published list holds rebuilds
    /// it at once while fewer than 64 observers remain, or once as many were cancelled since
    /// the last build as remain: a cancelled observer is released promptly in the common
    /// case, and n cancels never cost O(n²).
    @usableFromInline var table = _ObsTable()
    // The words first, then the smaller fields: fewer bytes of padding.
    /// Counts stores, so ``ObservedProperty/modify(_:)`` can tell whether another store came
    /// between its read and its write.
    @usableFromInline var version: UInt64 = 0
    /// The registrar of Swift Observation's trackers, when ``trackingMode`` is `.on`.
    @usableFromInline var tracking: _ObsTracking<Value>?
    /// Cancels of listed observers since the list was built. 32 bits, so that it shares a
    /// word with the flags: it never exceeds the observers, each of which takes far more
    /// than 4 bytes.
    @usableFromInline var cancelledSinceBuilt: UInt32 = 0

    /// Whether the list a set reads is out of date.
    @usableFromInline var listIsStale = false
    /// Whether the value was read through Swift Observation since the last store: only then
    /// can an Observation tracker wait for the next change (trackers are registered by
    /// reads and end at the change), so only then does a store tell ``tracking``.
    @usableFromInline var readSinceStore = false
    /// Whether reads through the `@Observed` wrapper take part in Swift Observation:
    /// decided at the first such read, then kept.
    @usableFromInline var trackingMode = _ObsTrackingMode.undecided
    /// Whether a store must take the slow path: the list is stale, or Observation must be
    /// told.
    @inlinable var storeNeedsSlowPath: Bool { listIsStale || readSinceStore }

    /// The value; last, for the reason above.
    @usableFromInline var value: Value

    @usableFromInline
    init(value: Value) { self.value = value }
}

/// Whether a property's reads through its wrapper take part in Swift Observation.
@usableFromInline
enum _ObsTrackingMode: UInt8 {
    /// Not read through the wrapper yet.
    case undecided
    /// The enclosing class is not `Observable`.
    case off
    /// Reads are recorded, stores reported: see ``_ObsPropertyState/tracking``.
    case on
}
