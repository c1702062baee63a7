import ActionPipe
import Foundation
import Synchronization
import Testing

#if canImport(Observation)
    import Observation
#endif

/// A state object written with compound assignments, as a new user writes it.
final class CompoundState: ObservableState, @unchecked Sendable {
    struct Dimensions: Equatable, Sendable {
        var width = 0
        var height = 0
    }

    @Observed("count") var count = 0
    @Observed("items") var items: [Int] = []
    @Observed("size") var size = Dimensions()
    @Observed("title") var title = ""
}

@Suite("ObservableState: compound writes (+=, append, x.y =) are atomic, delivered once")
struct ObservCompoundWriteTests {
    @Test("8 tasks × 10,000 `state.count += 1` end at exactly 80,000, each delivered")
    func concurrentIncrements() async {
        let state = CompoundState()
        let deliveries = Counter()
        let token = state.$count.observe { _ in deliveries.increment() }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<10_000 { state.count += 1 }
                }
            }
        }
        #expect(state.count == 80_000)
        #expect(deliveries.value == 80_000)
        token.cancel()
    }

    @Test("`property.value += 1` on a plain ObservedProperty is atomic too")
    func propertyValueIncrements() async {
        let hits = ObservedProperty(0, label: "hits")
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<5_000 { hits.value += 1 }
                }
            }
        }
        #expect(hits.value == 20_000)
    }

    @Test("appends, struct field writes and mutating methods from 4 tasks lose nothing")
    func otherCompoundWrites() async {
        let state = CompoundState()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for index in 0..<1_000 {
                        state.items.append(task * 1_000 + index)
                        state.size.width += 1
                        state.size.height -= 1
                        state.title.append("x")
                    }
                }
            }
        }
        #expect(state.items.count == 4_000)
        #expect(Set(state.items) == Set(0..<4_000))
        #expect(state.size == CompoundState.Dimensions(width: 4_000, height: -4_000))
        #expect(state.title.count == 4_000)
    }

    @Test("compound writes mixed with modify { } keep every increment")
    func mixedWithModify() async {
        let state = CompoundState()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for _ in 0..<5_000 {
                        if task.isMultiple(of: 2) {
                            state.count += 1
                        } else {
                            state.$count.modify { $0 += 1 }
                        }
                    }
                }
            }
        }
        #expect(state.count == 20_000)
    }

    @Test("a compound write delivers once, the new value, after the lock is released")
    func deliversOnceAfterUnlock() {
        let state = CompoundState()
        let seen = TestLock<[[Int]]>([])
        let token = state.$items.observe { items in
            seen.withLock { $0.append(items) }
            // The observer runs with no lock held: it may write the same property.
            if items.count == 2 { state.items.append(99) }
        }
        state.items.append(1)
        state.items.append(2)
        #expect(seen.withLock { $0 } == [[1], [1, 2], [1, 2, 99]])
        #expect(state.items == [1, 2, 99])
        token.cancel()
    }

    @Test("the old value a compound write replaces is released, once")
    func releasesReplacedValue() {
        final class Payload: Sendable {}
        let state = ObservedProperty<[Payload]>([Payload()], label: "payloads")
        weak let first = state.value.first
        #expect(first != nil)
        state.value[0] = Payload()
        #expect(first == nil)
        #expect(state.value.count == 1)
    }

    #if canImport(Observation)
        final class CompoundProfile: ObservableState, Observable, @unchecked Sendable {
            @Observed("visits") var visits = 0
        }

        @Test("a compound write tells Swift Observation, as a set does")
        func compoundWriteTellsObservation() {
            let profile = CompoundProfile()
            let changes = Counter()
            let valueAtChange = TestLock<Int?>(nil)
            withObservationTracking {
                _ = profile.visits
            } onChange: {
                changes.increment()
                valueAtChange.withLock { $0 = profile.$visits.value }
            }
            profile.visits += 1
            #expect(changes.value == 1)
            #expect(valueAtChange.withLock { $0 } == 0)  // told before the change (willSet)
            #expect(profile.visits == 1)
        }

        @Test("an observer registered by Observation's willSet gets the compound write")
        func observerRegisteredInWillSetGetsTheWrite() {
            let profile = CompoundProfile()
            let seen = TestLock<[Int]>([])
            let tokens = TestLock<[RegistrationToken]>([])
            withObservationTracking {
                _ = profile.visits
            } onChange: {
                let token = profile.$visits.observe { value in seen.withLock { $0.append(value) } }
                tokens.withLock { $0.append(token) }
            }
            profile.visits += 1
            #expect(seen.withLock { $0 } == [1])
            for token in tokens.withLock({ $0 }) { token.cancel() }
        }
    #endif
}
