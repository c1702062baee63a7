import ActionPipe

/// The reference model of the core: plain arrays and loops, written from Docs/CoreActions.md
/// and Docs/AsyncActions.md, with no snapshots, caches or locks.
struct ModelCoreReference {
    let names: [String]
    /// The chains, each an ordered list of pipe indices; every pipe is in exactly one.
    var chains: [[Int]]
    /// `handlers[pipe][action]`: at most one handler per pipe and action.
    var handlers: [[ModelCoreSpec?]]
    /// Every token handed out in this sequence: whose handler it registered.
    var tokens: [(pipe: Int, action: ModelCoreAction, handler: Int)] = []
    /// Handlers whose target the test has dropped.
    var droppedTargets: Set<Int> = []

    init(pipes count: Int) {
        names = (0..<count).map { "p\($0)" }
        chains = (0..<count).map { [$0] }
        handlers = Array(
            repeating: Array(repeating: nil, count: ModelCoreAction.allCases.count), count: count)
    }

    func chain(of pipe: Int) -> [Int] {
        chains.first { $0.contains(pipe) }!
    }

    func isActive(token index: Int) -> Bool {
        let token = tokens[index]
        return handlers[token.pipe][token.action.rawValue]?.id == token.handler
    }

    func handles(_ pipe: Int, _ action: ModelCoreAction) -> Bool {
        handlers[pipe][action.rawValue] != nil
    }

    func chainHandles(_ pipe: Int, _ action: ModelCoreAction) -> Bool {
        chain(of: pipe).contains { handles($0, action) }
    }

    /// Registers `spec`; the last registration wins. Returns the replaced handler.
    mutating func register(_ spec: ModelCoreSpec, on pipe: Int, for action: ModelCoreAction)
        -> ModelCoreSpec?
    {
        let old = handlers[pipe][action.rawValue]
        handlers[pipe][action.rawValue] = spec
        tokens.append((pipe, action, spec.id))
        return old
    }

    /// Cancels a token: removes its handler only if that handler is still the current one.
    mutating func cancel(token index: Int) -> Bool {
        guard isActive(token: index) else { return false }
        let token = tokens[index]
        handlers[token.pipe][token.action.rawValue] = nil
        return true
    }

    mutating func removeHandler(on pipe: Int, for action: ModelCoreAction) -> Bool {
        guard handlers[pipe][action.rawValue] != nil else { return false }
        handlers[pipe][action.rawValue] = nil
        return true
    }

    /// `append`: the other pipe's whole chain goes to the end of the receiver's, unless
    /// the other pipe already is in the receiver's chain (a cycle), which changes nothing.
    mutating func append(_ other: Int, to receiver: Int) -> ChainError? {
        let target = chain(of: receiver)
        if target.contains(other) {
            return .alreadyInChain(pipe: names[other], chain: target.map { names[$0] })
        }
        let moved = chain(of: other)
        chains.removeAll { $0 == moved }
        let index = chains.firstIndex { $0 == target }!
        chains[index] += moved
        return nil
    }

    /// `removeFromChain`: the pipe becomes a chain of its own; `false` if it already was.
    mutating func removeFromChain(_ pipe: Int) -> Bool {
        let index = chains.firstIndex { $0.contains(pipe) }!
        guard chains[index].count > 1 else { return false }
        chains[index].removeAll { $0 == pipe }
        chains.append([pipe])
        return true
    }

    /// Whether the handler's target is there: weak targets go when the test drops them,
    /// strong ones live while the handler is registered.
    func targetIsAlive(_ spec: ModelCoreSpec) -> Bool {
        spec.target != .weak || !droppedTargets.contains(spec.id)
    }

    /// A call, as the guide describes it: from the chain's head, every pipe in order; state
    /// first, then conditions in order, then the target; the last handler that ran gives
    /// the value; stop() and a thrown error end the call.
    func call(
        _ action: ModelCoreAction, on pipe: Int, state: ActionState?, arguments: (Int, Int?),
        side: Int?
    ) -> ModelCoreOutcome {
        var outcome = ModelCoreOutcome()
        var arguments = arguments
        var side = side
        var value: Int? = nil
        var ended: SkipReason? = nil
        for member in chain(of: pipe) {
            let name = names[member]
            guard let spec = handlers[member][action.rawValue] else {
                outcome.steps.append(.init(pipe: name, outcome: .skipped(.notRegistered)))
                continue
            }
            if let ended {
                outcome.steps.append(.init(pipe: name, outcome: .skipped(ended)))
                continue
            }
            if let reason = skipReason(spec, state: state, arguments: arguments, upstream: value) {
                outcome.steps.append(.init(pipe: name, outcome: .skipped(reason)))
                continue
            }
            outcome.handlersRun += 1
            outcome.seen.append(
                ModelCoreSeen(
                    handler: spec.id, arguments: arguments, upstream: value, side: side,
                    state: state))
            let effect = spec.effect(
                arguments: arguments, upstream: value, side: side, canThrow: action.canThrow)
            arguments = effect.arguments
            side = effect.side
            if effect.throwsError {
                let error = ModelCoreError(handler: spec.id)
                outcome.steps.append(.init(pipe: name, outcome: .threw(error.description)))
                outcome.error = error
                outcome.thrownBy = name
                ended = .earlierHandlerThrew
                continue
            }
            value = effect.result
            if effect.stops {
                outcome.steps.append(.init(pipe: name, outcome: .stopped))
                outcome.stoppedBy = name
                ended = .stoppedEarlier
            } else {
                outcome.steps.append(.init(pipe: name, outcome: .ran))
            }
        }
        outcome.value = outcome.error == nil ? value : nil
        return outcome
    }

    private func skipReason(
        _ spec: ModelCoreSpec, state: ActionState?, arguments: (Int, Int?), upstream: Int?
    ) -> SkipReason? {
        if let handlerState = spec.state, let state, handlerState.rawValue & state.rawValue == 0 {
            return .stateMismatch(handler: handlerState, call: state)
        }
        for condition in spec.conditions {
            switch condition {
            case .upstreamNotNil where upstream == nil: return .upstreamNil
            case .upstreamIsInt where upstream == nil: return .upstreamNotOfType("Int")
            case .upstreamIsString: return .upstreamNotOfType("String")
            case .argumentNotNil where arguments.1 == nil: return .argumentNil(argument: "1")
            case .argumentIsInt where arguments.1 == nil:
                return .argumentNotOfType(argument: "1", expected: "Int")
            case .whenEven where arguments.0 % 2 != 0: return .conditionFailed("even")
            case .whenSmallUpstream where (upstream ?? 0) >= 5000:
                return .conditionFailed("small upstream")
            default: continue
            }
        }
        if !targetIsAlive(spec) { return .targetReleased }
        return nil
    }
}

/// What a call did, in the model or in the library.
struct ModelCoreOutcome: Equatable, CustomStringConvertible {
    var value: Int? = nil
    var handlersRun = 0
    var stoppedBy: String? = nil
    var thrownBy: String? = nil
    var error: ModelCoreError? = nil
    var steps: [ModelCoreStep] = []
    var seen: [ModelCoreSeen] = []

    var description: String {
        let trace = steps.map(\.description).joined(separator: " → ")
        return "value \(value.map(String.init) ?? "nil"), ran \(handlersRun), "
            + "stopped by \(stoppedBy ?? "-"), thrown by \(thrownBy ?? "-") "
            + "(\(error.map(String.init(describing:)) ?? "no error")); trace [\(trace)]; "
            + "seen \(seen)"
    }
}

/// One step of a trace, comparable between the model and the library.
struct ModelCoreStep: Equatable, CustomStringConvertible {
    var pipe: String
    var outcome: ActionTrace.Outcome

    init(pipe: String, outcome: ActionTrace.Outcome) {
        self.pipe = pipe
        self.outcome = outcome
    }

    init(_ step: ActionTrace.Step) { self.init(pipe: step.pipe, outcome: step.outcome) }

    var description: String { "\(pipe) \(outcome)" }
}
