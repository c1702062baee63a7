import ActionPipe
import Foundation
import Synchronization
import Testing

/// A weak reference the threads of a test can share.
final class ObservWeakRef: @unchecked Sendable {
    // `@unchecked`: written once before the threads start, then only read.
    weak var object: Tracked?
    init(_ object: Tracked) { self.object = object }
}

/// A set reads its observer list without retaining it, pinned in its snapshot cell;
/// a replaced list is freed only when no delivery reads it. These tests replace lists while
/// deliveries read them, on this thread and on others, and check both halves: nothing is
/// freed early (the delivery still reaches every observer of its list), and everything is
/// freed once the last delivery that read it ends.
@Suite("ObservableState: observer lists replaced during deliveries")
struct ObservListReclaimTests {
    @Test(
        "A list replaced while another thread delivers from it lives until that delivery ends",
        .hangBound)
    func replacedDuringCrossThreadDelivery() async {
        let property = ObservedProperty(0, label: "reclaim.cross")
        let log = Log()
        let entered = Atomic<Bool>(false)
        let release = Atomic<Bool>(false)
        let heldDuringDelivery = Box<[Bool]>([])
        var first: ObservWeakRef?
        var second: ObservWeakRef?
        var tokens: [RegistrationToken] = []
        do {
            let blocker = Tracked("blocker")
            let reader = Tracked("reader")
            first = ObservWeakRef(blocker)
            second = ObservWeakRef(reader)
            tokens.append(
                property.observe { value in
                    guard value == 1 else { return }
                    entered.store(true, ordering: .releasing)
                    while !release.load(ordering: .acquiring) { sched_yield() }
                    log.append("\(blocker.name) \(value)")
                })
            tokens.append(property.observe { log.append("\(reader.name) \($0)") })
        }
        let (firstRef, secondRef) = (first!, second!)
        let cancelled = tokens
        let finished = await runOnThreads(2) { thread in
            if thread == 0 {
                property.value = 1
                return
            }
            while !entered.load(ordering: .acquiring) { sched_yield() }
            // Both observers removed, and the list replaced several times more, while the
            // other thread is inside the first observer of the original list.
            for token in cancelled { token.cancel() }
            for _ in 0..<8 { property.observe { _ in }.cancel() }
            heldDuringDelivery.set([firstRef.object != nil, secondRef.object != nil])
            release.store(true, ordering: .releasing)
        }
        #expect(finished)
        // The delivery went on through the list it started with: the second observer, removed
        // meanwhile, still received the assignment it was registered for.
        #expect(log.take() == ["blocker 1", "reader 1"])
        #expect(heldDuringDelivery.value == [true, true])
        // Freed by the delivery that read them last, as it ended.
        #expect(firstRef.object == nil)
        #expect(secondRef.object == nil)
        property.value = 2
        #expect(log.take().isEmpty)
        #expect(property.observerCount == 0)
    }

    @Test("An observer that cancels itself is released when the set that delivered returns")
    func selfCancelReleasedAfterSet() {
        let property = ObservedProperty(0, label: "reclaim.self")
        let log = Log()
        let token = Box<RegistrationToken?>(nil)
        var weakCaptured: ObservWeakRef?
        do {
            let captured = Tracked("captured")
            weakCaptured = ObservWeakRef(captured)
            token.set(
                property.observe { value in
                    log.append("\(captured.name) \(value)")
                    token.value?.cancel()
                    // Still alive: this delivery runs from the list that holds it.
                    log.append("alive \(captured.name)")
                })
        }
        property.value = 1
        #expect(log.take() == ["captured 1", "alive captured"])
        #expect(weakCaptured?.object == nil)
        #expect(!property.isObserved)
    }

    @Test("A list replaced inside a nested delivery lives until the outer delivery ends")
    func nestedDeliveries() {
        let property = ObservedProperty(0, label: "reclaim.nested")
        let log = Log()
        let tokens = Box<[RegistrationToken]>([])
        var weakLast: ObservWeakRef?
        do {
            let last = Tracked("last")
            weakLast = ObservWeakRef(last)
            tokens.set([
                property.observe { value in
                    log.append("first \(value)")
                    // Nested set of the same property: it reads the same list; then every
                    // observer is removed while both deliveries still read it.
                    if value == 1 { property.value = 2 }
                    if value == 2 { for token in tokens.value { token.cancel() } }
                },
                property.observe { log.append("\(last.name) \($0)") },
            ])
        }
        property.value = 1
        #expect(log.take() == ["first 1", "first 2", "last 2", "last 1"])
        #expect(weakLast?.object == nil)
        property.value = 3
        #expect(log.take().isEmpty)
    }

    @Test(
        "Threads that set, observe and cancel at once, then end: every list freed, nothing lost",
        .hangBound)
    func churnAcrossThreads() async {
        let property = ObservedProperty(0, label: "reclaim.churn")
        let delivered = Counter()
        let watched = TestLock<[ObservWeakRef]>([])
        property.observe { _ in delivered.increment() }
        // Rounds of short-lived threads: records of ended threads are reused.
        for _ in 0..<3 {
            let finished = await runOnThreads(4) { thread in
                for round in 0..<300 {
                    if thread % 2 == 0 {
                        property.value = round
                        continue
                    }
                    let object = Tracked("watched")
                    let reference = ObservWeakRef(object)
                    let token = property.observe { _ in _ = object.name }
                    property.value = -round
                    token.cancel()
                    watched.withLock { $0.append(reference) }
                }
            }
            #expect(finished)
        }
        // Every assignment reached the permanent observer exactly once.
        #expect(delivered.value == 3 * 4 * 300)
        #expect(property.observerCount == 1)
        // A list a concurrent set still read when it was replaced is freed by that set's end,
        // or, if the two crossed, by the next set: after one more, none is left.
        property.value = 0
        let references = watched.withLock { $0 }
        #expect(references.count == 3 * 2 * 300)
        #expect(references.allSatisfy { $0.object == nil })
    }
}
