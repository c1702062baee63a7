import ActionPipe
import Foundation
import Testing

/// Many threads publishing while others subscribe, cancel, unsubscribe and release
/// subscribers, a fixed number of times each, with every delivery accounted for. The work
/// is counted, not timed: a busy machine runs the same work more slowly.
@Suite("Stress: event bus")
struct BusStressTests {
    static let publishesPerPublisher = 3_000
    static let stepsPerChurner = 1_500

    @Test(
        "publishes during subscription churn: stable subscribers get every event exactly once",
        .hangBound)
    func publishesDuringChurn() async throws {
        let bus = EventBus(name: "stress")
        let alpha1 = BusTopic(ModelBusAlpha.self, 1)
        let alphaAny = BusTopic(anySubtypeOf: ModelBusAlpha.self)
        let beta = BusTopic(ModelBusBeta.self)

        // Stable subscriptions: never removed, each counts what it gets.
        let exact = (0..<4).map { _ in Counter() }
        for counter in exact { bus.subscribe(alpha1) { _ in counter.increment() } }
        let anySubtype = (0..<2).map { _ in Counter() }
        for counter in anySubtype { bus.subscribe(alphaAny) { _ in counter.increment() } }
        let either = Counter()
        bus.subscribe(anyOf: [alpha1.key, beta.key]) { _ in either.increment() }
        let owner = ModelBusOwner(generation: 0)
        let betas = Counter()
        bus.subscribe(beta, owner: owner) { _, _ in betas.increment() }
        // A re-entrant subscriber: every Alpha.1 publishes a Beta from inside its handler.
        bus.subscribe(alpha1) { [weak bus] event in
            bus?.publish(ModelBusBeta(serial: -event.serial))
        }
        let onTasks = Tally()
        bus.subscribe(alpha1, on: .task) { _ in onTasks.increment() }
        // Exact, any-subtype, anyOf and relay handlers; the task one is only scheduled.
        let stableAlpha1 = 4 + 2 + 1 + 1

        let alpha1Published = Counter()
        let otherAlphaPublished = Counter()
        let betaPublished = Counter()
        let churnRuns = Counter()
        let wrong = StressFailures()
        let checks = Counter()
        let publishers = 2
        let finished = await runOnThreads(publishers + 2, timeout: 120) { thread in
            var random = SeededRandom(seed: 0xB05_5EED + UInt64(thread))
            if thread < publishers {
                var serial = thread * 10_000_000
                for _ in 0..<Self.publishesPerPublisher {
                    serial += 1
                    if random.chance(2, in: 3) {
                        let result = bus.publish(ModelBusAlpha(subtype: 1, serial: serial))
                        alpha1Published.increment()
                        if result.handledCount < stableAlpha1 || result.failedCount != 0
                            || result.scheduledCount < 1
                        {
                            wrong.record("Alpha.1 publish result \(result)")
                        }
                    } else {
                        let result = bus.publish(ModelBusBeta(serial: serial))
                        betaPublished.increment()
                        if result.handledCount < 2 || result.failedCount != 0 {
                            wrong.record("Beta publish result \(result)")
                        }
                    }
                }
                return
            }
            // Churners: topics shared with the publishers, and private subtypes for checks
            // whose outcome this thread alone decides.
            let privateA = 10 + thread
            let privateB = 20 + thread
            var tokens: [RegistrationToken] = []
            var owners: [ModelBusOwner] = []
            func publishPrivate(_ subtype: Int) {
                bus.publish(ModelBusAlpha(subtype: subtype, serial: 0))
                otherAlphaPublished.increment()
            }
            for _ in 0..<Self.stepsPerChurner {
                let roll = tokens.count > 40 ? 3 : random.below(8)
                switch roll {
                case 0, 1:
                    let topic = random.chance(1, in: 2) ? alpha1 : alphaAny
                    tokens.append(bus.subscribe(topic) { _ in churnRuns.increment() })
                case 2:
                    let object = ModelBusOwner(generation: thread)
                    owners.append(object)
                    bus.subscribe(beta, owner: object) { _, _ in churnRuns.increment() }
                    bus.subscribe(alpha1, owner: object) { _, _ in churnRuns.increment() }
                case 3:
                    if !tokens.isEmpty {
                        let token = tokens.remove(at: random.below(tokens.count))
                        if !token.cancel() || token.cancel() { wrong.record("cancel twice") }
                    }
                case 4:
                    if !owners.isEmpty {
                        let object = owners.remove(at: random.below(owners.count))
                        if random.chance(1, in: 2) { bus.unsubscribeAll(object) }
                    }  // otherwise simply released
                case 5:
                    // A union of two private keys: fires once per pair, a repeat does not count.
                    let fired = Counter()
                    let union = bus.subscribe(allOf: [
                        BusTopic(ModelBusAlpha.self, privateA).key,
                        BusTopic(ModelBusAlpha.self, privateB).key,
                    ]) { _ in fired.increment() }
                    publishPrivate(privateA)
                    publishPrivate(privateA)
                    let early = fired.value
                    publishPrivate(privateB)
                    if early != 0 || fired.value != 1 {
                        wrong.record("union fired \(early), then \(fired.value)")
                    }
                    if !union.cancel() { wrong.record("union cancel") }
                    publishPrivate(privateA)
                    publishPrivate(privateB)
                    if fired.value != 1 { wrong.record("a cancelled union fired") }
                    checks.increment()
                case 6:
                    // Nothing reaches a subscriber after its release has finished.
                    let got = Counter()
                    var object: ModelBusOwner? = ModelBusOwner(generation: thread)
                    bus.subscribe(BusTopic(ModelBusAlpha.self, privateA), owner: object!) { _, _ in
                        got.increment()
                    }
                    publishPrivate(privateA)
                    object = nil
                    publishPrivate(privateA)
                    if got.value != 1 {
                        wrong.record("released subscriber got \(got.value) events")
                    }
                    checks.increment()
                default:
                    // Nothing reaches a cancelled subscription.
                    let got = Counter()
                    let token = bus.subscribe(BusTopic(ModelBusAlpha.self, privateB)) { _ in
                        got.increment()
                    }
                    publishPrivate(privateB)
                    if !token.cancel() { wrong.record("cancel of a live subscription") }
                    publishPrivate(privateB)
                    if got.value != 1 {
                        wrong.record("cancelled subscription got \(got.value) events")
                    }
                    checks.increment()
                }
            }
            for token in tokens { token.cancel() }
        }
        #expect(finished, "a thread did not finish within 120 s: deadlock or livelock")
        #expect(wrong.count == 0, "\(wrong.count) failures, first: \(wrong.first ?? "")")
        let alpha1Count = alpha1Published.value
        #expect(alpha1Count + betaPublished.value == publishers * Self.publishesPerPublisher)
        let betaCount = betaPublished.value
        for (index, counter) in exact.enumerated() {
            #expect(
                counter.value == alpha1Count,
                "exact subscriber \(index): \(counter.value) of \(alpha1Count)")
        }
        for (index, counter) in anySubtype.enumerated() {
            #expect(
                counter.value == alpha1Count + otherAlphaPublished.value,
                "any-subtype subscriber \(index): \(counter.value) of \(alpha1Count + otherAlphaPublished.value)"
            )
        }
        #expect(either.value == alpha1Count + betaCount + alpha1Count)  // relayed Betas too
        #expect(betas.value == betaCount + alpha1Count)
        // Jobs handed to tasks: all of them run, none twice. They run on tasks the publishes
        // started, which a busy machine may hold back: wait for the count, not for a time.
        await onTasks.wait(for: alpha1Count)
        #expect(
            onTasks.value == alpha1Count, "task subscriber ran \(onTasks.value) of \(alpha1Count)")
        withExtendedLifetime(owner) {}
        print(
            "StressBus: \(alpha1Count) Alpha.1 + \(betaCount) Beta + \(otherAlphaPublished.value) private "
                + "publishes, \(checks.value) sequential checks, \(churnRuns.value) churn deliveries"
        )
    }
}
