import ActionPipe
import Testing

/// Random sequences of subscriptions (single, allOf, anyOf; by an owner or by token),
/// publishes, cancellations, unsubscriptions and owner releases, compared after every step
/// with `ModelBusReference`.
@Suite("Model: event bus")
struct ModelBusTests {
    static let sequences = 300
    static let stepsPerSequence = 60

    @Test("random operation sequences match the reference model", .hangBound)
    func randomSequences() {
        let run = SeededRun(defaultSeed: 0xB05_0F1E_5EED_0002, sequences: Self.sequences)
        let clock = ContinuousClock()
        let start = clock.now
        var steps = 0
        var ran = 0
        var publishes = 0
        var deliveries = 0
        for sequence in run.sequences {
            var runner = ModelBusRunner(
                seed: SeededRandom.sequenceSeed(base: run.seed, sequence: sequence),
                context: run.replay(sequence))
            let passed = runner.run(steps: Self.stepsPerSequence)
            ran += 1
            steps += runner.steps
            publishes += runner.publishes
            deliveries += runner.deliveries
            if !passed { break }
        }
        print(
            "ModelBus: \(ran) sequences, \(steps) steps (\(publishes) publishes, "
                + "\(deliveries) deliveries), seed \(run.seed), \(clock.now - start)")
        if run.sequences.count >= Self.sequences {
            #expect(deliveries > publishes, "seed \(run.seed): the sequences delivered too little")
        }
    }
}

/// One random sequence: a bus and the model side by side.
struct ModelBusRunner {
    private var random: SeededRandom
    private let context: String
    private var model = ModelBusReference()
    private let bus = EventBus(name: "model")
    private let recorder = ModelBusRecorder()
    /// Subscriber slots: the objects the test holds.
    private var owners: [ModelBusOwner?] = [nil, nil, nil]
    private var nextGeneration = 1
    /// Every token handed out, with the model's subscription id.
    private var tokens: [(token: RegistrationToken, id: Int)] = []
    private var nextID = 1
    private var nextSerial = 1
    private(set) var steps = 0
    private(set) var publishes = 0
    private(set) var deliveries = 0
    private var history: [String] = []

    init(seed: UInt64, context: String) {
        random = SeededRandom(seed: seed)
        self.context = context
    }

    mutating func run(steps count: Int) -> Bool {
        for _ in 0..<count {
            steps += 1
            guard step(), verify() else { return false }
        }
        return true
    }

    private mutating func step() -> Bool {
        switch random.below(100) {
        case 0..<25: return subscribe(.single(randomKey()))
        case 25..<33: return subscribe(.allOf(randomUnionKeys()))
        case 33..<39: return subscribe(.anyOf(randomUnionKeys()))
        case 39..<70: return publish()
        case 70..<77:
            guard !tokens.isEmpty else { return true }
            let (token, id) = tokens[random.below(tokens.count)]
            note("cancel s\(id)")
            let expected = model.cancel(id)
            return expect(token.cancel() == expected, "cancel() of s\(id) returns \(expected)")
        case 77..<84:
            let slot = random.below(owners.count)
            guard let owner = owners[slot] else { return true }
            let key = randomKey()
            note("unsubscribe owner \(owner.generation) from \(key)")
            let expected = model.unsubscribe(owner: owner.generation, from: key)
            let removed =
                random.chance(1, in: 2)
                ? bus.unsubscribe(owner, from: key.key) : unsubscribeByTopic(owner, key)
            return expect(removed == expected, "unsubscribe returns \(expected), got \(removed)")
        case 84..<88:
            let slot = random.below(owners.count)
            guard let owner = owners[slot] else { return true }
            note("unsubscribeAll owner \(owner.generation)")
            let expected = model.unsubscribeAll(owner: owner.generation)
            let removed = bus.unsubscribeAll(owner)
            return expect(removed == expected, "unsubscribeAll returns \(expected), got \(removed)")
        default:
            let slot = random.below(owners.count)
            guard let generation = owners[slot]?.generation else { return true }
            note("release owner \(generation)")
            var weak = ModelBusWeakOwner()
            weak.object = owners[slot]
            owners[slot] = nil
            model.release(owner: generation)
            return expect(weak.object == nil, "the bus holds subscriber \(generation) weakly")
        }
    }

    // MARK: Operations

    private mutating func subscribe(_ kind: ModelBusReference.Kind) -> Bool {
        let id = nextID
        nextID += 1
        var owner: ModelBusOwner? = nil
        if random.chance(1, in: 2) {
            let slot = random.below(owners.count)
            if owners[slot] == nil {
                owners[slot] = ModelBusOwner(generation: nextGeneration)
                nextGeneration += 1
            }
            owner = owners[slot]
        }
        var subscription = ModelBusReference.Subscription(
            id: id, kind: kind, owner: owner?.generation, throwsError: random.chance(1, in: 8),
            relays: false, oneShot: false)
        if case .single(let key) = kind {
            subscription.relays = key.isAlpha && random.chance(1, in: 6)
            subscription.oneShot = random.chance(1, in: 8)
        }
        note(
            "subscribe s\(id) \(kind) owner \(owner.map { "\($0.generation)" } ?? "-")"
                + (subscription.throwsError ? " throws" : "")
                + (subscription.relays ? " relays" : "") + (subscription.oneShot ? " one-shot" : "")
        )
        let token = librarySubscribe(subscription, owner: owner)
        tokens.append((token, id))
        model.subscribe(subscription)
        return expect(
            token.isActive == model.isActive(id), "s\(id).isActive == \(model.isActive(id))")
    }

    private mutating func publish() -> Bool {
        publishes += 1
        let serial = nextSerial
        nextSerial += 1
        let event: ModelBusPublished =
            random.chance(2, in: 3)
            ? .alpha(subtype: random.below(3), serial: serial) : .beta(serial: serial)
        note("publish \(event)")
        var expected: [ModelBusDelivery] = []
        let counts = model.publish(event, into: &expected)
        let result: BusPublishResult =
            switch event {
            case .alpha(let subtype, let serial):
                bus.publish(ModelBusAlpha(subtype: subtype, serial: serial))
            case .beta(let serial): bus.publish(ModelBusBeta(serial: serial))
            }
        let actual = recorder.take()
        deliveries += actual.count
        return expect(actual == expected, "deliveries \(actual), model \(expected)")
            && expect(
                result.handledCount == counts.handled && result.failedCount == counts.failed
                    && result.scheduledCount == 0,
                "publish result \(result), model handled \(counts.handled) failed \(counts.failed)")
    }

    private func unsubscribeByTopic(_ owner: ModelBusOwner, _ key: ModelBusKey) -> Int {
        switch key {
        case .alpha0, .alpha1, .alpha2:
            bus.unsubscribe(owner, from: BusTopic(ModelBusAlpha.self, key.rawValue))
        case .alphaAny: bus.unsubscribe(owner, from: BusTopic(anySubtypeOf: ModelBusAlpha.self))
        case .beta: bus.unsubscribe(owner, from: BusTopic(ModelBusBeta.self))
        case .betaAny: bus.unsubscribe(owner, from: BusTopic(anySubtypeOf: ModelBusBeta.self))
        }
    }

    // MARK: The library

    private func librarySubscribe(
        _ subscription: ModelBusReference.Subscription, owner: ModelBusOwner?
    )
        -> RegistrationToken
    {
        let id = subscription.id
        let recorder = recorder
        let fails = subscription.throwsError
        switch subscription.kind {
        case .single(let key):
            let box = ModelBusTokenBox()
            let relays = subscription.relays
            let oneShot = subscription.oneShot
            let body: @Sendable (Int) throws -> Void = { [weak bus] serial in
                recorder.record(ModelBusDelivery(subscription: id, serial: serial))
                if relays { bus?.publish(ModelBusBeta(serial: serial + 100_000)) }
                if oneShot { box.token?.cancel() }
                if fails { throw ModelBusError(subscription: id) }
            }
            let token: RegistrationToken
            switch (key, owner) {
            case (.alpha0, _), (.alpha1, _), (.alpha2, _), (.alphaAny, _):
                let topic =
                    key == .alphaAny
                    ? BusTopic(anySubtypeOf: ModelBusAlpha.self)
                    : BusTopic(ModelBusAlpha.self, key.rawValue)
                if let owner {
                    token = bus.subscribe(topic, owner: owner) { _, event in try body(event.serial)
                    }
                } else {
                    token = bus.subscribe(topic) { event in try body(event.serial) }
                }
            case (.beta, _), (.betaAny, _):
                let topic =
                    key == .betaAny
                    ? BusTopic(anySubtypeOf: ModelBusBeta.self) : BusTopic(ModelBusBeta.self)
                if let owner {
                    token = bus.subscribe(topic, owner: owner) { _, event in try body(event.serial)
                    }
                } else {
                    token = bus.subscribe(topic) { event in try body(event.serial) }
                }
            }
            box.token = token
            return token
        case .allOf(let keys), .anyOf(let keys):
            let body: @Sendable (BusUnion) throws -> Void = { union in
                recorder.record(
                    ModelBusDelivery(
                        subscription: id, serial: ModelBusDelivery.serial(of: union.last),
                        lastKey: union.lastKey, union: union.events.map(ModelBusDelivery.serial)))
                if fails { throw ModelBusError(subscription: id) }
            }
            let all = if case .allOf = subscription.kind { true } else { false }
            let libraryKeys = keys.map(\.key)
            switch (all, owner) {
            case (true, let owner?):
                return bus.subscribe(allOf: libraryKeys, owner: owner) { _, union in try body(union)
                }
            case (true, nil): return bus.subscribe(allOf: libraryKeys) { union in try body(union) }
            case (false, let owner?):
                return bus.subscribe(anyOf: libraryKeys, owner: owner) { _, union in try body(union)
                }
            case (false, nil): return bus.subscribe(anyOf: libraryKeys) { union in try body(union) }
            }
        }
    }

    // MARK: Checks

    private mutating func verify() -> Bool {
        guard
            expect(
                bus.subscriptionCount == model.count,
                "subscriptionCount \(bus.subscriptionCount), model \(model.count)")
        else { return false }
        for (token, id) in tokens {
            guard
                expect(
                    token.isActive == model.isActive(id), "s\(id).isActive == \(model.isActive(id))"
                )
            else { return false }
        }
        return true
    }

    // MARK: Random choices

    private mutating func randomKey() -> ModelBusKey {
        ModelBusKey(rawValue: random.below(ModelBusKey.allCases.count))!
    }

    /// 0 to 3 keys, duplicates allowed, but no two different keys that one event matches
    /// both (`Alpha.1` and `Alpha.*`): what a union does then is not documented, and
    /// `BusUnionOverlapTests` covers it on its own.
    private mutating func randomUnionKeys() -> [ModelBusKey] {
        var keys: [ModelBusKey] = []
        for _ in 0..<random.pick([0, 1, 2, 2, 3, 3, 3]) {
            let key = randomKey()
            if keys.contains(where: { $0 != key && $0.overlaps(key) }) { continue }
            keys.append(key)
        }
        return keys
    }

    private mutating func note(_ operation: String) {
        history.append("\(steps): \(operation)")
    }

    private func expect(_ condition: Bool, _ message: @autoclosure () -> String) -> Bool {
        if !condition {
            Issue.record(
                """
                \(context) step \(steps): \(message())
                operations so far:
                \(history.suffix(25).joined(separator: "\n"))
                """)
        }
        return condition
    }
}
