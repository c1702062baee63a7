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
/// pipe.on(\.fetchTitle) { process in
///     try await Task.sleep(for: .milliseconds(1))
///     return "Document \(process.arguments)"
/// }
/// let title = try await pipe.fetchTitle(7)                   // "Document 7"
/// ```
public typealias AsyncAction<each Argument, Result> =
    ActionDescriptor<ActionKind.Async, repeat each Argument, Result>
