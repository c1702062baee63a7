/// What one call of a throwing action did: an ``ActionReport``, with the error a handler
/// threw kept at the action's own error type.
///
/// Every property of ``ActionReport`` reads through it (`report.value`, `report.thrownBy`,
/// `report.trace`, ...).
///
/// ```swift
/// let report = pipe.parse.report("forty-two")
/// switch report.failure {
/// case .notANumber(let text)?: print("not a number:", text)
/// case nil: print(report.value ?? 0)
/// }
/// ```
@dynamicMemberLookup
public struct ThrowingActionReport<Result, Failure: Error> {
    /// The call's report, with the error as `any Error` (``ActionReport/error``).
    public let report: ActionReport<Result>

    /// The error a handler threw, at the action's error type, or `nil` when none threw.
    ///
    /// A call refused for nesting too deep threw nothing: its ``NestingLimitError`` is in
    /// ``ActionReport/error`` only.
    public let failure: Failure?

    /// A property of the call's ``ActionReport``: `report.value`, `report.trace`, ...
    ///
    /// - Complexity: O(1).
    public subscript<Value>(dynamicMember keyPath: KeyPath<ActionReport<Result>, Value>) -> Value {
        report[keyPath: keyPath]
    }
}

extension ThrowingActionReport: Sendable where Result: Sendable {}
