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
    let object = Unmanaged.passUnretained(load())
    return object._withUnsafeGuaranteedRef(body)
}
