/// The immutable routing table of one event type: who gets an event of each subtype, in
/// subscription order. A change builds a new one; a publish reads the current one.
///
/// The lists hold unretained references: `entries` keeps every entry alive for as long as
/// the routes object lives, and a publish keeps the routes object alive while it delivers,
/// so walking a list costs no reference counting.
@usableFromInline
final class _BusRoutes<Event: BusEvent>: @unchecked Sendable {
    // `@unchecked Sendable`: immutable after `init`; `flat` and `spans` are raw buffers
    // written once there and freed in `deinit`.

    /// Every entry of the event type: what keeps the unretained lists valid.
    let entries: [_BusEntry<Event>]
    /// The subtypes that have exact subscriptions; subtype `i`'s list is span `i`.
    @usableFromInline let subtypes: ContiguousArray<Event.Subtype>
    /// For many subtypes, the index of each subtype's list; `nil` for few (a linear scan of
    /// `subtypes` is faster than hashing then).
    @usableFromInline let index: [Event.Subtype: Int]?
    /// Every list, one after another: per subtype in `subtypes`, its exact subscriptions
    /// and the any-subtype ones merged in id order; last, the any-subtype ones alone (for
    /// every other subtype). One raw buffer rather than an array of arrays: reading an
    /// inner array retains it, which cost a retain and a release per publish.
    @usableFromInline let flat: UnsafeMutablePointer<Unmanaged<_BusEntry<Event>>>
    /// Per list, where it starts in `flat` and how long it is; the last is the any-subtype
    /// list.
    @usableFromInline let spans: UnsafeMutablePointer<(start: Int, count: Int)>
    @usableFromInline let spanCount: Int

    /// Above this many subtypes, lookups hash instead of scanning.
    @usableFromInline static var linearLimit: Int { 8 }

    /// Routes for `entries`, which are in subscription (id) order.
    init(_ entries: [_BusEntry<Event>]) {
        self.entries = entries
        var subtypes = ContiguousArray<Event.Subtype>()
        var positions: [Event.Subtype: Int] = [:]
        var lists: [[Unmanaged<_BusEntry<Event>>]] = []
        var anySubtype: [Unmanaged<_BusEntry<Event>>] = []
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
        lists.append(anySubtype)
        self.subtypes = subtypes
        index = subtypes.count > Self.linearLimit ? positions : nil
        let total = lists.reduce(0) { $0 + $1.count }
        flat = .allocate(capacity: Swift.max(total, 1))
        spans = .allocate(capacity: lists.count)
        spanCount = lists.count
        var start = 0
        for (position, list) in lists.enumerated() {
            (flat + start).initialize(from: list, count: list.count)
            (spans + position).initialize(to: (start, list.count))
            start += list.count
        }
    }

    deinit {
        flat.deallocate()
        spans.deallocate()
    }

    /// The entries that get an event of `subtype`, in subscription order, unretained:
    /// valid while this routes object lives.
    @inlinable @inline(__always)
    func list(for subtype: Event.Subtype) -> UnsafeBufferPointer<Unmanaged<_BusEntry<Event>>> {
        var position = spanCount &- 1  // the any-subtype list, unless the subtype has one
        if index != nil {
            position = hashedPosition(of: subtype)
        } else {
            for candidate in subtypes.indices where subtypes[candidate] == subtype {
                position = candidate
                break
            }
        }
        let span = spans[position]
        return UnsafeBufferPointer(start: flat + span.start, count: span.count)
    }

    /// The list position of `subtype` when there are many; out of line, so a publish's
    /// lookup stays small enough to be inlined.
    @inlinable @inline(never)
    func hashedPosition(of subtype: Event.Subtype) -> Int {
        index.unsafelyUnwrapped[subtype] ?? spanCount &- 1
    }

    /// The entries that get an event of `subtype`, retained, in subscription order.
    func entries(for subtype: Event.Subtype) -> [_BusEntry<Event>] {
        list(for: subtype).map { $0.takeUnretainedValue() }
    }
}
