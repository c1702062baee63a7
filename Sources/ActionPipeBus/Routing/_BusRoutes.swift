import ActionPipeConcurrency

/// The immutable routing table of one event type: who gets each subtype, in subscription
/// order. The lists hold entries `Unretained` (retained once by `make`), so a publish,
/// keeping the routes alive, walks them with no reference counting. A managed buffer of
/// spans: a publish reads its span in the object, one dependent load less.
@usableFromInline
final class _BusRoutes<Event: BusEvent>:
    ManagedBuffer<_BusRoutesHeader<Event>, (start: Int, count: Int)>
{
    // Not `Sendable` (a managed buffer cannot be), yet shared: immutable after `make`, and
    // reached only through the bus's route table and lock.

    /// Above this many subtypes, lookups hash.
    @usableFromInline static var linearLimit: Int { 8 }

    /// `entries` are in subscription (id) order.
    ///
    /// - Complexity: O(n × s) for n entries and s subtypes with exact subscriptions.
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
                    // Starts with the any-subtype entries before it, keeping id order.
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

    /// Runs after unlocking: an entry's handler may capture what calls back into the bus.
    deinit {
        withUnsafeMutablePointerToHeader { header in
            for position in 0..<header.pointee.flatCount { header.pointee.flat[position].release() }
            header.pointee.flat.deallocate()
            header.pointee.subtypes.deinitialize(count: header.pointee.subtypeCount)
            header.pointee.subtypes.deallocate()
        }
    }

    /// Calls `body` with each entry that gets `subtype`, in subscription order, borrowed.
    ///
    /// - Complexity: O(s) for s ≤ `linearLimit` exact subtypes (a hash beyond), then O(k)
    ///   plus `body` for k entries.
    @inlinable @inline(__always)
    func forEach(for subtype: Event.Subtype, _ body: (_BusEntry<Event>) -> Void) {
        // Found inside the closure, walked outside: inside, it was reloaded per entry.
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

    /// Out of line, so a publish's lookup stays small enough to inline.
    @usableFromInline @inline(never)
    func hashedPosition(of subtype: Event.Subtype) -> Int {
        header.index.unsafelyUnwrapped[subtype] ?? header.subtypeCount
    }

    /// Retained, for paths that keep them past the walk (feedback, executors).
    ///
    /// - Complexity: O(k) for k entries.
    func entries(for subtype: Event.Subtype) -> [_BusEntry<Event>] {
        var entries: [_BusEntry<Event>] = []
        forEach(for: subtype) { entries.append($0) }
        return entries
    }
}

/// Besides the spans. A publish reads only plain values and raw buffers, through a pointer:
/// an array or dictionary would be retained.
@usableFromInline
struct _BusRoutesHeader<Event: BusEvent> {
    /// Subtype `i`'s list is span `i`; span `subtypeCount` is the any-subtype entries alone.
    @usableFromInline let subtypes: UnsafeMutablePointer<Event.Subtype>
    @usableFromInline let subtypeCount: Int
    /// Only for many subtypes (a scan is faster for few).
    let index: [Event.Subtype: Int]?
    /// Every list in turn, each place retained (released in `deinit`). One raw buffer: an
    /// inner array would be retained on reading.
    @usableFromInline let flat: UnsafeMutablePointer<Unretained<_BusEntry<Event>>>
    /// All initialised.
    let flatCount: Int
}
