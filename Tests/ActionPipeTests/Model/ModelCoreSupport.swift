import ActionPipe
import Synchronization

extension Actions {
    /// The model's main synchronous action: (number, optional number) -> number.
    var modelCall: Action<Int, Int?, Int> { .init() }
    /// A second synchronous action of the same shape, to check that actions stay apart.
    var modelOther: Action<Int, Int?, Int> { .init() }
    /// A synchronous action whose handlers may throw.
    var modelThrowing: ThrowingAction<Int, Int?, Int, ModelCoreError> { .init() }
    /// An async action whose handlers may suspend and throw.
    var modelAsync: AsyncAction<Int, Int?, Int> { .init() }
    /// The core stress tests' action.
    var stressCall: Action<Int, Int?, Int> { .init() }
    /// An action the core stress tests register and remove while others call `stressCall`.
    var stressChurn: Action<Int, Int?, Int> { .init() }
}

/// The error a model handler throws.
struct ModelCoreError: Error, Equatable, CustomStringConvertible {
    let handler: Int
    var description: String { "handler \(handler) refused" }
}

/// The side data key the model handlers count in.
enum ModelCoreKeys {
    static let counter = SideDataKey<Int>("model counter")
}

/// The four actions of the model, by index.
enum ModelCoreAction: Int, CaseIterable, Sendable, CustomStringConvertible {
    case call, other, throwing, async

    var canThrow: Bool { self == .throwing || self == .async }

    var name: String {
        switch self {
        case .call: "modelCall"
        case .other: "modelOther"
        case .throwing: "modelThrowing"
        case .async: "modelAsync"
        }
    }

    var description: String { name }
}

/// A condition a model handler is registered with.
enum ModelCoreCondition: CaseIterable, Sendable, Equatable {
    /// `upstreamNotNil()`.
    case upstreamNotNil
    /// `upstream(is: Int.self)`: the action's own result type, so a nil check.
    case upstreamIsInt
    /// `upstream(is: String.self)`: never holds for an `Int` result.
    case upstreamIsString
    /// `argumentNotNil(\.1)`.
    case argumentNotNil
    /// `argument(\.1, is: Int.self)`: an `Int?` argument is an `Int` when it is not nil.
    case argumentIsInt
    /// `argument(\.0, is: Int.self)`: always holds.
    case firstArgumentIsInt
    /// `when("even")`: the first argument is even.
    case whenEven
    /// `when("small upstream")`: the upstream value, or 0, is below 5000.
    case whenSmallUpstream
}

/// How a model handler holds a target object.
enum ModelCoreTargetMode: Sendable, Equatable {
    case none, weak, strong
}

/// How a model handler rewrites the arguments for the handlers after it.
enum ModelCoreRewrite: Sendable, Equatable {
    case none
    case first(add: Int)
    case second(Int?)
    case both(Int, Int?)
}

/// Everything a model handler is and does: the library registers it, the model predicts it.
///
/// `effect` is the handler's own code (a pure function of what it sees), shared by the
/// registered closure and the model: the model checks that the library hands each handler
/// the right inputs and combines the outputs as documented, not what handlers compute.
struct ModelCoreSpec: Sendable, Equatable, CustomStringConvertible {
    var id: Int
    var state: ActionState?
    var conditions: [ModelCoreCondition]
    var target: ModelCoreTargetMode
    var returnsNil: Bool
    /// Stops the call when the first argument modulo 3 equals this.
    var stopResidue: Int?
    /// Throws (throwing and async actions) when the first argument modulo 4 equals this.
    var throwResidue: Int?
    var rewrite: ModelCoreRewrite
    /// Async handlers: suspend (`Task.yield()`) before answering.
    var suspends: Bool
    /// Async handlers: registered with `handleSynchronously` (never suspends or throws).
    var synchronously: Bool

    var description: String {
        var parts = ["#\(id)"]
        if let state { parts.append("state \(state.rawValue)") }
        if !conditions.isEmpty { parts.append("conditions \(conditions)") }
        if target != .none { parts.append("target \(target)") }
        if returnsNil { parts.append("returns nil") }
        if let stopResidue { parts.append("stops at %3==\(stopResidue)") }
        if let throwResidue { parts.append("throws at %4==\(throwResidue)") }
        if rewrite != .none { parts.append("rewrite \(rewrite)") }
        if suspends { parts.append("suspends") }
        if synchronously { parts.append("synchronously") }
        return parts.joined(separator: ", ")
    }

    /// What the handler does with what it sees.
    func effect(arguments: (Int, Int?), upstream: Int?, side: Int?, canThrow: Bool)
        -> ModelCoreEffect
    {
        let (first, second) = arguments
        let newSide = (side ?? 0) + 1
        let mixed = id &* 31 &+ first &* 7 &+ (second ?? 3) &* 5 &+ (upstream ?? 1) &* 3
        let result = returnsNil ? nil : (mixed &+ newSide &* 11) % 10_007
        var rewritten = arguments
        switch rewrite {
        case .none: break
        case .first(let add): rewritten.0 = (first + add) % 20
        case .second(let value): rewritten.1 = value
        case .both(let a, let b): rewritten = (a, b)
        }
        let throwsNow =
            canThrow && !synchronously && throwResidue.map { first % 4 == $0 } ?? false
        let stops = stopResidue.map { first % 3 == $0 } ?? false
        return ModelCoreEffect(
            result: result, arguments: rewritten, side: newSide, stops: stops,
            throwsError: throwsNow)
    }

    /// Runs `effect` on a library process: logs what the handler saw, applies its rewrites,
    /// side data and stop, and returns its result (or `nil` and `true` when it throws).
    func run<Kind>(
        _ process: inout ActionProcess<Kind, Int, Int?, Int>, canThrow: Bool, log: ModelCoreLog
    ) -> (result: Int?, throwsError: Bool) {
        let arguments = process.arguments
        let side = process.sideData[ModelCoreKeys.counter]
        log.append(
            ModelCoreSeen(
                handler: id, arguments: arguments, upstream: process.upstream, side: side,
                state: process.state))
        let effect = effect(
            arguments: arguments, upstream: process.upstream, side: side, canThrow: canThrow)
        process.sideData[ModelCoreKeys.counter] = effect.side
        if effect.arguments.0 != arguments.0 { process.rewrite(\.0, to: effect.arguments.0) }
        if effect.arguments.1 != arguments.1 { process.rewrite(\.1, to: effect.arguments.1) }
        if effect.stops { process.stop() }
        return (effect.result, effect.throwsError)
    }
}

/// What a model handler does in one call.
struct ModelCoreEffect {
    var result: Int?
    var arguments: (Int, Int?)
    var side: Int
    var stops: Bool
    var throwsError: Bool
}

/// What one handler saw when it ran.
struct ModelCoreSeen: Sendable, Equatable, CustomStringConvertible {
    var handler: Int
    var first: Int
    var second: Int?
    var upstream: Int?
    var side: Int?
    var state: ActionState?

    init(handler: Int, arguments: (Int, Int?), upstream: Int?, side: Int?, state: ActionState?) {
        self.handler = handler
        first = arguments.0
        second = arguments.1
        self.upstream = upstream
        self.side = side
        self.state = state
    }

    var description: String {
        "#\(handler)(\(first), \(second.map(String.init) ?? "nil")) up \(upstream.map(String.init) ?? "nil")"
            + " side \(side.map(String.init) ?? "nil") state \(state.map { "\($0.rawValue)" } ?? "nil")"
    }
}

/// The thread-safe record of what model handlers saw, in order.
final class ModelCoreLog: Sendable {
    private let entries = TestLock<[ModelCoreSeen]>([])

    func append(_ entry: ModelCoreSeen) { entries.withLock { $0.append(entry) } }

    func take() -> [ModelCoreSeen] {
        entries.withLock { entries in
            defer { entries.removeAll() }
            return entries
        }
    }
}

/// A target object of a model handler; the test decides when it goes away.
final class ModelCoreTarget: Sendable {
    let handler: Int
    init(handler: Int) { self.handler = handler }
}
