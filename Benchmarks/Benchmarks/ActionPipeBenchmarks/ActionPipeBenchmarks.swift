// ActionPipe against its baselines and peers, side by side in one run.
//
// Every benchmark name starts with the number of the issue-4 target it feeds ("T1 ...");
// `Benchmarks/run` reads the exported results and prints, per target, the measured ratio,
// the threshold and PASS/FAIL. Each measured iteration makes `benchmark.scaledIterations`
// calls (a million), so the reported figures are per call.

import ActionPipe
import Benchmark
import Dispatch
import OpenCombine

// MARK: - Actions and keys under test

/// The error of `benchAddThrowing`, never thrown.
enum BenchFailure: Error { case never }

extension Actions {
    /// Targets 1, 6 and 7: (argument) -> upstream + argument.
    var benchAdd: Action<Int, Int> { .init() }
    /// Target 2: the same action on a chain of 10 pipes.
    var benchAdd10: Action<Int, Int> { .init() }
    /// Target 1's action, throwing (its handlers never do).
    var benchAddThrowing: ThrowingAction<Int, Int, BenchFailure> { .init() }
    /// Target 3: the same action on a chain of 100 pipes, 3 of which handle it.
    var benchSparse: Action<Int, Int> { .init() }
    /// Target 4: handlers with a state condition and an upstream-type condition.
    var benchConditioned: Action<Int, Int> { .init() }
    /// Target 5: handlers that read side data and rewrite the argument.
    var benchSideData: Action<Int, Int> { .init() }
    var benchOwned: Action<Int, Int> { .init() }
    /// Target 8: the async form of target 1's action.
    var benchAsyncAdd: AsyncAction<Int, Int> { .init() }
    /// Target 8, informational: the same with handlers registered with `handleSynchronously`.
    var benchAsyncSyncAdd: AsyncAction<Int, Int> { .init() }
}

enum BenchKeys {
    /// Side data the caller attaches with `.with(BenchKeys.offset, value)`.
    static let offset = SideDataKey<Int>("offset")
}

// MARK: - Fixtures

/// A chain of `count` pipes, `pipe0 → pipe1 → …`; returns every pipe, head first.
func makeChain(_ count: Int, name: String) -> [ActionPipe] {
    let pipes = (0..<count).map { ActionPipe(name: "\(name)\($0)") }
    for pipe in pipes.dropFirst() {
        do {
            try pipes[0].append(pipe)
        } catch {
            fatalError("cannot build the benchmark chain: \(error)")
        }
    }
    return pipes
}

/// `count` closures that each add one to their input: the hand-written equivalent of a
/// chain whose handlers add the upstream value. `identity` (optimisation barrier) keeps the
/// optimiser from folding the array into a constant.
func makeClosures(_ count: Int) -> [(Int) -> Int] {
    identity((0..<count).map { _ in { (value: Int) -> Int in value &+ 1 } })
}

/// The same closures, `@Sendable`, for the two-thread baseline.
func makeSendableClosures(_ count: Int) -> [@Sendable (Int) -> Int] {
    identity((0..<count).map { _ in { @Sendable (value: Int) -> Int in value &+ 1 } })
}

/// Calls `closures` in turn, each on the previous one's result.
@inline(__always)
func callInTurn(_ closures: [(Int) -> Int], _ argument: Int) -> Int {
    var value = argument
    for closure in closures {
        value = closure(value)
    }
    return value
}

/// The same closures, `async` and running on the caller's executor, as an async
/// action's handlers are.
func makeAsyncClosures(_ count: Int)
    -> [nonisolated(nonsending) @Sendable (Int) async throws -> Int]
{
    // Appended one by one, so each literal has the element type itself: converted from a
    // plain `async` closure, it would hop to the global executor through a thunk.
    var closures: [nonisolated(nonsending) @Sendable (Int) async throws -> Int] = []
    for _ in 0..<count { closures.append { value in value &+ 1 } }
    return identity(closures)
}

/// Awaits `closures` in turn, each on the previous one's result, after checking the task
/// for cancellation as an async call checks before each handler: the floor of an async
/// call of 3 handlers.
@inline(__always)
nonisolated(nonsending) func awaitInTurn(
    _ closures: [nonisolated(nonsending) @Sendable (Int) async throws -> Int], _ argument: Int
) async throws -> Int {
    var value = argument
    for closure in closures {
        try Task.checkCancellation()
        value = try await closure(value)
    }
    return value
}

/// Calls `closures` in turn, each on the previous one's result.
@inline(__always)
func callInTurn(_ closures: [@Sendable (Int) -> Int], _ argument: Int) -> Int {
    var value = argument
    for closure in closures {
        value = closure(value)
    }
    return value
}

/// The naive pipe a Swift developer might write: each pipe keeps a dictionary from an
/// action's identity to a closure `(argument, upstream) -> result`, and a call looks the
/// action up in every pipe of the chain.
final class NaivePipe {
    var handlers: [ObjectIdentifier: (Int, Int?) -> Int] = [:]
}

/// An action's identity for the naive pipes.
final class NaiveAction {}

/// A chain of naive pipes, called from the head.
final class NaiveChain {
    let pipes: [NaivePipe]

    init(_ pipes: [NaivePipe]) { self.pipes = pipes }

    @inline(never)
    func call(_ action: ObjectIdentifier, _ argument: Int) -> Int? {
        var upstream: Int? = nil
        for pipe in pipes {
            if let handler = pipe.handlers[action] {
                upstream = handler(argument, upstream)
            }
        }
        return upstream
    }
}

/// Runs `body` on two threads at once; `body` gets the thread's index, 0 or 1.
func onTwoThreads(_ body: @Sendable (Int) -> Void) {
    DispatchQueue.concurrentPerform(iterations: 2, execute: body)
}

/// Stops the run when a fixture does not compute what the benchmark claims to measure.
func check(_ value: Int?, _ expected: Int, _ what: String) {
    guard value == expected else {
        fatalError("\(what): expected \(expected), got \(String(describing: value))")
    }
}

// MARK: - Benchmarks

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        timeUnits: .nanoseconds,
        warmupIterations: 1,
        scalingFactor: .mega,
        maxDuration: .seconds(2),
        maxIterations: 1_000
    )
    registerCoreBenchmarks()
    // Each part of the library registers its benchmarks from its own file.
    registerEventBusBenchmarks()
    registerEventBusFloorBenchmarks()
    registerOperationTreeBenchmarks()
    registerPlumbingBenchmarks()
    registerObservableStateBenchmarks()
    registerObservableStateFloorBenchmarks()
    registerStackDepthBenchmarks()
    registerGrowthBenchmarks()
    registerCoreGrowthBenchmarks()
    registerBusGrowthBenchmarks()
    registerStateGrowthBenchmarks()
}

/// An instrument that does nothing: the cost of the instrumented path itself.
struct NoOpInstrument: Instrument {
    func begin(_ operation: InstrumentedOperation) -> (any Sendable)? { nil }
    func end(
        _ operation: InstrumentedOperation, context: (any Sendable)?, duration: Duration,
        outcome: InstrumentedOutcome
    ) {}
}

/// Issue 4's targets: the ActionPipe core against closures, a naive chain and OpenCombine.
func registerCoreBenchmarks() {

    // Target 1: 3 pipes, each adding the upstream value, against 3 closures.
    let chain3 = makeChain(3, name: "add")
    for pipe in chain3 {
        pipe.on(\.benchAdd) { process in (process.upstream ?? 0) &+ process.arguments }
    }
    let head3 = chain3[0]
    check(head3.benchAdd(1), 3, "3-pipe chain")

    Benchmark("T1 ActionPipe 3 pipes") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(head3.benchAdd(i))
        }
    }

    // The same call through an action bound once (`let add = head3.benchAdd`): what the
    // chain costs without the key path that `head3.benchAdd` materialises on every call.
    let boundAdd = head3.benchAdd
    Benchmark("T1 ActionPipe 3 pipes, bound action") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(boundAdd(i))
        }
    }

    // The same call with an instrument installed (one that does nothing): what observing
    // every call costs. Without one, the call pays one relaxed load (in target 1's figure).
    Benchmark("T1 ActionPipe 3 pipes, no-op instrument installed") { benchmark in
        Instrumentation.install(NoOpInstrument())
        defer { Instrumentation.uninstall() }
        for i in benchmark.scaledIterations {
            blackHole(head3.benchAdd(i))
        }
    }

    let closures3 = makeClosures(3)
    check(callInTurn(closures3, 0), 3, "3 closures")
    Benchmark("T1 Baseline 3 closures") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(callInTurn(closures3, i))
        }
    }

    // Target 2: 10 pipes against 10 closures.
    let chain10 = makeChain(10, name: "add10-")
    for pipe in chain10 {
        pipe.on(\.benchAdd10) { process in (process.upstream ?? 0) &+ process.arguments }
    }
    let head10 = chain10[0]
    check(head10.benchAdd10(1), 10, "10-pipe chain")

    Benchmark("T2 ActionPipe 10 pipes") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(head10.benchAdd10(i))
        }
    }

    let closures10 = makeClosures(10)
    check(callInTurn(closures10, 0), 10, "10 closures")
    Benchmark("T2 Baseline 10 closures") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(callInTurn(closures10, i))
        }
    }

    // Target 3: 100 pipes, of which the first, the middle and the last handle the action.
    let chain100 = makeChain(100, name: "sparse")
    for index in [0, 50, 99] {
        chain100[index].on(\.benchSparse) { process in
            (process.upstream ?? 0) &+ process.arguments
        }
    }
    let head100 = chain100[0]
    check(head100.benchSparse(1), 3, "100-pipe chain")

    Benchmark("T3 ActionPipe 100 pipes, 3 handlers") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(head100.benchSparse(i))
        }
    }

    // Target 4: every handler has a state condition; every handler that can have an
    // upstream value also has an upstream-type condition. The first handler to run never
    // has an upstream (`upstream(is:)` would skip it, and then every later one), so it
    // carries the state condition only; the call runs all 3 handlers, as in target 1.
    let chainConditioned = makeChain(3, name: "conditioned")
    chainConditioned[0].on(\.benchConditioned).state(.start).handle { process in
        (process.upstream ?? 0) &+ process.arguments
    }
    for pipe in chainConditioned.dropFirst() {
        pipe.on(\.benchConditioned).state(.start).upstream(is: Int.self).handle { process in
            (process.upstream ?? 0) &+ process.arguments
        }
    }
    let headConditioned = chainConditioned[0]
    check(headConditioned.benchConditioned.with(state: .start)(1), 3, "conditioned chain")

    Benchmark("T4 ActionPipe 3 pipes, state + upstream conditions") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(headConditioned.benchConditioned.with(state: .start)(i))
        }
    }

    // Target 5: each handler reads side data set by the caller and rewrites the argument.
    let chainSideData = makeChain(3, name: "side")
    for pipe in chainSideData {
        pipe.on(\.benchSideData) { process in
            let offset = process.sideData[BenchKeys.offset] ?? 0
            let argument = process.arguments
            process.rewrite(\.self, to: argument &+ 1)
            return (process.upstream ?? 0) &+ argument &+ offset
        }
    }
    let headSideData = chainSideData[0]
    // (0 + 1 + 2) → 3, (3 + 2 + 2) → 7, (7 + 3 + 2) → 12
    check(headSideData.benchSideData.with(BenchKeys.offset, 2)(1), 12, "side-data chain")

    Benchmark("T5 ActionPipe 3 pipes, side data + rewrite") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(headSideData.benchSideData.with(BenchKeys.offset, 2)(i))
        }
    }

    // The same chain with handlers that run with a weak owner: resolving and holding the
    // owner must not allocate either.
    final class BenchOwner: Sendable { let offset = 1 }
    let owner = BenchOwner()
    let chainOwned = makeChain(3, name: "owned")
    for pipe in chainOwned {
        pipe.on(\.benchOwned).handle(owner: owner) { owner, process in
            (process.upstream ?? 0) &+ process.arguments &+ owner.offset
        }
    }
    let headOwned = chainOwned[0]
    check(headOwned.benchOwned(1), 6, "owned chain")

    Benchmark("T5 ActionPipe 3 pipes, weak owners") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(headOwned.benchOwned(i))
        }
    }

    // Target 6: peers. A naive pipe chain with a dictionary lookup per pipe …
    let naiveAction = ObjectIdentifier(NaiveAction.self)
    let naivePipes = (0..<3).map { _ in NaivePipe() }
    for pipe in naivePipes {
        pipe.handlers[naiveAction] = { argument, upstream in (upstream ?? 0) &+ argument }
    }
    let naiveChain = NaiveChain(naivePipes)
    check(naiveChain.call(naiveAction, 1), 3, "naive chain")

    Benchmark("T6 Peer naive pipe chain 3 pipes") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(naiveChain.call(naiveAction, i))
        }
    }

    // … and OpenCombine: a subject, 3 map stages and a sink, per send.
    let subject = PassthroughSubject<Int, Never>()
    nonisolated(unsafe) var received = 0
    let subscription =
        subject
        .map { $0 &+ 1 }
        .map { $0 &+ 1 }
        .map { $0 &+ 1 }
        .sink { received = $0 }
    subject.send(0)
    check(received, 3, "OpenCombine pipeline")

    Benchmark("T6 Peer OpenCombine 3 maps") { benchmark in
        for i in benchmark.scaledIterations {
            subject.send(i)
            blackHole(received)
        }
        blackHole(subscription)
    }

    // Target 7: the same chain called by one thread, then by two threads at once. Both make
    // a million calls per iteration (two threads: half each), so the ratio of their times
    // is the ratio of their throughputs.
    let chainThreads = makeChain(3, name: "threads")
    for pipe in chainThreads {
        pipe.on(\.benchAdd) { process in (process.upstream ?? 0) &+ process.arguments }
    }
    let headThreads = chainThreads[0]
    check(headThreads.benchAdd(1), 3, "threads chain")

    Benchmark("T7 ActionPipe 1 thread") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(headThreads.benchAdd(i))
        }
    }

    Benchmark("T7 ActionPipe 2 threads") { benchmark in
        let half = benchmark.scaledIterations.count / 2
        onTwoThreads { _ in
            for i in 0..<half {
                blackHole(headThreads.benchAdd(i))
            }
        }
    }

    // The same with an action bound once per thread, without the per-call key path.
    let boundThreads = headThreads.benchAdd
    Benchmark("T7 ActionPipe 1 thread, bound action") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(boundThreads(i))
        }
    }

    Benchmark("T7 ActionPipe 2 threads, bound action") { benchmark in
        let half = benchmark.scaledIterations.count / 2
        onTwoThreads { _ in
            for i in 0..<half {
                blackHole(boundThreads(i))
            }
        }
    }

    // The same chain with a throwing action: its calls borrow handlers as the plain ones do.
    let chainThrowing = makeChain(3, name: "throwing")
    for pipe in chainThrowing {
        pipe.on(\.benchAddThrowing).handle { (process) throws(BenchFailure) in
            (process.upstream ?? 0) &+ process.arguments
        }
    }
    let headThrowing = chainThrowing[0]
    check(try? headThrowing.benchAddThrowing(1), 3, "throwing chain")
    Benchmark("T7 ActionPipe 1 thread, throwing action") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(try? headThrowing.benchAddThrowing(i))
        }
    }

    Benchmark("T7 ActionPipe 2 threads, throwing action") { benchmark in
        let half = benchmark.scaledIterations.count / 2
        onTwoThreads { _ in
            for i in 0..<half {
                blackHole(try? headThrowing.benchAddThrowing(i))
            }
        }
    }

    // The same split for 3 plain closures: how much two threads can gain on this machine
    // at all, so a missed target 7 can be told apart from a machine that cannot scale.
    let sendableClosures3 = makeSendableClosures(3)
    Benchmark("T7 Baseline 1 thread, 3 closures") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(callInTurn(sendableClosures3, i))
        }
    }

    Benchmark("T7 Baseline 2 threads, 3 closures") { benchmark in
        let half = benchmark.scaledIterations.count / 2
        onTwoThreads { _ in
            for i in 0..<half {
                blackHole(callInTurn(sendableClosures3, i))
            }
        }
    }

    // Target 8: target 1's chain with an async action whose handlers never suspend.
    let chainAsync = makeChain(3, name: "async")
    for pipe in chainAsync {
        pipe.on(\.benchAsyncAdd) { process in (process.upstream ?? 0) &+ process.arguments }
    }
    let headAsync = chainAsync[0]

    Benchmark("T8 ActionPipe async 3 pipes") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(try await headAsync.benchAsyncAdd(i))
        }
    }

    // Target 8's floor: three async closures awaited in turn, each after a cancellation
    // check. What Swift's async calls and `Task.isCancelled` cost on this machine.
    let asyncClosures3 = makeAsyncClosures(3)
    Benchmark("T8 Baseline 3 async closures, cancellation checked") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(try await awaitInTurn(asyncClosures3, i))
        }
    }

    // The same chain with handlers registered as synchronous closures
    // (`handleSynchronously`): what an async action costs when its handlers never suspend
    // and say so.
    let chainAsyncSync = makeChain(3, name: "asyncsync")
    for pipe in chainAsyncSync {
        pipe.on(\.benchAsyncSyncAdd).handleSynchronously { process in
            (process.upstream ?? 0) &+ process.arguments
        }
    }
    let headAsyncSync = chainAsyncSync[0]

    Benchmark("T8 ActionPipe async 3 pipes, synchronous handlers") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(try await headAsyncSync.benchAsyncSyncAdd(i))
        }
    }

    // Target 8's call made from the main actor, where an app's UI code makes it: the call
    // and its handlers stay there (a plain `async` call would hop off and back, ~7 µs).
    Benchmark("T8 ActionPipe async 3 pipes, from the main actor") { benchmark in
        try await callAsyncOnTheMainActor(headAsync, benchmark.scaledIterations)
    }
}

/// The loop of "T8 … from the main actor", isolated to the main actor.
@MainActor
private func callAsyncOnTheMainActor(_ head: ActionPipe, _ iterations: Range<Int>) async throws {
    for i in iterations {
        blackHole(try await head.benchAsyncAdd(i))
    }
}
