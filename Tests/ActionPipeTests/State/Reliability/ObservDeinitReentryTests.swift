import ActionPipe
import Synchronization
import Testing

/// An object whose `deinit` sets, observes and reads the property it is captured by: if the
/// property ever released it with its lock held, the lock (not reentrant) would hang.
private final class ReentrantCapture: Sendable {
    static let released = Atomic<Int>(0)
    let property: ObservedProperty<Int>

    init(_ property: ObservedProperty<Int>) { self.property = property }

    deinit {
        property.value = -1
        property.observe { _ in }.cancel()
        _ = property.observerCount
        Self.released.add(1, ordering: .relaxed)
    }
}

/// A value whose `deinit` sets the property that held it.
private final class ReentrantValue: Sendable {
    static let released = Atomic<Int>(0)
    let property: ObservedProperty<ReentrantValue?>

    init(_ property: ObservedProperty<ReentrantValue?>) { self.property = property }

    deinit {
        _ = property.isObserved
        Self.released.add(1, ordering: .relaxed)
    }
}

@Suite("ObservableState: a user deinit that calls back into the property never runs under its lock")
struct ObservDeinitReentryTests {
    static let rounds = 5_000

    @Test("observers cancelled on one thread while another sets: their captures re-enter")
    func capturesReleasedWhileSetting() async {
        let property = ObservedProperty(0, label: "reentry")
        let before = ReentrantCapture.released.load(ordering: .relaxed)
        let done = Atomic<Bool>(false)
        let finished = await runOnThreads(2) { thread in
            if thread == 0 {
                for _ in 0..<Self.rounds {
                    let capture = ReentrantCapture(property)
                    let token = property.observe { [capture] _ in _ = capture }
                    property.value = 1
                    token.cancel()
                }
                done.store(true, ordering: .releasing)
            } else {
                // Sets as often as it can while observers come and go (bounded).
                var sets = 0
                while !done.load(ordering: .acquiring), sets < 50 * Self.rounds {
                    property.value = sets
                    sets += 1
                }
            }
        }
        #expect(finished, "a capture's deinit re-entered the property under its lock")
        #expect(ReentrantCapture.released.load(ordering: .relaxed) - before == Self.rounds)
        #expect(property.observerCount == 0)
    }

    @Test("a replaced value whose deinit reads the property is released after unlocking")
    func replacedValuesReleasedUnlocked() async {
        let property = ObservedProperty<ReentrantValue?>(nil, label: "values")
        let token = property.observe { _ in }
        let before = ReentrantValue.released.load(ordering: .relaxed)
        let finished = await runOnThreads(2) { _ in
            for _ in 0..<Self.rounds { property.value = ReentrantValue(property) }
        }
        property.value = nil
        #expect(finished, "a value's deinit re-entered the property under its lock")
        #expect(ReentrantValue.released.load(ordering: .relaxed) - before == 2 * Self.rounds)
        token.cancel()
    }
}
