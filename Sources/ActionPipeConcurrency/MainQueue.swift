import Dispatch

#if canImport(CDispatch)
    import CDispatch
    import Synchronization
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif
#endif

/// The main dispatch queue, the main actor's executor: whether the caller runs on it, and
/// running main-actor code there without the runtime's check. The test is the queue's, never
/// the thread's: on Linux a pool thread drains the main queue once `main` suspends.
@usableFromInline
package enum MainQueue {
    /// Made once and never released, so its address stays a valid, unique key.
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// For the C call (Linux): `DispatchQueue.getSpecific` is generic, not inlinable, and
    /// opens its value's box on every call.
    nonisolated(unsafe) private static let keyAddress = UnsafeRawPointer(
        Unmanaged.passUnretained(key).toOpaque())

    /// Whether the caller runs on the main queue. `false` on the main thread outside it
    /// (top-level code before it runs) and on a queue targeting it: never wrong to treat so.
    ///
    /// - Complexity: O(1); on Linux a read of the current queue's label.
    package static var isCurrent: Bool {
        #if canImport(CDispatch)
            // `dispatch_get_specific` takes the queue's lock; the label is a plain read.
            let label = UInt(bitPattern: CDispatch.dispatch_queue_get_label(nil))
            let main = mainLabel.load(ordering: .relaxed)
            if main != 0 { return label == main }
            return learnMainLabel(label)
        #else
            DispatchQueue.getSpecific(key: key) == true
        #endif
    }

    #if canImport(CDispatch)
        /// An address (a constant of libdispatch), once known.
        private static let mainLabel = Atomic<UInt>(0)

        /// Whether the queue labelled `label` is the main queue (by label and specific
        /// value); remembers the label once it is.
        private static func learnMainLabel(_ label: UInt) -> Bool {
            guard let text = UnsafePointer<CChar>(bitPattern: label),
                strcmp(text, "com.apple.main-thread") == 0,
                CDispatch.dispatch_get_specific(keyAddress) != nil
            else { return false }
            mainLabel.store(label, ordering: .relaxed)
            return true
        }
    #endif

    /// `function`, callable where the compiler does not know it is on the main actor: only
    /// where ``isCurrent`` holds. Made once, at registration, unlike `MainActor.assumeIsolated`,
    /// which checks through the runtime and allocates a context per call.
    @inlinable
    package static func uncheckedIsolation<Argument, Result>(
        _ function: @escaping @MainActor @Sendable (Argument) -> Result
    ) -> @Sendable (Argument) -> Result {
        unsafeBitCast(function, to: (@Sendable (Argument) -> Result).self)
    }
}
