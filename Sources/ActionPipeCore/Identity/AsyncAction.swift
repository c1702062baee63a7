/// A typed action whose handlers may suspend and throw: the Swift-concurrency form of an
/// action, for network and disk work.
///
/// `AsyncAction<URL, Data>` takes a `URL` and produces `Data`; like ``Action``, the last
/// generic argument is the result. Handlers are `async throws`, may be isolated to an actor
/// (`{ @MainActor process in ... }`), and run one after another in chain order, with the
/// same conditions, process, side data, rewriting, stop and tracing as a synchronous
/// action. The call is `try await pipe.fetch(url)`; it throws the first error a handler
/// throws, and `CancellationError` when its task is cancelled before a handler starts.
///
/// Errors are untyped because any async call can also end by cancellation.
///
/// ```swift
/// extension Actions {
///     var fetchTitle: AsyncAction<Int, String> { .init() }   // (Int) async throws -> String
/// }
/// pipe.on(\.fetchTitle) { process in
///     try await Task.sleep(for: .milliseconds(1))             // network work
///     return "Document \(process.arguments)"
/// }
/// let title = try await pipe.fetchTitle(7)                   // "Document 7"
/// ```
public typealias AsyncAction<each Argument, Result> =
    ActionDescriptor<ActionKind.Async, repeat each Argument, Result>
