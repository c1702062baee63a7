/// What an ``ObservedProperty`` guards with its lock: the value and the observers.
@usableFromInline
struct _ObsPropertyState<Value: Sendable> {
    @usableFromInline var value: Value
    /// Every observer, by id (ids give registration order). The list a set reads is built
    /// from it lazily: observing marks it stale, and the next set rebuilds it once for a
    /// whole burst of changes. Cancelling rebuilds it at once while fewer than 64 observers
    /// remain, or once as many were cancelled since the last build as remain: a cancelled
    /// observer is released promptly in the common case, and n cancels never cost O(n²).
    @usableFromInline var table = _ObsTable<Value>()
    @usableFromInline var cancelledSinceBuilt = 0
    /// Whether the list a set reads is out of date.
    @usableFromInline var listIsStale = false

    @usableFromInline
    init(value: Value) { self.value = value }
}
