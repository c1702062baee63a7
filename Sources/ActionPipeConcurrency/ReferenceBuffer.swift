/// An immutable list of objects in one allocation, which it retains, lent one at a time
/// inside a closure without reference counting; a reader keeps the buffer alive (a pin).
@usableFromInline
package final class ReferenceBuffer<Element: AnyObject>: ManagedBuffer<Int, Unmanaged<Element>> {
    /// A buffer of `count` objects, which `fill` appends in order (exactly `count`).
    package static func make(count: Int, _ fill: ((Element) -> Void) -> Void) -> ReferenceBuffer {
        let buffer = unsafeDowncast(
            create(minimumCapacity: count) { _ in 0 }, to: ReferenceBuffer.self)
        buffer.withUnsafeMutablePointers { made, elements in
            fill { element in
                precondition(made.pointee < count, "ReferenceBuffer: more elements than its count")
                (elements + made.pointee).initialize(to: .passRetained(element))
                made.pointee += 1
            }
            precondition(made.pointee == count, "ReferenceBuffer: fewer elements than its count")
        }
        return buffer
    }

    deinit {
        withUnsafeMutablePointers { count, elements in
            for index in 0..<count.pointee { elements[index].release() }
        }
    }

    @inlinable package var count: Int {
        // `header` is a class's stored `var`: every read is exclusivity-checked.
        withUnsafeMutablePointerToHeader { $0.pointee }
    }

    /// Calls `body` with each object, in order, as a `Subclass`, which each must be (so the
    /// maker stays concrete code); checked in debug builds.
    @inlinable @inline(__always)
    package func forEach<Subclass: AnyObject>(as _: Subclass.Type, _ body: (Subclass) -> Void) {
        withUnsafeMutablePointers { count, elements in
            for index in 0..<count.pointee {
                assert(elements[index].takeUnretainedValue() is Subclass)
                Unmanaged<Subclass>.fromOpaque(elements[index].toOpaque())
                    ._withUnsafeGuaranteedRef(body)
            }
        }
    }

    /// The object at `index`, borrowed, as a `Subclass` (see ``forEach(as:_:)``).
    @inlinable @inline(__always)
    package func withElement<Subclass: AnyObject, Result>(
        at index: Int, as _: Subclass.Type, _ body: (Subclass) -> Result
    ) -> Result {
        withUnsafeMutablePointerToElements { elements in
            assert(elements[index].takeUnretainedValue() is Subclass)
            return Unmanaged<Subclass>.fromOpaque(elements[index].toOpaque())
                ._withUnsafeGuaranteedRef(body)
        }
    }
}
