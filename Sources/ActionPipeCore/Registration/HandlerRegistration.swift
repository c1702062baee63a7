/// A handler being registered: add conditions (all must hold), then finish with `handle`,
/// which replaces any handler of the action on this pipe.
///
/// ```swift
/// pipe2.on(\.someFunc)
///     .upstream(is: Date.self)        // the last handler that ran returned a Date
///     .argument(\.1, is: [Int].self)  // the second argument is an [Int]
///     .state(.start)
///     .handle { process in process.upstream }
/// ```
public struct HandlerRegistration<Kind, each Argument, Result>: Sendable {
    @usableFromInline let pipe: ActionPipe
    @usableFromInline let key: _ActionKey
    @usableFromInline var handlerState: ActionState?
    /// What a failure reports when the first condition is "there is an upstream value",
    /// which the handler checks inline (the first only, so a trace reports the same failure).
    @usableFromInline var upstreamFailure: SkipReason?
    @usableFromInline var conditions: [_Condition<Kind, repeat each Argument, Result>] = []

    @usableFromInline
    init(pipe: ActionPipe, key: _ActionKey) {
        self.pipe = pipe
        self.key = key
    }

    // MARK: Conditions

    /// Runs the handler only in calls whose state shares a bit with `state`, and in plain
    /// calls.
    public func state(_ state: ActionState) -> Self {
        var copy = self
        copy.handlerState = state
        return copy
    }

    /// Runs the handler only when the upstream value (the last handler's result) is a `T`.
    public func upstream<T>(is type: T.Type) -> Self {
        let name = String(describing: type)
        if Result.self == T.self {  // every present upstream is a `T`: a nil check, no cast
            return requiringUpstream(.upstreamNotOfType(name))
        }
        return adding { process in
            guard let upstream = process.upstream, upstream is T else {
                return .upstreamNotOfType(name)
            }
            return nil
        }
    }

    /// Runs the handler only when there is a non-`nil` upstream value (looking through
    /// optionals: `Optional<Any>.none` counts as nil).
    public func upstreamNotNil() -> Self {
        // Only a result type that can hold an optional needs the casting check.
        if Result.self is any _OptionalValue.Type || Result.self == Any.self
            || Result.self == (any Sendable).self
        {
            return adding { process in
                guard let upstream = process.upstream, !_isNil(upstream) else {
                    return .upstreamNil
                }
                return nil
            }
        }
        return requiringUpstream(.upstreamNil)
    }

    /// Runs the handler only when the argument at `position` (`\.0`, or `\.self` for a
    /// one-argument action) is a `T`.
    public func argument<Value, T>(
        _ position: KeyPath<(repeat each Argument), Value> & Sendable, is type: T.Type
    ) -> Self {
        let argument = Self.positionName(position)
        let expected = String(describing: type)
        return adding { process in
            process._arguments[keyPath: position] is T
                ? nil : .argumentNotOfType(argument: argument, expected: expected)
        }
    }

    /// Runs the handler only when the optional argument at `position` is not `nil`.
    public func argumentNotNil<Value>(
        _ position: KeyPath<(repeat each Argument), Value?> & Sendable
    ) -> Self {
        let argument = Self.positionName(position)
        return adding { process in
            let value = process._arguments[keyPath: position]
            guard let value, !_isNil(value) else { return .argumentNil(argument: argument) }
            return nil
        }
    }

    /// Runs the handler only when `predicate` holds for the call so far; `name` shows in
    /// traces when it fails.
    public func when(
        _ name: String,
        _ predicate:
            @escaping @Sendable (borrowing ActionProcess<Kind, repeat each Argument, Result>) ->
            Bool
    ) -> Self {
        adding { process in predicate(process) ? nil : .conditionFailed(name) }
    }

    func adding(_ condition: @escaping _Condition<Kind, repeat each Argument, Result>)
        -> Self
    {
        var copy = self
        copy.conditions.append(condition)
        return copy
    }

    /// "There is an upstream value", as ``upstreamFailure`` when it is the first condition.
    private func requiringUpstream(_ reason: SkipReason) -> Self {
        guard conditions.isEmpty, upstreamFailure == nil else {
            return adding { process in process._upstream == nil ? reason : nil }
        }
        var copy = self
        copy.upstreamFailure = reason
        return copy
    }

    /// `\(Int, Optional<String>).1` reads as `1`.
    private static func positionName(_ position: AnyKeyPath) -> String {
        let text = String(describing: position)
        guard let paren = text.lastIndex(of: ")") else { return text }
        let rest = text[text.index(after: paren)...].drop { $0 == "." }
        return rest.isEmpty ? text : String(rest)
    }
}
