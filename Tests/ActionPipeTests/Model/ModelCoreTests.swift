import ActionPipe
import Testing

/// Random sequences of registrations, removals, compositions, target releases and calls,
/// compared after every step with `ModelCoreReference`.
@Suite("Model: core pipes and chains")
struct ModelCoreTests {
    /// Sequences run by default; ACTIONPIPE_MODEL_SCALE multiplies it.
    static let sequences = 300
    static let stepsPerSequence = 60

    @Test("random operation sequences match the reference model", .hangBound)
    func randomSequences() async {
        let run = SeededRun(defaultSeed: 0xAC71_0F1E_5EED_0001, sequences: Self.sequences)
        let clock = ContinuousClock()
        let start = clock.now
        var steps = 0
        var ran = 0
        var calls = 0
        var coverage: [String: Int] = [:]
        var allPassed = true
        for sequence in run.sequences {
            var runner = ModelCoreRunner(
                seed: SeededRandom.sequenceSeed(base: run.seed, sequence: sequence),
                context: run.replay(sequence))
            let passed = await runner.run(steps: Self.stepsPerSequence)
            ran += 1
            steps += runner.steps
            calls += runner.calls
            coverage.merge(runner.coverage, uniquingKeysWith: +)
            allPassed = allPassed && passed
            if !passed { break }  // one failure at a time: the first is the one to replay
        }
        print(
            "ModelCore: \(ran) sequences, \(steps) steps (\(calls) calls), "
                + "seed \(run.seed), \(clock.now - start); outcomes \(coverage.sorted { $0.key < $1.key })"
        )
        // The generator must reach every kind of outcome, or the comparison proves little.
        if allPassed && run.sequences.count >= Self.sequences {
            for kind in ModelCoreRunner.outcomeKinds {
                #expect(coverage[kind, default: 0] > 0, "seed \(run.seed): no call saw '\(kind)'")
            }
        }
    }
}

/// One random sequence: the library's pipes and the model side by side.
struct ModelCoreRunner {
    private var random: SeededRandom
    private let context: String
    private var model: ModelCoreReference
    private let pipes: [ActionPipe]
    private var tokens: [RegistrationToken] = []
    /// Targets the test holds, by handler id.
    private var targets: [Int: ModelCoreTarget] = [:]
    /// Strongly retained targets the test dropped: each must go once its handler goes.
    private var strongTargets: [Int: ModelCoreWeakTarget] = [:]
    private let log = ModelCoreLog()
    private var nextHandler = 1
    private(set) var steps = 0
    private(set) var calls = 0
    private var history: [String] = []
    /// How often each kind of trace outcome was compared.
    private(set) var coverage: [String: Int] = [:]

    static let outcomeKinds = [
        "ran", "stopped", "threw", "not registered", "state", "upstream nil",
        "upstream not of type", "argument nil", "argument not of type", "condition",
        "target released", "stopped earlier", "earlier threw", "chain error",
    ]

    init(seed: UInt64, context: String) {
        random = SeededRandom(seed: seed)
        self.context = context
        var sizer = SeededRandom(seed: ~seed)
        let count = 2 + sizer.below(4)  // 2...5 pipes
        model = ModelCoreReference(pipes: count)
        pipes = model.names.map { ActionPipe(name: $0) }
    }

    /// Runs `count` random steps; returns `false` (after recording an issue) at the first
    /// difference from the model.
    mutating func run(steps count: Int) async -> Bool {
        for _ in 0..<count {
            steps += 1
            let passed = await step()
            if !passed || !verifyStructure() { return false }
        }
        return true
    }

    private mutating func step() async -> Bool {
        let roll = random.below(100)
        let pipe = random.below(pipes.count)
        let action = ModelCoreAction(rawValue: random.below(ModelCoreAction.allCases.count))!
        switch roll {
        case 0..<28:
            return register(on: pipe, for: action)
        case 28..<34:
            guard !tokens.isEmpty else { return true }
            let index = random.below(tokens.count)
            note("cancel token \(index) (handler #\(model.tokens[index].handler))")
            let expected = model.cancel(token: index)
            return expect(tokens[index].cancel() == expected, "cancel() returns \(expected)")
        case 34..<40:
            note("removeHandler(\(action)) on p\(pipe)")
            let expected = model.removeHandler(on: pipe, for: action)
            return expect(
                Self.removeHandler(action, on: pipes[pipe]) == expected,
                "removeHandler returns \(expected)")
        case 40..<52:
            let other = random.below(pipes.count)
            note("p\(pipe).append(p\(other))")
            let expected = model.append(other, to: pipe)
            do {
                let returned = try pipes[pipe].append(pipes[other])
                return expect(expected == nil, "append succeeded, model expects \(expected!)")
                    && expect(returned === pipes[other], "append returns the other pipe")
            } catch {
                coverage["chain error", default: 0] += 1
                return expect(error == expected, "append threw \(error), model: \(show(expected))")
            }
        case 52..<60:
            note("p\(pipe).removeFromChain()")
            let expected = model.removeFromChain(pipe)
            return expect(
                pipes[pipe].removeFromChain() == expected, "removeFromChain returns \(expected)")
        case 60..<65:
            return dropTarget()
        default:
            return await call(action, on: pipe)
        }
    }

    // MARK: Operations

    private mutating func register(on pipe: Int, for action: ModelCoreAction) -> Bool {
        let spec = randomSpec(for: action)
        note("register on p\(pipe) for \(action): \(spec)")
        var target: ModelCoreTarget? = nil
        if spec.target != .none {
            target = ModelCoreTarget(handler: spec.id)
            targets[spec.id] = target
        }
        let token = Self.register(spec, for: action, on: pipes[pipe], target: target, log: log)
        target = nil
        tokens.append(token)
        _ = model.register(spec, on: pipe, for: action)
        return expect(token.isActive, "a new registration's token is active")
    }

    /// Drops the test's reference to one handler's target.
    private mutating func dropTarget() -> Bool {
        guard !targets.isEmpty else { return true }
        let ids = targets.keys.sorted()
        let id = ids[random.below(ids.count)]
        let weak = ModelCoreWeakTarget(targets.removeValue(forKey: id))
        note("drop the target of handler #\(id)")
        model.droppedTargets.insert(id)
        let strong = model.handlers.joined().contains { $0?.id == id && $0?.target == .strong }
        if strong {
            strongTargets[id] = weak
            return expect(weak.object != nil, "a strongly held target lives on")
        }
        return expect(weak.object == nil, "a weakly held target is not kept alive")
    }

    private mutating func call(_ action: ModelCoreAction, on pipe: Int) async -> Bool {
        calls += 1
        let arguments = (random.below(20), random.chance(1, in: 3) ? nil : random.below(20))
        let state: ActionState? =
            random.chance(2, in: 5) ? nil : ActionState(rawValue: UInt64(random.below(8)))
        let side: Int? = random.chance(1, in: 2) ? nil : random.below(5)
        let traced = random.chance(4, in: 5)
        note(
            "\(traced ? "report" : "call") \(action) on p\(pipe) args \(arguments) "
                + "state \(state.map { "\($0.rawValue)" } ?? "nil") side \(show(side))")
        let expected = model.call(
            action, on: pipe, state: state, arguments: arguments, side: side)
        var actual = await Self.call(
            action, on: pipes[pipe], state: state, arguments: arguments, side: side,
            traced: traced)
        actual.seen = log.take()
        for step in expected.steps { count(step.outcome) }
        if traced {
            return expect(
                actual == expected, "the call differs:\n  library \(actual)\n  model   \(expected)")
        }
        // A plain call reports only its value or error, and what the handlers saw.
        return expect(
            actual.value == expected.value && actual.error == expected.error
                && actual.seen == expected.seen,
            "the plain call differs:\n  library \(actual)\n  model   \(expected)")
    }

    private mutating func count(_ outcome: ActionTrace.Outcome) {
        let kind =
            switch outcome {
            case .ran: "ran"
            case .stopped: "stopped"
            case .threw: "threw"
            case .skipped(.notRegistered): "not registered"
            case .skipped(.stateMismatch): "state"
            case .skipped(.upstreamNil): "upstream nil"
            case .skipped(.upstreamNotOfType): "upstream not of type"
            case .skipped(.argumentNil): "argument nil"
            case .skipped(.argumentNotOfType): "argument not of type"
            case .skipped(.conditionFailed): "condition"
            case .skipped(.targetReleased): "target released"
            case .skipped(.stoppedEarlier): "stopped earlier"
            case .skipped(.earlierHandlerThrew): "earlier threw"
            case .skipped(.cancelled): "cancelled"
            case .skipped(.notOnMainActor): "not on the main actor"
            }
        coverage[kind, default: 0] += 1
    }

    // MARK: Checks

    /// Chain membership and order, what each pipe handles, and every token.
    private mutating func verifyStructure() -> Bool {
        for (index, pipe) in pipes.enumerated() {
            let chain = model.chain(of: index).map { model.names[$0] }
            guard
                expect(
                    pipe.chainNames == chain,
                    "p\(index).chainNames == \(chain), library \(pipe.chainNames)")
            else { return false }
            for other in pipes.indices {
                let same = model.chain(of: index).contains(other)
                guard
                    expect(
                        pipe.isInSameChain(as: pipes[other]) == same,
                        "p\(index).isInSameChain(as: p\(other)) == \(same)")
                else { return false }
            }
            for action in ModelCoreAction.allCases {
                let (handles, chainHandles) = Self.handles(action, on: pipe)
                guard
                    expect(
                        handles == model.handles(index, action),
                        "p\(index).handles(\(action)) == \(model.handles(index, action))"),
                    expect(
                        chainHandles == model.chainHandles(index, action),
                        "p\(index).chainHandles(\(action)) == \(model.chainHandles(index, action))")
                else { return false }
            }
        }
        for index in tokens.indices {
            guard
                expect(
                    tokens[index].isActive == model.isActive(token: index),
                    "token \(index).isActive == \(model.isActive(token: index))")
            else { return false }
        }
        for (id, weak) in strongTargets {
            let registered = model.handlers.joined().contains { $0?.id == id }
            if registered { continue }
            guard
                expect(
                    weak.object == nil, "the strong target of removed handler #\(id) is released")
            else { return false }
            strongTargets[id] = nil
        }
        return true
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

    private func show(_ value: Any?) -> String {
        value.map { "\($0)" } ?? "nil"
    }

    // MARK: Random specs

    private mutating func randomSpec(for action: ModelCoreAction) -> ModelCoreSpec {
        defer { nextHandler += 1 }
        let synchronously = action == .async && random.chance(1, in: 4)
        var conditions: [ModelCoreCondition] = []
        for _ in 0..<random.pick([0, 0, 0, 1, 1, 2, 3]) {
            conditions.append(random.pick(ModelCoreCondition.allCases))
        }
        let rewrites: [ModelCoreRewrite] = [
            .none, .none, .none, .first(add: 1 + random.below(5)),
            .second(random.chance(1, in: 2) ? nil : random.below(20)),
            .both(random.below(20), random.chance(1, in: 2) ? nil : random.below(20)),
        ]
        return ModelCoreSpec(
            id: nextHandler,
            state: random.chance(1, in: 2) ? nil : ActionState(rawValue: UInt64(random.below(8))),
            conditions: conditions,
            target: synchronously ? .none : random.pick([.none, .none, .none, .weak, .strong]),
            returnsNil: random.chance(1, in: 6),
            stopResidue: random.chance(1, in: 5) ? random.below(3) : nil,
            throwResidue: action.canThrow && random.chance(1, in: 3) ? random.below(4) : nil,
            rewrite: random.pick(rewrites),
            suspends: action == .async && !synchronously && random.chance(1, in: 2),
            synchronously: synchronously)
    }

    // MARK: The library, per action

    private static func register(
        _ spec: ModelCoreSpec, for action: ModelCoreAction, on pipe: ActionPipe,
        target: ModelCoreTarget?, log: ModelCoreLog
    ) -> RegistrationToken {
        switch action {
        case .call: registerSync(conditioned(pipe.on(\.modelCall), spec), spec, target, log)
        case .other: registerSync(conditioned(pipe.on(\.modelOther), spec), spec, target, log)
        case .throwing:
            registerThrowing(conditioned(pipe.on(\.modelThrowing), spec), spec, target, log)
        case .async: registerAsync(conditioned(pipe.on(\.modelAsync), spec), spec, target, log)
        }
    }

    private static func conditioned<Kind>(
        _ registration: HandlerRegistration<Kind, Int, Int?, Int>, _ spec: ModelCoreSpec
    ) -> HandlerRegistration<Kind, Int, Int?, Int> {
        var registration = registration
        if let state = spec.state { registration = registration.state(state) }
        for condition in spec.conditions {
            switch condition {
            case .upstreamNotNil: registration = registration.upstreamNotNil()
            case .upstreamIsInt: registration = registration.upstream(is: Int.self)
            case .upstreamIsString: registration = registration.upstream(is: String.self)
            case .argumentNotNil: registration = registration.argumentNotNil(\.1)
            case .argumentIsInt: registration = registration.argument(\.1, is: Int.self)
            case .firstArgumentIsInt: registration = registration.argument(\.0, is: Int.self)
            case .whenEven:
                registration = registration.when("even") { process in
                    process.arguments.0 % 2 == 0
                }
            case .whenSmallUpstream:
                registration = registration.when("small upstream") { process in
                    (process.upstream ?? 0) < 5000
                }
            }
        }
        return registration
    }

    private static func retention(_ spec: ModelCoreSpec) -> Retention {
        spec.target == .strong ? .strong : .weak
    }

    private static func registerSync(
        _ registration: HandlerRegistration<ActionKind.Sync, Int, Int?, Int>,
        _ spec: ModelCoreSpec, _ target: ModelCoreTarget?, _ log: ModelCoreLog
    ) -> RegistrationToken {
        guard let target else {
            return registration.handle { process in
                spec.run(&process, canThrow: false, log: log).result
            }
        }
        return registration.handle(owner: target, retention: retention(spec)) { _, process in
            spec.run(&process, canThrow: false, log: log).result
        }
    }

    private static func registerThrowing(
        _ registration: HandlerRegistration<ActionKind.Throwing<ModelCoreError>, Int, Int?, Int>,
        _ spec: ModelCoreSpec, _ target: ModelCoreTarget?, _ log: ModelCoreLog
    ) -> RegistrationToken {
        guard let target else {
            return registration.handle { (process) throws(ModelCoreError) in
                let output = spec.run(&process, canThrow: true, log: log)
                if output.throwsError { throw ModelCoreError(handler: spec.id) }
                return output.result
            }
        }
        return registration.handle(owner: target, retention: retention(spec)) {
            (_, process) throws(ModelCoreError) in
            let output = spec.run(&process, canThrow: true, log: log)
            if output.throwsError { throw ModelCoreError(handler: spec.id) }
            return output.result
        }
    }

    private static func registerAsync(
        _ registration: HandlerRegistration<ActionKind.Async, Int, Int?, Int>,
        _ spec: ModelCoreSpec, _ target: ModelCoreTarget?, _ log: ModelCoreLog
    ) -> RegistrationToken {
        if spec.synchronously {
            return registration.handleSynchronously { process in
                spec.run(&process, canThrow: true, log: log).result
            }
        }
        guard let target else {
            return registration.handle { process in
                if spec.suspends { await Task.yield() }
                let output = spec.run(&process, canThrow: true, log: log)
                if output.throwsError { throw ModelCoreError(handler: spec.id) }
                return output.result
            }
        }
        return registration.handle(owner: target, retention: retention(spec)) { _, process in
            if spec.suspends { await Task.yield() }
            let output = spec.run(&process, canThrow: true, log: log)
            if output.throwsError { throw ModelCoreError(handler: spec.id) }
            return output.result
        }
    }

    private static func removeHandler(_ action: ModelCoreAction, on pipe: ActionPipe) -> Bool {
        switch action {
        case .call: pipe.removeHandler(for: \.modelCall)
        case .other: pipe.removeHandler(for: \.modelOther)
        case .throwing: pipe.removeHandler(for: \.modelThrowing)
        case .async: pipe.removeHandler(for: \.modelAsync)
        }
    }

    private static func handles(_ action: ModelCoreAction, on pipe: ActionPipe) -> (Bool, Bool) {
        switch action {
        case .call: (pipe.handles(\.modelCall), pipe.chainHandles(\.modelCall))
        case .other: (pipe.handles(\.modelOther), pipe.chainHandles(\.modelOther))
        case .throwing: (pipe.handles(\.modelThrowing), pipe.chainHandles(\.modelThrowing))
        case .async: (pipe.handles(\.modelAsync), pipe.chainHandles(\.modelAsync))
        }
    }

    private static func call(
        _ action: ModelCoreAction, on pipe: ActionPipe, state: ActionState?,
        arguments: (Int, Int?), side: Int?, traced: Bool
    ) async -> ModelCoreOutcome {
        let (first, second) = arguments
        var options = SideData()
        if let side { options[ModelCoreKeys.counter] = side }
        switch action {
        case .call, .other:
            var bound = action == .call ? pipe.modelCall : pipe.modelOther
            if let state { bound = bound.with(state: state) }
            bound = bound.with(sideData: options)
            if traced { return outcome(of: bound.report(first, second)) }
            return ModelCoreOutcome(value: bound(first, second))
        case .throwing:
            var bound = pipe.modelThrowing
            if let state { bound = bound.with(state: state) }
            bound = bound.with(sideData: options)
            if traced { return outcome(of: bound.report(first, second).report) }
            do {
                return ModelCoreOutcome(value: try bound(first, second))
            } catch {
                return ModelCoreOutcome(error: error)
            }
        case .async:
            var bound = pipe.modelAsync
            if let state { bound = bound.with(state: state) }
            bound = bound.with(sideData: options)
            if traced { return outcome(of: await bound.report(first, second)) }
            do {
                return ModelCoreOutcome(value: try await bound(first, second))
            } catch {
                // The model's handlers throw only ModelCoreError; anything else is a finding.
                return ModelCoreOutcome(
                    error: error as? ModelCoreError ?? ModelCoreError(handler: -1))
            }
        }
    }

    private static func outcome(of report: ActionReport<Int>) -> ModelCoreOutcome {
        ModelCoreOutcome(
            value: report.value, handlersRun: report.runCount, stoppedBy: report.stoppedBy,
            thrownBy: report.thrownBy,
            error: report.error.map { $0 as? ModelCoreError ?? ModelCoreError(handler: -1) },
            steps: report.trace.steps.map(ModelCoreStep.init))
    }
}

/// A weak reference to a model target, to see whether the library keeps it alive.
struct ModelCoreWeakTarget {
    weak var object: ModelCoreTarget?
    init(_ object: ModelCoreTarget?) { self.object = object }
}
