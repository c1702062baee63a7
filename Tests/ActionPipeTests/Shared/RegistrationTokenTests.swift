import ActionPipe
import Foundation
import Synchronization
import Testing

private struct TokenEvent: BusEvent {}
private let tokenEvents = BusTopic(TokenEvent.self)

/// Counts its releases; its `deinit` may run a closure (to call back into a bag).
private final class TokenTracked: Sendable {
    static let released = Atomic<Int>(0)
    let onDeinit: (@Sendable () -> Void)?
    init(onDeinit: (@Sendable () -> Void)? = nil) { self.onDeinit = onDeinit }
    deinit {
        onDeinit?()
        Self.released.add(1, ordering: .relaxed)
    }
}

@Suite("Registration tokens and bags: one type for every part")
struct RegistrationTokenTests {
    @Test(
        "A handler, a subscription and an observation return the same token type, which cancels each"
    )
    func oneTypeForEveryPart() {
        let pipe = ActionPipe(name: "pipe")
        let bus = EventBus(name: "bus")
        let property = ObservedProperty(0)
        let log = Log()
        let tokens: [RegistrationToken] = [
            pipe.on(\.tPing) { process in process.arguments },
            bus.subscribe(tokenEvents) { _ in log.append("event") },
            property.observe { log.append("value \($0)") },
        ]
        #expect(Set(tokens).count == 3)
        #expect(tokens.allSatisfy { $0.isActive })
        #expect(tokens[0].description.hasPrefix("pipe.tPing#"))
        #expect(tokens[1].description.hasPrefix("bus/"))
        for token in tokens { #expect(token.cancel()) }
        for token in tokens {
            #expect(!token.isActive)
            #expect(!token.cancel())
        }
        #expect(pipe.tPing(1) == nil)
        bus.publish(TokenEvent())
        property.value = 1
        #expect(log.all.isEmpty)
    }

    @Test(
        "A tree run is a registration too: its token cancels it once, and is inactive once it ends")
    func treeRunToken() async {
        let slow = OperationTreeNode(
            "slow", objects: { (n: Int) in [n] },
            work: { n in
                try await Task.sleep(for: .seconds(60))
                return n
            })
        let run = slow.start(1)
        let bag = RegistrationBag()
        run.token.store(in: bag)
        #expect(run.token.isActive)
        #expect(run.token == run.token)
        bag.cancelAll()  // cancels the run
        #expect(!run.token.isActive)
        #expect(!run.cancel())
        #expect(await run.report.outcome == .cancelled)

        let quick = OperationTreeNode("quick", objects: { (n: Int) in [n] }, work: { $0 })
        let done = quick.start(1)
        #expect(await done.report.isSuccess)
        #expect(!done.token.isActive)
        #expect(!done.cancel())
    }

    @Test("A token equals only itself: ids are unique across parts and instances")
    func tokensCompareByRegistration() {
        let first = ActionPipe(name: "p")
        let second = ActionPipe(name: "p")
        let a = first.on(\.tPing) { _ in 1 }
        let b = second.on(\.tPing) { _ in 2 }
        let busA = EventBus(name: "a")
        let busB = EventBus(name: "b")
        let c = busA.subscribe(tokenEvents) { _ in }
        let d = busB.subscribe(tokenEvents) { _ in }
        #expect(Set([a, b, c, d, a, c]).count == 4)
        #expect(a == a && a != b && c != d)
    }

    @Test("Releasing a bag cancels every registration stored in it, in every part")
    func bagReleaseCancels() {
        let pipe = ActionPipe(name: "pipe")
        let bus = EventBus(name: "bus")
        let property = ObservedProperty(0)
        var bag: RegistrationBag? = RegistrationBag()
        let tokens = [
            pipe.on(\.tPing) { process in process.arguments },
            bus.subscribe(tokenEvents) { _ in },
            property.observe { _ in },
        ]
        for token in tokens { token.store(in: bag!) }
        #expect(bag?.count == 3)
        bag = nil
        #expect(tokens.allSatisfy { !$0.isActive })
        #expect(pipe.tPing(1) == nil)
        #expect(bus.subscriptionCount == 0)
        #expect(property.observerCount == 0)
    }

    @Test("cancelAll() cancels and empties; tokens stored afterwards are kept")
    func cancelAllThenReuse() {
        let property = ObservedProperty(0)
        let bag = RegistrationBag()
        property.observe { _ in }.store(in: bag)
        property.observe { _ in }.store(in: bag)
        bag.cancelAll()
        #expect(bag.count == 0)
        #expect(property.observerCount == 0)
        let later = property.observe { _ in }
        later.store(in: bag)
        #expect(later.isActive && bag.count == 1)
    }

    @Test(
        "A bag into which tokens are stored and cancelled one by one stays as small as its live tokens"
    )
    func bagDropsCancelledTokens() {
        let bus = EventBus(name: "bus")
        let bag = RegistrationBag()
        let kept = bus.subscribe(tokenEvents) { _ in }
        kept.store(in: bag)
        for _ in 0..<10_000 {
            let token = bus.subscribe(tokenEvents) { _ in }
            token.store(in: bag)
            token.cancel()
        }
        // Pruning runs once the bag doubles past its live tokens (at least 32).
        #expect(bag.count <= 64)
        #expect(kept.isActive)
        bag.cancelAll()
        #expect(!kept.isActive)
    }

    @Test(
        "Cancelling a bag releases what its registrations captured, and a deinit that stores into the same bag does not deadlock"
    )
    func cancelAllReleasesAfterUnlocking() {
        let pipe = ActionPipe(name: "pipe")
        let bag = RegistrationBag()
        let before = TokenTracked.released.load(ordering: .relaxed)
        for _ in 0..<20 {
            // The captured object's deinit registers again, into the same bag: it runs
            // while the bag cancels, so the bag must not hold its lock then.
            let tracked = TokenTracked { [bag, pipe] in
                pipe.on(\.tOther) { process in process.arguments }.store(in: bag)
            }
            pipe.on(\.tPing) { process in
                withExtendedLifetime(tracked) { process.arguments }
            }.store(in: bag)
        }
        bag.cancelAll()
        // The first 19 handlers were replaced (and released) as each next one registered;
        // cancelAll released the last. Every deinit stored a token for `tOther`.
        #expect(TokenTracked.released.load(ordering: .relaxed) - before >= 20)
        #expect(pipe.handles(\.tOther))
        #expect(bag.count >= 1)
        bag.cancelAll()
        #expect(!pipe.handles(\.tOther))
    }

    @Test("Threads storing into one bag while others cancel all: every registration ends cancelled")
    func concurrentStoresAndCancels() async {
        let property = ObservedProperty(0)
        let bag = RegistrationBag()
        let stored = TestLock<[RegistrationToken]>([])
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<500 {
                        let token = property.observe { _ in }
                        token.store(in: bag)
                        stored.withLock { $0.append(token) }
                    }
                }
            }
            group.addTask {
                for _ in 0..<50 {
                    bag.cancelAll()
                    await Task.yield()
                }
            }
        }
        bag.cancelAll()
        let tokens = stored.withLock { $0 }
        #expect(tokens.count == 2_000)
        #expect(tokens.allSatisfy { !$0.isActive })
        #expect(property.observerCount == 0)
    }
}
