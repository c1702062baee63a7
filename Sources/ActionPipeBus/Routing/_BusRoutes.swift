import ActionPipeConcurrency

/// The immutable routes of one event type: every subtype's list in turn, any-subtype first,
/// walked with no reference counting; each exact subtype's span is in the tail.
@usableFromInline
typealias _BusRoutes<Event: BusEvent> = ReferenceBuffer<
    _BusRoutesHeader<Event>, Unretained<_BusEntry<Event>>, _BusSubtypeList<Event>
>

// Each method names the event type: an extension of a generic type cannot.
extension ReferenceBuffer {
    /// Above this many subtypes, lookups hash.
    @usableFromInline static var linearLimit: Int { 8 }

    /// Of `entries` in subscription (id) order, in O(n × s) for s exact subtypes.
    static func make<Event>(_ entries: [_BusEntry<Event>]) -> ReferenceBuffer
    where ReferenceBuffer == _BusRoutes<Event> {
        var positions: [Event.Subtype: Int] = [:]
        var lists: [(subtype: Event.Subtype, entries: [_BusEntry<Event>])] = []
        var anySubtype: [_BusEntry<Event>] = []
        for entry in entries {
            if let subtype = entry.subtype {
                if let position = positions[subtype] {
                    lists[position].entries.append(entry)
                } else {
                    // Starts with the any-subtype entries before it, keeping id order.
                    positions[subtype] = lists.count
                    lists.append((subtype, anySubtype + [entry]))
                }
            } else {
                anySubtype.append(entry)
                for position in lists.indices { lists[position].entries.append(entry) }
            }
        }
        var start = anySubtype.count
        var tail: [_BusSubtypeList<Event>] = []
        for (subtype, entries) in lists {
            tail.append(_BusSubtypeList(subtype: subtype, start: start, count: entries.count))
            start += entries.count
        }
        let header = _BusRoutesHeader<Event>(
            anySubtypeCount: anySubtype.count, index: lists.count > linearLimit ? positions : nil)
        // Unretained: `entries` holds them until the buffer retains them.
        return make(header, count: start, tail: tail) { append in
            for entry in anySubtype + lists.flatMap(\.entries) { append(Unretained(entry)) }
        }
    }

    /// Calls `body` with each entry that gets `subtype`, in subscription order, borrowed:
    /// O(s) for s ≤ `linearLimit` exact subtypes (a hash beyond), plus O(k).
    @inlinable @inline(__always)
    func forEach<Event>(for subtype: Event.Subtype, _ body: (_BusEntry<Event>) -> Void)
    where ReferenceBuffer == _BusRoutes<Event> {
        var span = (start: 0, count: fields.pointee.header.anySubtypeCount)
        let lists = tail
        let listCount = tailCount
        if listCount > Self.linearLimit {
            span = hashedSpan(of: subtype, else: span)
        } else {
            for position in 0..<listCount where lists[position].subtype == subtype {
                span = (lists[position].start, lists[position].count)
                break
            }
        }
        for entry in UnsafeBufferPointer(start: elements + span.start, count: span.count) {
            entry.with(body)
        }
    }

    /// Out of line, so a publish's lookup stays small enough to inline.
    @usableFromInline @inline(never)
    func hashedSpan<Event>(of subtype: Event.Subtype, else any: (start: Int, count: Int))
        -> (start: Int, count: Int) where ReferenceBuffer == _BusRoutes<Event>
    {
        guard let position = fields.pointee.header.index.unsafelyUnwrapped[subtype] else {
            return any
        }
        return (tail[position].start, tail[position].count)
    }

    /// Retained, for paths that keep them past the walk (feedback, executors).
    func entries<Event>(for subtype: Event.Subtype) -> [_BusEntry<Event>]
    where ReferenceBuffer == _BusRoutes<Event> {
        var entries: [_BusEntry<Event>] = []
        forEach(for: subtype) { entries.append($0) }
        return entries
    }
}

/// Read in place by a publish: a dictionary read as a value would be retained.
@usableFromInline
struct _BusRoutesHeader<Event: BusEvent> {
    /// The any-subtype list: the buffer's first entries.
    @usableFromInline let anySubtypeCount: Int
    /// Only past `linearLimit` subtypes: each one's place in the tail.
    let index: [Event.Subtype: Int]?
}

/// An exact subtype and the span of its list (any-subtype entries merged in id order).
@usableFromInline
struct _BusSubtypeList<Event: BusEvent> {
    @usableFromInline let subtype: Event.Subtype
    @usableFromInline let start: Int
    @usableFromInline let count: Int
}
