/// What happened in one call, pipe by pipe, in chain order. Get one from a
/// ``BoundAction``'s `report(_:)`; plain calls record nothing.
///
/// ```swift
/// let report = pipe3.someFunc.report(0, nil)
/// print(report.trace)
/// // someFunc(0, nil): p1 ran → p2 skipped (upstream is not Date) → p3 skipped (upstream is nil)
/// ```
public struct ActionTrace: Sendable, CustomStringConvertible {
    /// What one pipe did in the call.
    public enum Outcome: Sendable, Equatable, CustomStringConvertible {
        /// The handler ran.
        case ran
        /// The handler ran and stopped the call.
        case stopped
        /// The handler did not run, for the given reason.
        case skipped(SkipReason)
        /// The handler ran and threw the described error, which ended the call.
        case threw(String)

        /// `ran`, `ran and stopped the call`, `skipped (reason)` or `threw error`.
        public var description: String {
            switch self {
            case .ran: "ran"
            case .stopped: "ran and stopped the call"
            case .skipped(let reason): "skipped (\(reason))"
            case .threw(let error): "threw \(error)"
            }
        }
    }

    /// One pipe of the chain and what it did.
    public struct Step: Sendable, Equatable, CustomStringConvertible {
        /// The pipe's name.
        public let pipe: String
        /// What the pipe did.
        public let outcome: Outcome

        /// `name outcome`, such as `p1 ran`.
        public var description: String { "\(pipe) \(outcome)" }
    }

    /// The action's name, as declared in ``Actions``.
    public let action: String
    /// The call's arguments, each described as `String(describing:)` does (a string in
    /// quotes) and cut to ``argumentLength`` characters.
    public let arguments: [String]
    /// The longest an argument's description in ``arguments`` gets, with the cut marked `…`.
    public static let argumentLength = 40
    /// The state of the call, or `nil` for a plain call.
    public let state: ActionState?
    /// One step per pipe of the chain, in chain order.
    public let steps: [Step]

    /// The names of the pipes whose handlers ran (stopped or threw included), in order.
    public var ran: [String] {
        steps.compactMap { step in
            switch step.outcome {
            case .ran, .stopped, .threw: step.pipe
            case .skipped: nil
            }
        }
    }

    /// One line: `someFunc(999, "hello") start: p1 ran → p2 skipped (not registered)`.
    public var description: String {
        let call = action + "(" + arguments.joined(separator: ", ") + ")"
        let head = state.map { "\(call) \($0)" } ?? call
        return head + ": " + steps.map(\.description).joined(separator: " → ")
    }

    /// Each argument as ``arguments`` shows it.
    static func describe<each Argument>(_ arguments: repeat each Argument) -> [String] {
        var described: [String] = []
        for argument in repeat each arguments {
            let text =
                if let string = argument as? String { "\"" + string + "\"" } else {
                    String(describing: argument)
                }
            described.append(
                text.count > argumentLength ? String(text.prefix(argumentLength - 1)) + "…" : text)
        }
        return described
    }
}
