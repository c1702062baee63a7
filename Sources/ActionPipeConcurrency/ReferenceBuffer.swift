/// An immutable buffer in one allocation: a header, `count` elements that each refer,
/// `Unretained`, to one object the buffer owns, then `tailCount` values (an index, keys),
/// destroyed in `deinit`. Readers borrow the objects with no reference counting while they
/// keep the buffer alive (a pin of the snapshot that holds it). The one place the parts'
/// snapshots retain and release the objects their readers borrow; the header's values are
/// ordinary, counted ones.
///
/// Not `Sendable` (a managed buffer cannot be), yet shared: immutable after ``make``.
@usableFromInline
package final class ReferenceBuffer<Header, Element: ReferenceBufferElement, Tail>:
    ManagedBuffer<(header: Header, count: Int, tailCount: Int), Element>
{
    /// `header`, then the `count` elements `fill` appends in order (the maker passes each
    /// object unretained and keeps it alive until `make` returns; the buffer retains it),
    /// then `tail`.
    @inlinable
    package static func make(
        _ header: Header, count: Int, tail: [Tail] = [], _ fill: ((Element) -> Void) -> Void
    ) -> ReferenceBuffer {
        let stride = MemoryLayout<Element>.stride
        let padding = Swift.max(0, MemoryLayout<Tail>.alignment - MemoryLayout<Element>.alignment)
        let tailBytes = tail.isEmpty ? 0 : padding + tail.count * MemoryLayout<Tail>.stride
        let buffer = unsafeDowncast(
            create(minimumCapacity: count + (tailBytes + stride - 1) / stride) { _ in
                (header, count, tail.count)
            }, to: ReferenceBuffer.self)
        var made = 0
        fill { element in
            precondition(made < count, "ReferenceBuffer: more elements than its count")
            _ = element.owned.reference.retain()
            (buffer.elements + made).initialize(to: element)
            made += 1
        }
        precondition(made == count, "ReferenceBuffer: fewer elements than its count")
        UnsafeMutableRawPointer(buffer.tail).bindMemory(to: Tail.self, capacity: tail.count)
            .initialize(from: tail, count: tail.count)
        return buffer
    }

    deinit {
        // An owner releases its buffer with no lock held: an object's last reference (and
        // user code it captured) may go here.
        for index in 0..<count { elements[index].owned.reference.release() }
        tail.deinitialize(count: tailCount)
    }

    /// The header and counts by address: `header`, a class's stored `var`, is exclusivity-checked.
    @inlinable @inline(__always)
    package var fields: UnsafeMutablePointer<(header: Header, count: Int, tailCount: Int)> {
        withUnsafeMutablePointerToHeader { $0 }
    }

    @inlinable @inline(__always)
    package var count: Int { fields.pointee.count }

    /// In the order `make` appended them.
    @inlinable @inline(__always)
    package var elements: UnsafeMutablePointer<Element> {
        withUnsafeMutablePointerToElements { $0 }
    }

    @inlinable @inline(__always)
    package var tailCount: Int { fields.pointee.tailCount }

    /// After the elements.
    @inlinable @inline(__always)
    package var tail: UnsafeMutablePointer<Tail> {
        let end = UnsafeMutableRawPointer(elements + count)
        // Known when compiled: a tail aligned no wider than the elements starts at their end.
        let start =
            MemoryLayout<Tail>.alignment <= MemoryLayout<Element>.alignment
            ? end : end.alignedUp(for: Tail.self)
        return start.assumingMemoryBound(to: Tail.self)
    }
}

/// An element of a ``ReferenceBuffer``: a plain value (reading one copies no reference) that
/// refers to one object, which the buffer retains in `make` and releases in `deinit`.
@usableFromInline
package protocol ReferenceBufferElement: BitwiseCopyable {
    /// The object's class.
    associatedtype Object: AnyObject
    /// Made with `Unretained(_:)`: the buffer, not the element, counts the reference.
    var owned: Unretained<Object> { get }
}

extension Unretained: ReferenceBufferElement {
    /// Itself: a buffer of objects alone.
    @inlinable @inline(__always)
    package var owned: Unretained { self }
}
