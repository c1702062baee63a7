/// An event kept for late subscribers by `EventBus.publishSticky`, with its place in the
/// order of sticky changes and its subtype, erased.
@usableFromInline
struct _BusStickyEvent: Sendable {
    let order: UInt64
    let event: any BusEvent
    let subtype: _BusErasedSubtype
}

/// The sticky events of one ``_BusStickySlot``, with the stamp of the change that stored
/// them: unique to that change (the bus's `stickyStamp` only grows), so a change prepared
/// with no lock held can tell whether the slot changed meanwhile.
@usableFromInline
struct _BusStickyList: Sendable {
    let stamp: UInt64
    let events: [_BusStickyEvent]
}

/// Where the bus keeps sticky events: their event type and their subtype's hash, both
/// computed with no lock held (a subtype's hash may be the app's code), so that the bus's
/// lock only ever hashes these two integers. Events of equal subtypes share a slot, and so
/// do the rare unequal ones whose hashes collide; subtypes are compared after unlocking.
@usableFromInline
struct _BusStickySlot: Hashable, Sendable {
    let type: ObjectIdentifier
    let subtypeHash: Int

    /// The slot of `subtype`'s events of type `Event`.
    init<Event: BusEvent>(_ type: Event.Type, _ subtype: _BusErasedSubtype) {
        self.type = ObjectIdentifier(type)
        subtypeHash = subtype.hashValue
    }
}
