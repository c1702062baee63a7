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
    /// Whether the value was ever read through Swift Observation: from then on every store
    /// tells ``tracking``, as an `@Observable` class's stores do. (Not cleared by a store: a
    /// tracker registered by a read is installed only when its `apply` returns, so a store
    /// made in between, on any thread, must not stop the next ones from telling it.)
    @usableFromInline var readByTracking = false
    /// Whether reads through the `@Observed` wrapper take part in Swift Observation:
    /// decided at the first such read, then kept.
    @usableFromInline var trackingMode = _ObsTrackingMode.undecided
    /// Whether a store must take the slow path: the list is stale, or Observation must be
    /// told.
    @inlinable var storeNeedsSlowPath: Bool { listIsStale || readByTracking }

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
