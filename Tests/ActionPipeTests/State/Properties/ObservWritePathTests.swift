import ActionPipe
import Synchronization
import Testing

/// Observing and cancelling: an observer no set has listed yet is released by its cancel at
/// once, one a set lists is released once no delivery reads it, and neither changes what a
/// set delivers or what a token reports. Serialized: the tests share one count of captures.
@Suite("Observable state: observing and cancelling, with and without a published list", .serialized)
struct ObservWritePathTests {
    final class WritePathCapture: Sendable {
        static let alive = Atomic<Int>(0)
        init() { Self.alive.add(1, ordering: .relaxed) }
        deinit { Self.alive.subtract(1, ordering: .relaxed) }
    }

    static var alive: Int { WritePathCapture.alive.load(ordering: .relaxed) }

    /// Observes `property` with a closure that keeps a new ``WritePathCapture`` and logs `name`.
    static func observe(
        _ property: ObservedProperty<Int>, _ name: String, _ log: Log
    ) -> RegistrationToken {
        let capture = WritePathCapture()
        return property.observe { value in
            withExtendedLifetime(capture) { log.append("\(name) \(value)") }
        }
    }

    @Test("Before any set: each cancel releases its observer at once; a second cancel is false")
    func cancelBeforeAnySet() {
        let before = Self.alive
        let property = ObservedProperty(0)
        let log = Log()
        let tokens = (0..<200).map { Self.observe(property, "o\($0)", log) }
        #expect(Self.alive - before == 200)
        for (index, token) in tokens.enumerated() {
            #expect(token.isActive)
            #expect(token.cancel())
            #expect(!token.cancel())
            #expect(!token.isActive)
            #expect(Self.alive - before == 199 - index)
            #expect(property.observerCount == 199 - index)
        }
        property.value = 1
        #expect(log.take().isEmpty)
        #expect(!property.isObserved)
    }

    @Test("After a set: cancelled observers, listed or added since, are never delivered again")
    func cancelAfterASet() {
        let before = Self.alive
        let property = ObservedProperty(0)
        let log = Log()
        let listed = (0..<100).map { Self.observe(property, "listed\($0)", log) }
        property.value = 1
        #expect(log.take().count == 100)
        let added = (0..<100).map { Self.observe(property, "added\($0)", log) }
        // An observer that no set has listed is released by its cancel alone.
        for token in added.dropFirst() { #expect(token.cancel()) }
        #expect(Self.alive - before == 101)
        for token in listed.dropFirst() { #expect(token.cancel()) }
        property.value = 2
        #expect(log.take() == ["listed0 2", "added0 2"])
        // Once a set has run, no cancelled observer is kept.
        #expect(Self.alive - before == 2)
        for token in listed + added { token.cancel() }
        #expect(Self.alive - before == 0)
        #expect(!property.isObserved)
    }

    @Test("An observer cancelled by another during a set still gets that set, then no other")
    func cancelFromInsideAnObserver() {
        let property = ObservedProperty(0)
        let log = Log()
        let victim = Box<RegistrationToken?>(nil)
        let first = property.observe { value in
            log.append("first \(value)")
            if value == 1 {
                log.append("cancelled \(victim.value?.cancel() ?? false)")
                log.append("again \(victim.value?.cancel() ?? false)")
            }
        }
        victim.set(Self.observe(property, "second", log))
        property.value = 1
        property.value = 2
        #expect(log.take() == ["first 1", "cancelled true", "again false", "second 1", "first 2"])
        #expect(first.cancel())
        #expect(!first.cancel())
    }

    @Test("Observers with options, with owners and on paths cancel like plain ones")
    func otherForms() {
        let screen = ObservScreenState()
        let log = Log()
        let owner = ObservOwner("owner")
        let tokens = [
            screen.image.$url.observe(.initial) { log.append("initial \($0 ?? "nil")") },
            screen.image.$url.observe(.skipEqual) { log.append("skip \($0 ?? "nil")") },
            screen.image.$url.observe(owner: owner) { _, value in
                log.append("owner \(value ?? "nil")")
            },
            screen.$image.then(\.$url).observe { log.append("path \($0 ?? "nil")") },
        ]
        #expect(log.take() == ["initial nil"])
        screen.image.url = "a"
        #expect(log.take() == ["initial a", "skip a", "owner a", "path a"])
        for token in tokens {
            #expect(token.cancel())
            #expect(!token.cancel())
        }
        screen.image.url = "b"
        #expect(log.take().isEmpty)
        #expect(!screen.image.$url.isObserved)
        #expect(!screen.$image.isObserved)
    }

    @Test(
        "Random observes, cancels, releases of owners and sets: every set reaches the live observers in order"
    )
    func randomChurn() {
        for seed: UInt64 in [1, 2, 3, 4] {
            Self.churn(seed: seed)
        }
    }

    /// One run of ``randomChurn()``: a model list of the live observers, checked against what
    /// each set delivers, `observerCount`, and what each token reports.
    static func churn(seed: UInt64) {
        var random = seed
        func next(_ bound: Int) -> Int {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: random >> 33) % bound
        }
        let property = ObservedProperty(0)
        let log = Log()
        // The observers in registration order; an owner-bound one keeps its owner here.
        var live: [(name: String, token: RegistrationToken, owner: ObservOwner?)] = []
        var dead: [RegistrationToken] = []
        var serial = 0
        for step in 0..<2_000 {
            switch next(10) {
            case 0..<4 where live.count < 300:
                // Bursts, so the table grows past its compaction threshold.
                for _ in 0..<(1 + next(40)) {
                    serial += 1
                    let name = "o\(serial)"
                    if next(4) == 0 {
                        let owner = ObservOwner(name)
                        let token = property.observe(owner: owner) { owner, value in
                            log.append("\(owner.name) \(value)")
                        }
                        live.append((name, token, owner))
                    } else {
                        live.append((name, property.observe { log.append("\(name) \($0)") }, nil))
                    }
                }
            case 4..<7 where !live.isEmpty:
                // Cancels, mostly in bursts: oldest first, newest first, or anywhere.
                let mode = next(3)
                for _ in 0..<(1 + next(30)) where !live.isEmpty {
                    let index = mode == 0 ? 0 : mode == 1 ? live.count - 1 : next(live.count)
                    let removed = live.remove(at: index)
                    #expect(removed.token.cancel(), "seed \(seed) step \(step)")
                    dead.append(removed.token)
                }
            case 7 where !live.isEmpty:
                // An owner released: its observer is gone at the next set.
                if let index = live.indices.first(where: { live[$0].owner != nil && next(3) == 0 })
                {
                    let removed = live.remove(at: index)
                    dead.append(removed.token)
                }
            case 8 where !dead.isEmpty:
                #expect(!dead[next(dead.count)].cancel(), "seed \(seed) step \(step)")
            default:
                property.value = step
                #expect(
                    log.take() == live.map { "\($0.name) \(step)" }, "seed \(seed) step \(step)")
                #expect(property.observerCount == live.count, "seed \(seed) step \(step)")
                if !live.isEmpty { #expect(live[next(live.count)].token.isActive) }
                if !dead.isEmpty { #expect(!dead[next(dead.count)].isActive) }
            }
        }
        for entry in live { #expect(entry.token.cancel()) }
        property.value = -1
        #expect(log.take().isEmpty)
        #expect(!property.isObserved)
    }
}
