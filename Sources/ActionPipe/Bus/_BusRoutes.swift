/// The immutable routing table of one event type: who gets an event of each subtype, in
/// subscription order. A change builds a new one; a publish reads the current one.
final class _BusRoutes<Event: BusEvent>: Sendable {
    /// Per subtype that has exact subscriptions: those and the any-subtype ones, merged.
    let bySubtype: [Event.Subtype: ContiguousArray<_BusEntry<Event>>]
    /// For every other subtype: the any-subtype subscriptions.
    let anySubtype: ContiguousArray<_BusEntry<Event>>

    /// Routes for `entries`, which are in subscription (id) order.
    init(_ entries: [_BusEntry<Event>]) {
        var bySubtype: [Event.Subtype: ContiguousArray<_BusEntry<Event>>] = [:]
        var anySubtype: ContiguousArray<_BusEntry<Event>> = []
        for entry in entries {
            if let subtype = entry.subtype {
                if bySubtype[subtype] == nil {
                    // A subtype's list starts with the any-subtype entries subscribed
                    // before it, so the merged list stays in id order.
                    bySubtype[subtype] = anySubtype
                }
                bySubtype[subtype]!.append(entry)
            } else {
                anySubtype.append(entry)
                for key in bySubtype.keys {
                    bySubtype[key]!.append(entry)
                }
            }
        }
        self.bySubtype = bySubtype
        self.anySubtype = anySubtype
    }

    /// The subscribers of `subtype`, in order.
    func entries(for subtype: Event.Subtype) -> ContiguousArray<_BusEntry<Event>> {
        bySubtype[subtype] ?? anySubtype
    }
}
