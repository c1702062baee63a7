/// The immutable routing table of one event type: who gets an event of each subtype, in
/// subscription order. A change builds a new one; a publish reads the current one.
///
/// The lists hold unretained references: `entries` keeps every entry alive for as long as
/// the routes object lives, and a publish keeps the routes object alive while it delivers,
/// so walking a list costs no reference counting.
@usableFromInline
final class _BusRoutes<Event: BusEvent>: Sendable {
    /// Every entry of the event type: what keeps the unretained lists valid.
    let entries: [_BusEntry<Event>]
    /// The subtypes that have exact subscriptions, and the index of their list in `lists`.
    @usableFromInline let subtypes: ContiguousArray<Event.Subtype>
    /// For many subtypes, the index of each subtype's list; `nil` for few (a linear scan of
    /// `subtypes` is faster than hashing then).
    @usableFromInline let index: [Event.Subtype: Int]?
    /// Per subtype in `subtypes`: its exact subscriptions and the any-subtype ones, merged
    /// in id order.
    @usableFromInline let lists: ContiguousArray<ContiguousArray<Unmanaged<_BusEntry<Event>>>>
    /// For every other subtype: the any-subtype subscriptions.
    @usableFromInline let anySubtype: ContiguousArray<Unmanaged<_BusEntry<Event>>>

    /// Above this many subtypes, lookups hash instead of scanning.
    @usableFromInline static var linearLimit: Int { 8 }

    /// Routes for `entries`, which are in subscription (id) order.
    init(_ entries: [_BusEntry<Event>]) {
        self.entries = entries
        var subtypes = ContiguousArray<Event.Subtype>()
        var positions: [Event.Subtype: Int] = [:]
        var lists = ContiguousArray<ContiguousArray<Unmanaged<_BusEntry<Event>>>>()
        var anySubtype = ContiguousArray<Unmanaged<_BusEntry<Event>>>()
        for entry in entries {
            let reference = Unmanaged.passUnretained(entry)
            if let subtype = entry.subtype {
                if let position = positions[subtype] {
                    lists[position].append(reference)
                } else {
                    // A subtype's list starts with the any-subtype entries subscribed before
                    // it, so the merged list stays in id order.
                    positions[subtype] = lists.count
                    subtypes.append(subtype)
                    lists.append(anySubtype + [reference])
                }
            } else {
                anySubtype.append(reference)
                for position in lists.indices { lists[position].append(reference) }
            }
        }
        self.subtypes = subtypes
        index = subtypes.count > Self.linearLimit ? positions : nil
        self.lists = lists
        self.anySubtype = anySubtype
    }

    /// Calls `body` with the subscribers of `subtype`, in order.
    @inlinable
    func withEntries<Result>(
        for subtype: Event.Subtype,
        _ body: (borrowing ContiguousArray<Unmanaged<_BusEntry<Event>>>) -> Result
    ) -> Result {
        if let index {
            guard let position = index[subtype] else { return body(anySubtype) }
            return body(lists[position])
        }
        for position in subtypes.indices where subtypes[position] == subtype {
            return body(lists[position])
        }
        return body(anySubtype)
    }

    /// The subscribers of `subtype`, in order, retained (for the paths that may allocate).
    func entries(for subtype: Event.Subtype) -> [_BusEntry<Event>] {
        withEntries(for: subtype) { list in list.map { $0.takeUnretainedValue() } }
    }
}
