import Foundation

/// A lock that ThreadSanitizer sees, for the tests' counters and logs (instead of
/// `Synchronization.Mutex`).
///
/// Why: on Linux, ThreadSanitizer does not see the happens-before edges of
/// `Synchronization.Mutex`. Counters and logs guarded by it are then reported as racing
/// when two threads take turns, and the TSan step of CI fails at random. `NSLock` is a
/// pthread mutex, which the sanitizer intercepts. The library itself uses `LockedValue`, a
/// pthread mutex, for the same reason.
///
/// `@unchecked Sendable`: `value` is only touched with `lock` held.
final class TestLock<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
