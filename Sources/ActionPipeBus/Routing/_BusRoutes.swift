import ActionPipeConcurrency

/// The immutable routing table of one event type: who gets an event of each subtype, in
/// subscription order. A change builds a new one; a publish reads the current one.
///
/// The lists hold their entries through `Unretained`, retained once per place by `make` and
/// released in `deinit`: a publish keeps the routes object alive while it delivers, and
/// borrows each entry in turn (``forEach(for:_:)``), so walking a list costs no reference
/// counting.
///
/// A managed buffer whose elements are the spans: a publish reads its list's span in the
/// routes object itself, not through a pointer stored there (one dependent load less
/// between the publish's pin and its handler call).
@usableFromInline
final class _BusRoutes<Event: BusEvent>:
    ManagedBuffer<_BusRoutesHeader<Event>, (start: Int, count: Int)>
{
    // Not `Sendable` (no managed buffer can be), though shared between threads: immutable
    // after `make` (the header's raw buffers are written once there and freed in `deinit`),
    // and reached only through the bus's route table and lock.

    /// Above this many subtypes, lookups hash instead of scanning.
    @usableFromInline static var linearLimit: Int { 8 }

    /// Routes for `entries`, which are in subscription (id) order.
    ///
    /// - Complexity: O(n × s) for n entries and s subtypes with exact subscriptions (each
    ///   any-subtype entry joins every subtype's list).
    static func make(_ entries: [_BusEntry<Event>]) -> _BusRoutes<Event> {
        var subtypes: [Event.Subtype] = []
        var positions: [Event.Subtype: Int] = [:]
        var lists: [[_BusEntry<Event>]] = []
        var anySubtype: [_BusEntry<Event>] = []
        for entry in entries {
            if let subtype = entry.subtype {
                if let position = positions[subtype] {
                    lists[position].append(entry)
                } else {
                    // A subtype's list starts with the any-subtype entries subscribed before
                    // it, so the merged list stays in id order.
                    positions[subtype] = lists.count
                    subtypes.append(subtype)
                    lists.append(anySubtype + [entry])
                }
            } else {
                anySubtype.append(entry)
                for position in lists.indices { lists[position].append(entry) }
            }
        }
        lists.append(anySubtype)
        let total = lists.reduce(0) { $0 + $1.count }
        let flat = UnsafeMutablePointer<Unretained<_BusEntry<Event>>>.allocate(
            capacity: Swift.max(total, 1))
        let subtypeStorage = UnsafeMutablePointer<Event.Subtype>.allocate(
            capacity: Swift.max(subtypes.count, 1))
        subtypeStorage.initialize(from: subtypes, count: subtypes.count)
        let header = _BusRoutesHeader(
            subtypes: subtypeStorage, subtypeCount: subtypes.count,
            index: subtypes.count > linearLimit ? positions : nil, flat: flat, flatCount: total)
        let routes = knownCast(
            create(minimumCapacity: lists.count) { _ in header }, to: _BusRoutes<Event>.self)
        routes.withUnsafeMutablePointerToElements { spans in
            var start = 0
            for (position, list) in lists.enumerated() {
                for (offset, entry) in list.enumerated() {
                    (flat + start + offset).initialize(to: .retaining(entry))
                }
                (spans + position).initialize(to: (start, list.count))
                start += list.count
            }
        }
        return routes
    }

    /// Releases the entries; runs where the bus drops a replaced table, after unlocking
    /// (an entry's handler may capture what calls back into the bus when freed).
    deinit {
        withUnsafeMutablePointerToHeader { header in
            for position in 0..<header.pointee.flatCount { header.pointee.flat[position].release() }
            header.pointee.flat.deallocate()
            header.pointee.subtypes.deinitialize(count: header.pointee.subtypeCount)
            header.pointee.subtypes.deallocate()
        }
    }

    /// Calls `body` with each entry that gets an event of `subtype`, in subscription order,
    /// borrowed: no reference is counted, and no entry outlives the call.
    ///
    /// - Complexity: O(s) to find the list for s ≤ `linearLimit` subtypes with exact
    ///   subscriptions (a hash beyond), then O(k) plus `body` for k entries.
    @inlinable @inline(__always)
    func forEach(for subtype: Event.Subtype, _ body: (_BusEntry<Event>) -> Void) {
        // The list is found inside the pointers' closure and walked outside it: walked
        // inside, it was reloaded from the stack for every entry.
        let list = withUnsafeMutablePointers { header, spans in
            let subtypes = header.pointee.subtypes
            let count = header.pointee.subtypeCount
            var position = count  // the any-subtype list, unless the subtype has one
            if count > Self.linearLimit {
                position = hashedPosition(of: subtype)
            } else {
                for candidate in 0..<count where subtypes[candidate] == subtype {
                    position = candidate
                    break
                }
            }
            let span = spans[position]
            return UnsafeBufferPointer(start: header.pointee.flat + span.start, count: span.count)
        }
        for entry in list { entry.with(body) }
    }

    /// The list position of `subtype` when there are many; out of line, so a publish's
    /// lookup stays small enough to be inlined.
    ///
    /// - Complexity: O(1) on average: one hash.
    @usableFromInline @inline(never)
    func hashedPosition(of subtype: Event.Subtype) -> Int {
        header.index.unsafelyUnwrapped[subtype] ?? header.subtypeCount
    }

    /// The entries that get an event of `subtype`, retained, in subscription order: for the
    /// paths that keep them past the walk (feedback, waiting for executors).
    ///
    /// - Complexity: O(k) for k entries.
    func entries(for subtype: Event.Subtype) -> [_BusEntry<Event>] {
        var entries: [_BusEntry<Event>] = []
        forEach(for: subtype) { entries.append($0) }
        return entries
    }
}

/// What a ``_BusRoutes`` keeps besides its spans. Only plain values and raw buffers are read
/// by a publish, through a pointer: reading an array or a dictionary there would retain it.
@usableFromInline
struct _BusRoutesHeader<Event: BusEvent> {
    /// The subtypes that have exact subscriptions, `subtypeCount` of them; subtype `i`'s
    /// list is span `i`, and span `subtypeCount` is the any-subtype entries alone (for every
    /// other subtype).
    @usableFromInline let subtypes: UnsafeMutablePointer<Event.Subtype>
    /// How many subtypes have exact subscriptions.
    @usableFromInline let subtypeCount: Int
    /// For many subtypes, the index of each subtype's list; `nil` for few (a linear scan of
    /// `subtypes` is faster than hashing then).
    let index: [Event.Subtype: Int]?
    /// Every list, one after another: per subtype, its exact subscriptions and the
    /// any-subtype ones merged in id order; last, the any-subtype ones alone. Each place
    /// holds its entry retained (released by the routes' `deinit`). One raw buffer rather
    /// than an array of arrays: reading an inner array retains it.
    @usableFromInline let flat: UnsafeMutablePointer<Unretained<_BusEntry<Event>>>
    /// How many places `flat` has, all of them initialised.
    let flatCount: Int
}
