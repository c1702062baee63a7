import ActionPipe
import Foundation
import Testing

/// An observer whose registration returned before a store gets that store, even when it
/// was registered while the store was rebuilding the observer list: here, by the deinit of
/// what a cancelled observer captured, which the rebuild releases.
@Suite("Observable state: a registration that returned is in every later store")
struct ObservRegistrationRaceTests {
    /// Registers an observer on `property` when it is released, logging what it gets.
    final class RegistersOnDeinit: Sendable {
        let property: ObservedProperty<Int>
        let log: Log
        /// The thread the deinit ran on, once it has.
        let releasedOn: TestLock<ObjectIdentifier?>

        init(
            _ property: ObservedProperty<Int>, _ log: Log, _ releasedOn: TestLock<ObjectIdentifier?>
        ) {
            self.property = property
            self.log = log
            self.releasedOn = releasedOn
        }

        deinit {
            let log = log
            let token = property.observe { value in log.append("late \(value)") }
            // Cancelled by the test at its end.
            RegistersOnDeinit.tokens.withLock { $0.append(token) }
            releasedOn.withLock { $0 = ObjectIdentifier(Thread.current) }
        }

        static let tokens = TestLock<[RegistrationToken]>([])
    }

    @Test(
        "An observer registered by a deinit the list rebuild releases gets the write that rebuilt",
        arguments: [false, true])
    func registrationDuringRebuild(compound: Bool) {
        let property = ObservedProperty(0, label: "rebuild")
        let log = Log()
        let releasedOn = TestLock<ObjectIdentifier?>(nil)
        // 64 observers or more: a cancel marks the list stale instead of rebuilding it, so
        // the next set rebuilds it and releases the cancelled observer's captures.
        let others = (0..<70).map { _ in property.observe { _ in } }
        let cancelled = property.observe {
            [capture = RegistersOnDeinit(property, log, releasedOn)] _ in
            _ = capture
        }
        property.set(1)
        cancelled.cancel()
        // Rebuilds the list: `capture` is released and registers "late".
        if compound { property.value += 1 } else { property.set(2) }
        property.set(3)
        if releasedOn.withLock({ $0 }) == ObjectIdentifier(Thread.current) {
            #expect(log.all == ["late 2", "late 3"])
        } else {
            // The old list was retired while this thread read it, and another spec's store,
            // collecting the process's retired snapshots, released it on its own thread: the
            // registration came after these writes, so only the later ones must reach it.
            let deadline = ContinuousClock.now + .seconds(10)
            while releasedOn.withLock({ $0 }) == nil, ContinuousClock.now < deadline {
                usleep(1_000)
            }
            property.set(4)
            #expect(log.all.last == "late 4")
        }
        for token in others { token.cancel() }
        RegistersOnDeinit.tokens.withLock { tokens in
            for token in tokens { token.cancel() }
            tokens.removeAll()
        }
    }
}
