/// What one call of a throwing action did: an ``ActionReport`` (whose properties read
/// through it), with the handler's error kept at the action's own error type.
///
/// ```swift
/// if case .notANumber(let text)? = pipe.parse.report("forty-two").failure { print(text) }
/// ```
@dynamicMemberLookup
public struct ThrowingActionReport<Result, Failure: Error> {
    /// The call's report, with the error as `any Error` (``ActionReport/error``).
    public let report: ActionReport<Result>

    /// The error a handler threw, typed; `nil` when none threw (a ``NestingLimitError`` is
    /// in ``ActionReport/error`` only).
    public let failure: Failure?

    /// A property of the call's ``ActionReport``: `report.value`, `report.trace`, ...
    public subscript<Value>(dynamicMember keyPath: KeyPath<ActionReport<Result>, Value>) -> Value {
        report[keyPath: keyPath]
    }
}

extension ThrowingActionReport: Sendable where Result: Sendable {}
