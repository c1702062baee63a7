import ActionPipe
import Synchronization

// The actions, errors and helpers of the throwing and async specs (ThrowingActionTests,
// AsyncActionTests, CancellationTests, CoreIsolationTests, AsyncLifetimeTests,
// ConcurrentAsyncCallsTests).

/// The typed error of the throwing test actions.
enum TTFailure: Error, Equatable {
    case notANumber(String)
    case tooLarge(Int)
    case rejected(String)
}

/// An error that async test handlers throw.
struct TAError: Error, Equatable, CustomStringConvertible {
    let code: Int
    var description: String { "TAError(\(code))" }
}

/// A second error type, to check that untyped failures keep their concrete type.
struct TAOtherError: Error, Equatable {
    let reason: String
}

extension Actions {
    // MARK: Throwing actions

    /// Parses its argument; throws `TTFailure`.
    var ttParse: ThrowingAction<String, Int, TTFailure> { .init() }
    /// One number in, one number out; throws `TTFailure`.
    var ttStep: ThrowingAction<Int, Int, TTFailure> { .init() }
    /// Two arguments (the second optional), for rewriting and argument conditions.
    var ttPair: ThrowingAction<Int, String?, String, TTFailure> { .init() }
    /// A result of any type, for `upstream(is:)`.
    var ttAnything: ThrowingAction<Int, Any, TTFailure> { .init() }
    /// The trigger flow of throwing actions.
    var ttLoad: ThrowingAction<String, String, TTFailure> { .init() }
    /// Untyped throws.
    var ttUntyped: ThrowingAction<Int, Int, any Error> { .init() }
    /// A throwing action registered through an `ActionResponder`.
    var ttResponder: ThrowingAction<String, Int, TTFailure> { .init() }

    // MARK: Async actions

    /// One number in, one number out.
    var taStep: AsyncAction<Int, Int> { .init() }
    /// Two arguments (the second optional), for rewriting and argument conditions.
    var taPair: AsyncAction<Int, String?, String> { .init() }
    /// A result of any `Sendable` type, for `upstream(is:)`.
    var taAnything: AsyncAction<Int, any Sendable> { .init() }
    /// The "start → request → success/error" flow.
    var taLoad: AsyncAction<String, String> { .init() }
    /// Called from inside another action's handler.
    var taInner: AsyncAction<Int, String> { .init() }
    /// The cancellation specs' action.
    var taWork: AsyncAction<Int, Int> { .init() }
    /// The isolation specs' action: every handler appends a line.
    var taIsolated: AsyncAction<Int, [String]> { .init() }
    /// The lifetime specs' action.
    var taOwned: AsyncAction<Int, String> { .init() }
    /// The concurrent-call specs' action.
    var taConcurrent: AsyncAction<Int, Int> { .init() }
    /// An async action registered through an `ActionResponder`.
    var taResponder: AsyncAction<Int, String> { .init() }
}

/// A gate that holds async handlers suspended until the test opens it.
///
/// Waiting does not react to cancellation: a handler held here stays suspended until
/// `open()`, whatever happens to its task, so the test decides exactly when it resumes.
actor TAGate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    /// Tests waiting for a number of waiters.
    private var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Suspends until the gate is open (returns at once if it already is).
    func wait() async {
        if isOpen { return }
        HangGuard.arm("TAGate") { await self.expire() }
        await withCheckedContinuation {
            waiters.append($0)
            resumeWatchers()
        }
    }

    /// Suspends until at least `count` are suspended in `wait()`.
    func untilWaiting(_ count: Int) async {
        if waiters.count >= count { return }
        HangGuard.arm("TAGate.untilWaiting(\(count))") { await self.expireWatchers() }
        await withCheckedContinuation { watchers.append((count, $0)) }
    }

    private func resumeWatchers() {
        let ready = watchers.filter { $0.count <= waiters.count }
        watchers.removeAll { $0.count <= waiters.count }
        for watcher in ready { watcher.continuation.resume() }
    }

    /// Opens the gate if someone still waits at it; see ``HangGuard``.
    private func expire() -> Bool {
        guard !waiters.isEmpty else { return false }
        open()
        return true
    }

    /// Resumes every test still waiting for waiters; see ``HangGuard``.
    private func expireWatchers() -> Bool {
        guard !watchers.isEmpty else { return false }
        let stuck = watchers
        watchers = []
        for watcher in stuck { watcher.continuation.resume() }
        return true
    }

    /// Opens the gate for good and resumes everyone waiting.
    func open() {
        isOpen = true
        let resumed = waiters
        waiters = []
        for waiter in resumed { waiter.resume() }
    }

    /// How many are suspended in `wait()` right now.
    var waiting: Int { waiters.count }
}

/// Counts arrivals and lets a test wait until a given number has arrived.
actor TAArrivals {
    private(set) var count = 0
    private var waiters: [(target: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Records one arrival.
    func arrive() {
        count += 1
        let ready = waiters.filter { $0.target <= count }
        waiters.removeAll { $0.target <= count }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// Suspends until at least `target` arrivals were recorded.
    func wait(for target: Int) async {
        if count >= target { return }
        HangGuard.arm("TAArrivals (\(target) expected)") { await self.expire() }
        await withCheckedContinuation { waiters.append((target, $0)) }
    }

    /// Resumes everyone still waiting; see ``HangGuard``.
    private func expire() -> Bool {
        guard !waiters.isEmpty else { return false }
        let stuck = waiters
        waiters = []
        for waiter in stuck { waiter.continuation.resume() }
        return true
    }
}

/// A counter owned by an actor, for async handlers.
actor TACounter {
    private(set) var value = 0

    /// Adds one and returns the new value.
    @discardableResult
    func increment() -> Int {
        value += 1
        return value
    }
}

/// An ordered record of what async handlers did, owned by an actor.
actor TALog {
    private(set) var all: [String] = []

    func append(_ entry: String) { all.append(entry) }
}

/// Lock-free bookkeeping of how many calls are inside a section at once, and the maximum.
final class TAInFlight: Sendable {
    private let current = Atomic<Int>(0)
    private let maximum = Atomic<Int>(0)

    func enter() {
        let now = current.add(1, ordering: .sequentiallyConsistent).newValue
        var seen = maximum.load(ordering: .sequentiallyConsistent)
        while now > seen {
            let (exchanged, original) = maximum.compareExchange(
                expected: seen, desired: now, ordering: .sequentiallyConsistent)
            if exchanged { break }
            seen = original
        }
    }

    func leave() { current.subtract(1, ordering: .sequentiallyConsistent) }

    /// The most calls that were inside at the same time.
    var peak: Int { maximum.load(ordering: .sequentiallyConsistent) }
}

/// Simulated asynchronous work: hops to another actor and back, then returns or throws.
actor TAServer {
    private(set) var requests: [String] = []

    func fetch(_ request: String) async throws -> String {
        requests.append(request)
        await Task.yield()
        if request.hasPrefix("bad") { throw TAError(code: 500) }
        return "data for \(request)"
    }
}
