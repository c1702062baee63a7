/// A typed action whose handlers may suspend and throw: `AsyncAction<URL, Data>` takes a
/// `URL` and produces `Data`. Handlers run one after another in chain order, with the same
/// conditions, side data, stop and tracing as a synchronous action; the call throws the
/// first handler error, or `CancellationError`. Errors are untyped: any async call can end
/// by cancellation.
///
/// ```swift
/// extension Actions {
///     var fetchTitle: AsyncAction<Int, String> { .init() }   // (Int) async throws -> String
/// }
/// let title = try await pipe.fetchTitle(7)                   // String?
/// ```
public typealias AsyncAction<each Argument, Result> =
    ActionDescriptor<ActionKind.Async, repeat each Argument, Result>
