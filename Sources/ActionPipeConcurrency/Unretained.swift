/// A reference that does not keep its object alive, lent only inside a closure: what a
/// part stores where a retain would be a write to memory every reading thread shares (a
/// snapshot's handlers, a call's origin, a route table's lists).
///
/// Who keeps the object alive is the holder's contract, and it is always one of two:
///
/// - **The holder owns it.** Made with ``retaining(_:)``, released exactly once with
///   ``release()`` (a snapshot's `deinit`). Readers borrow it while they keep the holder
///   alive (a pin of the snapshot).
/// - **Something the reader holds owns it.** Made with ``init(_:)`` from a reference the
///   reader itself holds for longer than the value lives (a call's pinned snapshot holds
///   the call's members; a bound action holds its pipe).
///
/// The object is reached only through ``with(_:)`` (borrowed for the body, no reference
/// counted) or ``object`` (a counted reference, for code that must keep it).
///
/// ```swift
/// let handler = Unretained.retaining(made)         // the snapshot owns it
/// handler.with { $0.run(&process) }                // a reader borrows it
/// handler.release()                                // in the snapshot's deinit
/// ```
///
/// Bitwise copyable, as the reference it wraps: values that hold one (a call's options, its
/// process) stay trivial, so an async call's frame copies them without value witnesses.
@frozen @usableFromInline
package struct Unretained<Object: AnyObject>: @unchecked Sendable, BitwiseCopyable {
    @usableFromInline let reference: Unmanaged<Object>

    @usableFromInline @inline(__always)
    init(reference: Unmanaged<Object>) { self.reference = reference }

    /// `object`, not retained: the caller keeps it alive for as long as this value is used.
    ///
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    package init(_ object: Object) { reference = .passUnretained(object) }

    /// The object at `address` (an ``address`` this type gave), or `nil` for 0: for an
    /// object published by its address in an atomic word and kept alive elsewhere for
    /// as long as the word may hold it.
    ///
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    package init?(address: UInt) {
        guard let pointer = UnsafeRawPointer(bitPattern: address) else { return nil }
        reference = .fromOpaque(pointer)
    }

    /// `object`, retained: the holder calls ``release()`` exactly once, when it is done.
    ///
    /// - Complexity: O(1): one retain.
    @inlinable @inline(__always)
    package static func retaining(_ object: Object) -> Unretained {
        Unretained(reference: .passRetained(object))
    }

    /// Ends the holding that ``retaining(_:)`` began; never with a lock held (the object's
    /// `deinit` may release user code).
    ///
    /// - Complexity: O(1), plus the object's `deinit` when this was its last reference.
    @inlinable @inline(__always)
    package func release() { reference.release() }

    /// Runs `body` with the object, borrowed: no reference is counted.
    ///
    /// - Complexity: O(1) plus `body`.
    @inlinable @inline(__always)
    package func with<Result>(_ body: (Object) -> Result) -> Result {
        reference._withUnsafeGuaranteedRef(body)
    }

    /// Runs `body`, which may throw `Failure`, with the object, borrowed.
    ///
    /// - Complexity: O(1) plus `body`.
    @inlinable @inline(__always)
    package func with<Result, Failure: Error>(
        _ body: (Object) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        // `_withUnsafeGuaranteedRef` only rethrows, which would lose the failure's type.
        unowned(unsafe) let object = reference.takeUnretainedValue()
        return try body(object)
    }

    /// Runs the asynchronous `body` with the object, borrowed: the holder keeps it alive
    /// across `body`'s suspensions (a counted reference to the snapshot that owns it).
    /// `body` runs on the caller's executor: no hop.
    ///
    /// - Complexity: O(1) plus `body`.
    @inlinable @inline(__always)
    package nonisolated(nonsending) func with<Result>(
        _ body: nonisolated(nonsending) (Object) async throws -> Result
    ) async rethrows -> Result {
        unowned(unsafe) let object = reference.takeUnretainedValue()
        return try await body(object)
    }

    /// The object, as a counted reference: for code that keeps it past the borrow.
    ///
    /// - Complexity: O(1): one retain.
    @inlinable @inline(__always)
    package var object: Object { reference.takeUnretainedValue() }

    /// The object, as a counted reference, taken out of line by a call declared to release
    /// no object: for a caller that is about to end its own reference (a consumed
    /// temporary) and keeps this one instead, so that the compiler can drop the retain it
    /// made for the first (see ``SnapshotSlot/pinReleasingNothing()``).
    ///
    /// - Complexity: O(1): one retain, and a call.
    @inlinable @inline(never) @_effects(releasenone)
    package func retainedReleasingNothing() -> Object { reference.takeUnretainedValue() }

    /// The same reference as a `Subclass`, which the object must be (the maker vouches for
    /// it; checked in debug builds).
    ///
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    package func `as`<Subclass: AnyObject>(_: Subclass.Type) -> Unretained<Subclass> {
        assert(reference.takeUnretainedValue() is Subclass)
        return Unretained<Subclass>(reference: .fromOpaque(reference.toOpaque()))
    }

    /// Whether it refers to `object`.
    ///
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    package func refers(to object: AnyObject) -> Bool {
        reference.toOpaque() == Unmanaged.passUnretained(object).toOpaque()
    }

    /// The object's address, for identity (a cache keyed by object).
    ///
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    package var address: UInt { UInt(bitPattern: reference.toOpaque()) }
}

/// `object` as a `Subclass`, which it must be: for a part that stores a subclass's objects
/// under their base class and knows, by construction, which subclass each is. Checked in
/// debug builds; in release builds as free as the static type it recovers.
///
/// ```swift
/// let entry = knownCast(erased, to: _BusPlainEntry<Event>.self)
/// ```
///
/// - Complexity: O(1).
@inlinable @inline(__always)
package func knownCast<Subclass: AnyObject>(_ object: AnyObject, to _: Subclass.Type) -> Subclass {
    unsafeDowncast(object, to: Subclass.self)
}

/// Runs `body` with the object that `load` returns, without retaining it for the call.
///
/// For an object that something else keeps alive for the whole of `body`, which the caller
/// knows and the compiler cannot see: a property object stored once in its owner, which the
/// caller holds. Read through a stored `var`, such an object is retained and released around
/// every use, and that reference count is a cache line every thread's read writes.
///
/// ```swift
/// // `storage` is assigned once, at `init`; the caller holds `owner`.
/// withUnretained(owner.storage) { $0.read() }
/// ```
///
/// - Complexity: O(1) plus `body`.
@inlinable @inline(__always)
package func withUnretained<Object: AnyObject, Result>(
    _ load: @autoclosure () -> Object, _ body: (Object) -> Result
) -> Result {
    // The loaded reference is dropped at once (its retain and release cancel out); `body`
    // gets it at +0.
    Unretained(load()).with(body)
}
