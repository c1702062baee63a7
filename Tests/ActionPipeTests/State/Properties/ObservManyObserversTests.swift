import ActionPipe
import Synchronization
import Testing

/// Many observers of one property: every change is O(1) amortised, and nothing about
/// delivery order or release changes for it.
@Suite("Observable state: thousands of observers of one property")
struct ObservManyObserversTests {
    final class ManyObserversCapture: Sendable {
        static let alive = Atomic<Int>(0)
        init() { Self.alive.add(1, ordering: .relaxed) }
        deinit { Self.alive.subtract(1, ordering: .relaxed) }
    }

    @Test(
        "Observers added and cancelled in bulk: the rest get every set, in order; the cancelled are released"
    )
    func bulkObserveAndCancel() {
        let before = ManyObserversCapture.alive.load(ordering: .relaxed)
        let property = ObservedProperty(0)
        let log = TestLock<[Int]>([])
        var tokens: [RegistrationToken] = []
        for index in 0..<3_000 {
            let capture = ManyObserversCapture()
            tokens.append(
                property.observe { _ in
                    withExtendedLifetime(capture) { log.withLock { $0.append(index) } }
                })
        }
        #expect(property.observerCount == 3_000)
        // Cancel all but every 100th, then set: only the kept ones run, in registration order.
        for (index, token) in tokens.enumerated() where index % 100 != 0 {
            #expect(token.cancel())
        }
        #expect(property.observerCount == 30)
        property.value = 1
        #expect(log.withLock { $0 } == Array(stride(from: 0, to: 3_000, by: 100)))
        // Once a set has run, no cancelled observer (nor its capture) is kept.
        #expect(ManyObserversCapture.alive.load(ordering: .relaxed) - before == 30)
        for token in tokens { token.cancel() }
        #expect(property.observerCount == 0)
        #expect(ManyObserversCapture.alive.load(ordering: .relaxed) - before == 0)
    }

    @Test("An observer added between sets gets the next set; one cancelled does not")
    func interleaved() {
        let property = ObservedProperty(0)
        let seen = TestLock<[String]>([])
        let first = property.observe { value in seen.withLock { $0.append("first \(value)") } }
        property.value = 1
        let second = property.observe { value in seen.withLock { $0.append("second \(value)") } }
        property.value = 2
        first.cancel()
        property.value = 3
        second.cancel()
        property.value = 4
        #expect(seen.withLock { $0 } == ["first 1", "first 2", "second 2", "second 3"])
    }
}
