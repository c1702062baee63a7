#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The calling thread's innermost scope of one kind: an object made current for the
/// duration of a synchronous `operation`, and borrowed by the code that runs on the same
/// thread meanwhile (`Diagnostics.withHandler` and the reports made inside it).
///
/// The thread's slot holds the object unretained: the frame of ``withCurrent(_:operation:)``
/// keeps it alive, and only that thread reads the slot, while the frame runs. So a borrow
/// never outlives the object, and making an object current costs no reference count.
/// Scopes nest: the innermost is current, and the outer one is current again when it ends.
///
/// ```swift
/// private static let scopes = ThreadScope<Scope>()
/// scopes.withCurrent(Scope(handler)) { runImport() }
/// scopes.borrowCurrent { $0.handler(diagnostic) }   // nil when no scope is current
/// ```
package struct ThreadScope<Object: AnyObject>: Sendable {
    /// The thread-specific-data key whose value is the current object, unretained.
    let key: pthread_key_t

    /// A new kind of scope (a thread-specific-data key; made once, kept for the process).
    package init() {
        var created = pthread_key_t()
        let status = pthread_key_create(&created, nil)
        precondition(status == 0, "ActionPipe: cannot create a thread key (\(status))")
        key = created
    }

    /// Runs `operation` with `object` as the calling thread's current object; the one
    /// current before is current again when it returns or throws.
    ///
    /// - Complexity: O(1) plus `operation`.
    package func withCurrent<Result>(
        _ object: Object, operation: () throws -> Result
    ) rethrows -> Result {
        let outer = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(object).toOpaque())
        defer { pthread_setspecific(key, outer) }
        return try withExtendedLifetime(object) { try operation() }
    }

    /// Runs `body` with the calling thread's current object, borrowed for the call (not
    /// retained: the scope's frame keeps it); `nil` when the thread has none.
    ///
    /// - Complexity: O(1) plus `body`.
    package func borrowCurrent<Result>(_ body: (Object) throws -> Result) rethrows -> Result? {
        guard let current = pthread_getspecific(key) else { return nil }
        return try Unmanaged<Object>.fromOpaque(current)._withUnsafeGuaranteedRef(body)
    }
}
