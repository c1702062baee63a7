#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The calling thread's innermost scope of one kind: an object made current while a
/// synchronous `operation` runs, borrowed by code on the same thread meanwhile
/// (`Diagnostics.withHandler`). The thread's slot holds it unretained: the frame of
/// ``withCurrent(_:operation:)`` keeps it alive, and only that thread reads the slot.
/// Scopes nest.
package struct ThreadScope<Object: AnyObject>: Sendable {
    /// Its value is the current object, unretained.
    let key: pthread_key_t

    /// A new kind of scope (a thread-specific-data key, kept for the process).
    package init() {
        var created = pthread_key_t()
        let status = pthread_key_create(&created, nil)
        precondition(status == 0, "ActionPipe: cannot create a thread key (\(status))")
        key = created
    }

    /// Runs `operation` with `object` current; the outer one is current again after.
    package func withCurrent<Result>(
        _ object: Object, operation: () throws -> Result
    ) rethrows -> Result {
        let outer = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(object).toOpaque())
        defer { pthread_setspecific(key, outer) }
        return try withExtendedLifetime(object) { try operation() }
    }

    /// `nil` when the thread has none.
    package func borrowCurrent<Result>(_ body: (Object) throws -> Result) rethrows -> Result? {
        guard let current = pthread_getspecific(key) else { return nil }
        return try Unmanaged<Object>.fromOpaque(current)._withUnsafeGuaranteedRef(body)
    }
}
