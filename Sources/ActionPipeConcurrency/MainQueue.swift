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
/// running main-actor code there without the runtime's check.
///
/// The main queue is not a thread: on Linux, once the program's main function suspends,
/// a pool thread drains it, so the test is the queue's own specific value, never the
/// thread's identity.
@usableFromInline
package enum MainQueue {
    /// Marks the main queue. Made once and never released, so its address stays a valid,
    /// unique key.
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// The key as the C call takes it where the C module can be imported (Linux):
    /// `DispatchQueue.getSpecific` is generic and not inlinable, and opens its value's box on
    /// every call.
    nonisolated(unsafe) private static let keyAddress = UnsafeRawPointer(
        Unmanaged.passUnretained(key).toOpaque())

    /// Whether the caller runs on the main queue, the main actor's executor. (`false` on
    /// the main thread outside the main queue, such as top-level code before the main
    /// queue runs, and on a queue that targets the main queue: treating those as elsewhere
    /// is never wrong.)
    ///
    /// - Complexity: O(1): on Linux, a read of the current queue's label, compared with
    ///   the main queue's, which is learnt the first time the main queue asks.
    package static var isCurrent: Bool {
        #if canImport(CDispatch)
            // `dispatch_get_specific` takes the queue's lock for its look-up: a third of a
            // main-actor delivery's cost. The current queue's label is a plain read.
            let label = UInt(bitPattern: CDispatch.dispatch_queue_get_label(nil))
            let main = mainLabel.load(ordering: .relaxed)
            if main != 0 { return label == main }
            return learnMainLabel(label)
        #else
            DispatchQueue.getSpecific(key: key) == true
        #endif
    }

    #if canImport(CDispatch)
        /// The main queue's label, as an address (a constant of libdispatch), once known.
        private static let mainLabel = Atomic<UInt>(0)

        /// Whether the current queue, labelled `label`, is the main queue itself, by the
        /// queue's label and its specific value; remembers the label once it is.
        private static func learnMainLabel(_ label: UInt) -> Bool {
            guard let text = UnsafePointer<CChar>(bitPattern: label),
                strcmp(text, "com.apple.main-thread") == 0,
                CDispatch.dispatch_get_specific(keyAddress) != nil
            else { return false }
            mainLabel.store(label, ordering: .relaxed)
            return true
        }
    #endif

    /// `function`, callable from code the compiler does not know to be on the main actor:
    /// for a caller that calls it only where ``isCurrent`` holds. Made once, when the
    /// function is registered, so a delivery on the main actor costs one test of the queue
    /// and no allocation (`MainActor.assumeIsolated` checks again through the runtime and
    /// allocates a context for its closure).
    @inlinable
    package static func uncheckedIsolation<Argument, Result>(
        _ function: @escaping @MainActor @Sendable (Argument) -> Result
    ) -> @Sendable (Argument) -> Result {
        unsafeBitCast(function, to: (@Sendable (Argument) -> Result).self)
    }
}
