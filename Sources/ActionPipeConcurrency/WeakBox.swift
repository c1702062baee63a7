/// A weak reference to an object, with the object's identity kept for lookups after it is
/// gone: the package's one weak box (owners, targets, buses held by tokens).
///
/// Reading ``object`` yields a strong reference, which may be the last one: dropping it
/// runs the object's `deinit`. So ``object`` is never read with a lock held; take the
/// boxes out under the lock and read them after unlocking.
@usableFromInline package final class WeakBox<Object: AnyObject>: @unchecked Sendable {
    // `@unchecked Sendable`: a weak reference is loaded and cleared atomically by the
    // runtime, and `id` never changes. Boxes of non-`Sendable` objects are only made for
    // objects the user handed to a `@Sendable` API.

    /// The object, or `nil` once it is gone.
    @usableFromInline package weak let object: Object?
    /// The object's identity, stable after it is gone (an id alone may be reused by a new
    /// object: compare ``object`` too when that matters).
    @usableFromInline package let id: ObjectIdentifier

    /// A weak box for `object`.
    @inlinable
    package init(_ object: Object) {
        self.object = object
        id = ObjectIdentifier(object)
    }

    /// Whether the box still holds `candidate` itself.
    ///
    /// Loads the object: never call it with a lock held.
    @usableFromInline package func holds(_ candidate: AnyObject) -> Bool {
        guard let object else { return false }
        return object === candidate
    }
}
