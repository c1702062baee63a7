import ActionPipe
import Foundation
import Synchronization
import Testing

/// A thread-safe, ordered record of what handlers did.
final class Log: Sendable {
    private let entries = TestLock<[String]>([])

    func append(_ entry: String) { entries.withLock { $0.append(entry) } }

    /// Every entry so far, in order.
    var all: [String] { entries.withLock { $0 } }

    /// Returns every entry so far and empties the log.
    func take() -> [String] {
        entries.withLock { entries in
            defer { entries.removeAll() }
            return entries
        }
    }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let storage = Atomic<Int>(0)

    func increment() { _ = storage.add(1, ordering: .sequentiallyConsistent) }

    func decrement() { _ = storage.subtract(1, ordering: .sequentiallyConsistent) }

    var value: Int { storage.load(ordering: .sequentiallyConsistent) }
}

/// One value shared between a test and its handlers.
final class Box<Value: Sendable>: Sendable {
    private let storage: TestLock<Value>

    init(_ value: Value) { storage = TestLock(value) }

    var value: Value { storage.withLock { $0 } }

    func set(_ value: Value) { storage.withLock { $0 = value } }
}

/// An object whose lifetime the leak tests watch.
final class Tracked: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

/// The "another object" of example 4, compared by identity.
final class Marker: Sendable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The README's `CGSize`.
struct Size: Sendable, Equatable {
    var width: Double
    var height: Double
}

/// The side data keys of the tests.
enum Keys {
    static let birthday = SideDataKey<Date>("birthday")
    static let label = SideDataKey<String>("label")
    static let counter = SideDataKey<Int>("counter")
    static let fromHead = SideDataKey<Bool>("fromHead")
    static let extra1 = SideDataKey<Int>("extra1")
    static let extra2 = SideDataKey<Int>("extra2")
}

/// `nil` or the value, for log lines.
func show(_ value: Any?) -> String {
    guard let value else { return "nil" }
    return "\(value)"
}

/// Pipes named `names`, composed in that order.
func makeChain(_ names: String...) throws -> [ActionPipe] {
    let pipes = names.map { ActionPipe(name: $0) }
    for (left, right) in zip(pipes, pipes.dropFirst()) {
        try left.append(right)
    }
    return pipes
}

/// Registers on every pipe a `tPing` handler that logs the pipe's name and returns `value`.
func registerPings(on pipes: [ActionPipe], log: Log) {
    for (index, pipe) in pipes.enumerated() {
        let name = pipe.name
        pipe.on(\.tPing) { _ in
            log.append(name)
            return index + 1
        }
    }
}

/// Lets a fixed number of threads start each round of a race together.
final class SpinBarrier: Sendable {
    private let parties: Int
    private let arrived = Atomic<Int>(0)
    private let generation = Atomic<Int>(0)

    init(parties: Int) { self.parties = parties }

    /// Returns once all parties have called `wait()` for this round.
    func wait() {
        let round = generation.load(ordering: .acquiring)
        if arrived.add(1, ordering: .acquiringAndReleasing).newValue == parties {
            arrived.store(0, ordering: .relaxed)
            generation.add(1, ordering: .releasing)
        } else {
            while generation.load(ordering: .acquiring) == round { sched_yield() }
        }
    }
}

/// Runs `body(index)` on `count` new threads at once and waits for all of them.
///
/// The threads wait for their turn (``ThreadSpecTurns``), and the test suspends meanwhile
/// rather than block: a blocked task holds a thread of the concurrency pool, which has one
/// per core, and two tests blocked at once on a 2-core machine stall every async test beside
/// them.
///
/// - Returns: Whether every thread finished within `timeout` seconds of starting (a deadlock
///   makes the test fail instead of hanging the suite). A bound on a deadlock, not on speed:
///   under ThreadSanitizer, beside the other tests on a busy 2-core machine, such specs have
///   taken 30 s.
func runOnThreads(
    _ count: Int, timeout: Double = 120, _ body: @escaping @Sendable (Int) -> Void
) async -> Bool {
    await ThreadSpecTurns.shared.begin()
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            body(index)
            group.leave()
        }
        thread.start()
    }
    let finished = await withCheckedContinuation { continuation in
        let resumed = TestLock(false)
        let resume: @Sendable (Bool) -> Void = { finished in
            let first = resumed.withLock { resumed in
                defer { resumed = true }
                return !resumed
            }
            if first { continuation.resume(returning: finished) }
        }
        group.notify(queue: .global()) { resume(true) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { resume(false) }
    }
    await ThreadSpecTurns.shared.end()
    return finished
}

/// `DispatchQueue.concurrentPerform(iterations:execute:)` on a thread of its own, in its turn
/// (see ``runOnThreads``).
func concurrentPerform(iterations: Int, _ body: @escaping @Sendable (Int) -> Void) async {
    await ThreadSpecTurns.shared.begin()
    await withCheckedContinuation { continuation in
        let thread = Thread {
            DispatchQueue.concurrentPerform(iterations: iterations, execute: body)
            continuation.resume()
        }
        thread.start()
    }
    await ThreadSpecTurns.shared.end()
}

/// The specs that keep threads of their own busy run them one spec at a time.
///
/// A thread gets its share of the CPU like any other: with every such spec at once (over a
/// hundred busy threads under ThreadSanitizer on 2 cores) the concurrency pool's threads got
/// so little of it that async tests beside them stalled for more than a minute.
actor ThreadSpecTurns {
    static let shared = ThreadSpecTurns()
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Suspends until no other spec runs its threads.
    func begin() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the turn to the next spec waiting, if any.
    func end() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}

/// Waits until `condition` holds, polling; returns whether it did within `timeout`.
///
/// Only for what nothing announces (an object freed as a task winds down): a sanitizer on a
/// busy 2-core machine can hold a task back for many seconds, so the bound is a count of
/// seconds, not of polls, and a generous one, which still catches what never happens.
func eventually(
    timeout: Duration = .seconds(40), _ condition: () async -> Bool
) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while clock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return await condition()
}

/// A count that code on any thread increments and a test awaits: `wait(for:)` resumes once
/// the count has reached its target.
final class Tally: Sendable {
    private let state = TestLock<(count: Int, waiters: [(Int, CheckedContinuation<Void, Never>)])>(
        (0, []))

    func increment() {
        let ready = state.withLock { state in
            state.count += 1
            let count = state.count
            defer { state.waiters.removeAll { $0.0 <= count } }
            return state.waiters.filter { $0.0 <= count }.map(\.1)
        }
        for waiter in ready { waiter.resume() }
    }

    var value: Int { state.withLock { $0.count } }

    /// Suspends until the count is at least `target`.
    func wait(for target: Int) async {
        if value >= target { return }
        HangGuard.arm("Tally (\(target) expected)") { self.expire() }
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.count >= target { return true }
                state.waiters.append((target, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Resumes everyone still waiting; see ``HangGuard``.
    private func expire() -> Bool {
        let stuck = state.withLock { state in
            defer { state.waiters = [] }
            return state.waiters.map(\.1)
        }
        for waiter in stuck { waiter.resume() }
        return !stuck.isEmpty
    }
}

extension Trait where Self == TimeLimitTrait {
    /// The time limit of the specs that have one: a bound on a hang, never on speed.
    ///
    /// Tests run side by side, so under a sanitizer on a busy 2-core machine a short one can
    /// last nearly as long as the whole run: over a minute in CI's ThreadSanitizer step. A
    /// wait at a test gate is reported sooner, by ``HangGuard``.
    static var hangBound: Self { .timeLimit(.minutes(5)) }
}

/// Turns a wait that would never end into a report naming the helper and the test.
///
/// Test gates wait on continuations that ignore cancellation (so a test decides exactly
/// when they resume), and Swift Testing's time limit cancels a test but then waits for it:
/// a gate nobody opens would hang the whole run with no word of which test it was (seen
/// twice; see Docs/Reliability.md, "Known issues"). A guarded wait prints the helper and
/// the test after `limit`, then resumes its waiters, so the test goes on and fails.
enum HangGuard {
    /// Far beyond what any test waits, and well inside CI's watchdog.
    static let limit: Duration = .seconds(120)

    /// After `limit`, calls `release`, which resumes whoever still waits and says whether
    /// anyone did; if so, prints `helper` and the current test's name.
    static func arm(
        _ helper: String, after delay: Duration = limit,
        release: @escaping @Sendable () async -> Bool
    ) {
        let test = Test.current?.name ?? "(no test)"
        Task.detached {
            try? await Task.sleep(for: delay)
            if await release() {
                print(
                    "HangGuard: \(helper) still waited after \(delay) in test \(test); released it")
            }
        }
    }
}

/// Every diagnostic reported outside a scoped handler during the test run, recorded by one
/// process-wide handler (installed once: several suites rely on it, so none replaces it).
enum TestDiagnostics {
    static let recorded = TestLock<[Diagnostic]>([])
    private static let installed: Bool = {
        Diagnostics.handler = { diagnostic in recorded.withLock { $0.append(diagnostic) } }
        return true
    }()

    /// Installs the recording handler, if not yet.
    static func install() { _ = installed }

    /// The diagnostics of `kind` recorded so far, oldest first.
    static func recorded(_ kind: Diagnostic.Kind) -> [Diagnostic] {
        install()
        return recorded.withLock { $0.filter { $0.kind == kind } }
    }
}

/// Whether `condition` holds, or comes to hold within `timeout`, polled on the calling thread:
/// ``eventually(timeout:_:)`` for a synchronous spec (a release that another thread may make
/// a moment after the event the spec waited for).
func settles(timeout: Duration = .seconds(40), _ condition: () -> Bool) -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while clock.now < deadline {
        if condition() { return true }
        usleep(1_000)
    }
    return condition()
}
