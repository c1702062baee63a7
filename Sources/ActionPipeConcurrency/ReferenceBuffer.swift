/// An immutable list of objects in one allocation, which it retains, lent to readers without
/// reference counting: what a snapshot holds when its readers must call into many objects
/// (a property's observers, a type's subscribers) and a retain of each would be a write to
/// memory every reading thread shares.
///
/// Elements are only lent inside a closure, so no reader can keep one past the buffer's
/// life; a reader keeps the buffer itself alive (a pin of the snapshot that holds it).
///
/// ```swift
/// let buffer = ReferenceBuffer<Observer>.make(count: table.count) { append in
///     for observer in table.observers { append(observer) }
/// }
/// buffer.forEach(as: Observer.self) { observer in observer.deliver(value) }
/// ```
@usableFromInline
package final class ReferenceBuffer<Element: AnyObject>: ManagedBuffer<Int, Unmanaged<Element>> {
    /// A buffer of `count` objects, which `fill` appends in order (exactly `count`).
    ///
    /// - Complexity: O(count).
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

    /// How many objects it holds.
    ///
    /// - Complexity: O(1).
    @inlinable package var count: Int {
        // Through the pointer: `header` is a class's stored `var`, whose every read is
        // checked for exclusive access at run time.
        withUnsafeMutablePointerToHeader { $0.pointee }
    }

    /// Calls `body` with each object, in order, as a `Subclass`, which each must be (the
    /// maker stores a subclass's objects as their base class, so that building a buffer is
    /// concrete code); checked in debug builds.
    ///
    /// - Complexity: O(count) plus `body`.
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

    /// Calls `body` with the object at `index`, borrowed, as a `Subclass` (see
    /// ``forEach(as:_:)``).
    ///
    /// - Complexity: O(1) plus `body`.
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
