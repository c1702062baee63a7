/// A reference that does not keep its object alive, lent only inside a closure: stored
/// where a retain would be a write to memory every reading thread shares.
///
/// Its owner is always one of two:
///
/// - **A ``ReferenceBuffer``.** Made with ``init(_:)`` and handed to the buffer's `make`,
///   which retains the object once; its `deinit` releases it. Readers borrow it while they
///   keep the buffer alive.
/// - **Something the reader holds.** Made with ``init(_:)`` from a reference the reader
///   holds for longer (a call's pinned snapshot holds its members).
///
/// `BitwiseCopyable`, so values holding one stay trivial for an async frame to copy.
@frozen @usableFromInline
package struct Unretained<Object: AnyObject>: @unchecked Sendable, BitwiseCopyable {
    @usableFromInline let reference: Unmanaged<Object>

    @usableFromInline @inline(__always)
    init(reference: Unmanaged<Object>) { self.reference = reference }

    /// Not retained: the caller keeps `object` alive for as long as this value is used.
    @inlinable @inline(__always)
    package init(_ object: Object) { reference = .passUnretained(object) }

    /// An object published by its ``address`` in an atomic word and kept alive elsewhere;
    /// `nil` for 0.
    @inlinable @inline(__always)
    package init?(address: UInt) {
        guard let pointer = UnsafeRawPointer(bitPattern: address) else { return nil }
        reference = .fromOpaque(pointer)
    }

    /// Borrowed: no reference is counted.
    @inlinable @inline(__always)
    package func with<Result>(_ body: (Object) -> Result) -> Result {
        reference._withUnsafeGuaranteedRef(body)
    }

    @inlinable @inline(__always)
    package func with<Result, Failure: Error>(
        _ body: (Object) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        // `_withUnsafeGuaranteedRef` only rethrows: the error is cast back (an `unowned(unsafe)`
        // copy would be retained and released per borrow).
        do {
            return try reference._withUnsafeGuaranteedRef { object in try body(object) }
        } catch {
            throw error as! Failure
        }
    }

    /// A counted reference, for code that keeps it past the borrow.
    @inlinable @inline(__always)
    package var object: Object { reference.takeUnretainedValue() }

    /// ``object`` taken out of line by a call declared to release nothing, so a caller about
    /// to end its own reference keeps this one and the compiler drops the first's retain.
    @inlinable @inline(never) @_effects(releasenone)
    package func retainedReleasingNothing() -> Object { reference.takeUnretainedValue() }

    /// The object must be a `Subclass` (the maker vouches; checked in debug builds).
    @inlinable @inline(__always)
    package func `as`<Subclass: AnyObject>(_: Subclass.Type) -> Unretained<Subclass> {
        assert(reference.takeUnretainedValue() is Subclass)
        return Unretained<Subclass>(reference: .fromOpaque(reference.toOpaque()))
    }

    /// For identity (a cache keyed by object).
    @inlinable @inline(__always)
    package var address: UInt { UInt(bitPattern: reference.toOpaque()) }
}

/// `object` as a `Subclass`, which it is by construction (a part stores a subclass's
/// objects under their base class): checked in debug builds, free in release builds.
@inlinable @inline(__always)
package func knownCast<Subclass: AnyObject>(_ object: AnyObject, to _: Subclass.Type) -> Subclass {
    unsafeDowncast(object, to: Subclass.self)
}

/// Runs `body` with the object `load` returns, at +0: for an object something else keeps
/// alive for the whole of `body` (stored once in an owner the caller holds). Read through
/// a stored `var`, it would be retained and released around every use.
@inlinable @inline(__always)
package func withUnretained<Object: AnyObject, Result>(
    _ load: @autoclosure () -> Object, _ body: (Object) -> Result
) -> Result {
    // The loaded reference's retain and release cancel out; `body` gets it at +0.
    Unretained(load()).with(body)
}
