/// A weak reference, with the object's identity kept for lookups after it is gone.
///
/// Reading ``object`` yields a strong reference, which may be the last one: never read it
/// with a lock held.
@usableFromInline package final class WeakBox<Object: AnyObject>: @unchecked Sendable {
    // `@unchecked Sendable`: the runtime loads and clears a weak reference atomically, `id`
    // never changes; boxes of non-`Sendable` objects come from `@Sendable` APIs.

    @usableFromInline package weak let object: Object?
    /// Stable after the object is gone, but may be reused: compare ``object`` when it matters.
    @usableFromInline package let id: ObjectIdentifier

    @inlinable
    package init(_ object: Object) {
        self.object = object
        id = ObjectIdentifier(object)
    }

    /// Loads the object: never call it with a lock held.
    @usableFromInline package func holds(_ candidate: AnyObject) -> Bool {
        guard let object else { return false }
        return object === candidate
    }
}
