#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where one kind of report goes: the hook a user set, or standard error.
///
/// The hook is behind a lock (it may be set while another thread reports) and is called
/// after unlocking: it is user code.
@usableFromInline
package final class _Reporter<Report: Sendable & CustomStringConvertible>: Sendable {
    private let hook = LockedValue<(@Sendable (Report) -> Void)?>(nil)
    /// What a line on standard error starts with.
    private let prefix: String

    @usableFromInline package init(prefix: String) { self.prefix = prefix }

    /// The user's hook; `nil` for standard error.
    @usableFromInline package var handler: (@Sendable (Report) -> Void)? {
        get { hook.withLock { $0 } }
        set { hook.withLock { $0 = newValue } }
    }

    /// Sends `report` to the hook, or writes it to standard error.
    @usableFromInline package func report(_ report: Report) {
        if let handler { return handler(report) }
        let line = Array("\(prefix): \(report)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
