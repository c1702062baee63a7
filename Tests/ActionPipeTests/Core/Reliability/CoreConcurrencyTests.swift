import ActionPipe
import Foundation
import Synchronization
import Testing

/// Stress tests: many threads call, register and compose at once. Counts are exact where the
/// outcome is determined; every thread must finish (a deadlock fails the test).
@Suite("Concurrency", .serialized)
struct CoreConcurrencyTests {
    /// A core handler: counts its runs and adds one to the upstream value.
    private static func registerCore(_ pipe: ActionPipe, counter: Counter) {
        pipe.on(\.tStress) { process in
            counter.increment()
            return (process.upstream ?? 0) + 1
        }
    }

    /// A churn handler: counts its runs and forwards the upstream value unchanged.
    private static func registerForwarder(_ pipe: ActionPipe, counter: Counter) {
        pipe.on(\.tStress) { process in
            counter.increment()
            return process.upstream
        }
    }

    @Test(
        "A stable core chain runs exactly N times while others register, replace and compose",
        .hangBound)
    func stableCoreUnderChurn() async throws {
        let core = try makeChain("core1", "core2", "core3")
        let counters = core.map { _ in Counter() }
        for (pipe, counter) in zip(core, counters) {
            Self.registerCore(pipe, counter: counter)
        }
        let churnRuns = Counter()
        let mismatches = Counter()
        let reportsChecked = Counter()
        let callers = 4
        let callsPerCaller = 12_000
        let callersDone = Counter()
        // The churn threads keep going for as long as any caller runs, and at least this long.
        let minimumRounds = 200
        @Sendable func churning(_ round: Int) -> Bool {
            round < minimumRounds || callersDone.value < callers
        }

        let finished = await runOnThreads(callers + 3) { index in
            switch index {
            case 0..<callers:
                defer { callersDone.increment() }
                for call in 0..<callsPerCaller {
                    let pipe = core[(index + call) % 3]
                    if call % 50 == 0 {
                        let report = pipe.tStress.report(call)
                        reportsChecked.increment()
                        let coreSteps = report.trace.steps.prefix(3)
                        if report.value != 3
                            || coreSteps.map(\.pipe) != ["core1", "core2", "core3"]
                            || coreSteps.map(\.outcome) != [.ran, .ran, .ran]
                        {
                            mismatches.increment()
                        }
                    } else if pipe.tStress(call) != 3 {
                        mismatches.increment()
                    }
                }
            case callers:
                // Replaces core2's handler by an equivalent one, over and over.
                var round = 0
                while churning(round) {
                    Self.registerCore(core[1], counter: counters[1])
                    round += 1
                }
            case callers + 1:
                // Appends forwarding pipes (and small chains of them) and removes them again.
                var round = 0
                while churning(round) {
                    defer { round += 1 }
                    let extra = ActionPipe(name: "churn\(round)")
                    Self.registerForwarder(extra, counter: churnRuns)
                    let tail = ActionPipe(name: "churnTail\(round)")
                    Self.registerForwarder(tail, counter: churnRuns)
                    _ = try? extra.append(tail)
                    _ = try? core[round % 3].append(extra)
                    Self.registerForwarder(extra, counter: churnRuns)
                    _ = tail.removeFromChain()
                    _ = extra.removeFromChain()
                    if (try? tail.append(extra)) == nil { mismatches.increment() }
                }
            default:
                // Registers and removes other actions on the core pipes.
                var round = 0
                while churning(round) {
                    defer { round += 1 }
                    let pipe = core[round % 3]
                    let token = pipe.on(\.tOther) { process in process.arguments }
                    if !token.cancel() { mismatches.increment() }
                    pipe.on(\.tOther) { process in process.arguments }
                    if !pipe.removeHandler(for: \.tOther) { mismatches.increment() }
                }
            }
        }

        #expect(finished)
        #expect(mismatches.value == 0)
        #expect(reportsChecked.value == callers * callsPerCaller / 50)
        #expect(counters.map(\.value) == Array(repeating: callers * callsPerCaller, count: 3))
        for pipe in core {
            #expect(pipe.chainNames == ["core1", "core2", "core3"])
        }
        #expect(core[0].tStress(0) == 3)
    }

    @Test(
        "Each thread's own changes are seen by its own next call, while others change the chain",
        .hangBound)
    func ownChangesAreSeenImmediately() async throws {
        let head = ActionPipe(name: "head")
        head.on(\.tPing) { process in
            process.sideData[Keys.fromHead] = true
            return nil
        }
        let mismatches = Counter()
        let workers = 4
        let rounds = 400

        let finished = await runOnThreads(workers) { worker in
            let mine = ActionPipe(name: "worker\(worker)")
            for round in 0..<rounds {
                let value = worker * 100_000 + round
                // Alone: the handler must not see the head.
                mine.on(\.tPing) { process in
                    if process.sideData[Keys.fromHead] != nil { mismatches.increment() }
                    return value
                }
                if mine.tPing(0) != value { mismatches.increment() }

                // In the shared chain: the head runs first, then this worker.
                mine.on(\.tPing) { process in
                    if process.sideData[Keys.fromHead] != true { mismatches.increment() }
                    return value
                }
                do {
                    try head.append(mine)
                } catch {
                    mismatches.increment()
                }
                let report = mine.tPing.report(0)
                if report.trace.steps.first?.pipe != "head"
                    || report.trace.steps.first?.outcome != .ran
                    || !report.trace.steps.contains(where: {
                        $0.pipe == mine.name && $0.outcome == .ran
                    })
                {
                    mismatches.increment()
                }
                if !mine.removeFromChain() { mismatches.increment() }
                if mine.chainNames != [mine.name] { mismatches.increment() }
            }
        }

        #expect(finished)
        #expect(mismatches.value == 0)
        #expect(head.chainNames == ["head"])
    }

    @Test(
        "Concurrent appends to one chain lose nothing and keep each thread's order",
        .hangBound)
    func concurrentAppends() async throws {
        let head = ActionPipe(name: "head")
        let runs = Counter()
        head.on(\.tPing) { _ in
            runs.increment()
            return 0
        }
        let appenders = 4
        let perAppender = 100
        let failures = Counter()
        let finished = await runOnThreads(appenders + 2) { index in
            if index < appenders {
                for number in 0..<perAppender {
                    let pipe = ActionPipe(name: "t\(index)-\(number)")
                    pipe.on(\.tPing) { process in
                        runs.increment()
                        return (process.upstream ?? 0) + 1
                    }
                    do {
                        try head.append(pipe)
                    } catch {
                        failures.increment()
                    }
                }
            } else {
                for _ in 0..<2000 {
                    // The head always runs first.
                    if head.tPing.report(0).trace.steps.first?.outcome != .ran {
                        failures.increment()
                    }
                }
            }
        }
        #expect(finished)
        #expect(failures.value == 0)

        let names = head.chainNames
        #expect(names.count == 1 + appenders * perAppender)
        #expect(Set(names).count == names.count)
        #expect(names.first == "head")
        for appender in 0..<appenders {
            let mine = names.filter { $0.hasPrefix("t\(appender)-") }
            #expect(mine == (0..<perAppender).map { "t\(appender)-\($0)" })
        }
        let before = runs.value
        #expect(head.tPing(0) == appenders * perAppender)
        #expect(runs.value - before == 1 + appenders * perAppender)
    }

    @Test(
        "Racing a.append(b) against b.append(a): exactly one wins, no cycle",
        .hangBound)
    func racingCycles() async throws {
        let rounds = 2000
        let pairs = (0..<rounds).map { (ActionPipe(name: "a\($0)"), ActionPipe(name: "b\($0)")) }
        let log = Log()
        for (a, b) in pairs { registerPings(on: [a, b], log: log) }
        let wins = Counter()
        let rejections = Counter()
        let barrier = SpinBarrier(parties: 2)
        let finished = await runOnThreads(2) { side in
            for (a, b) in pairs {
                barrier.wait()
                do {
                    if side == 0 { try a.append(b) } else { try b.append(a) }
                    wins.increment()
                } catch {
                    rejections.increment()
                }
            }
        }
        #expect(finished)
        #expect(wins.value == rounds)
        #expect(rejections.value == rounds)
        var broken = 0
        for (a, b) in pairs {
            let names = a.chainNames
            if names != b.chainNames || Set(names) != [a.name, b.name] { broken += 1 }
            b.tPing(0)
            if log.take() != names { broken += 1 }
        }
        #expect(broken == 0)
    }

    @Test("Racing a three-pipe cycle: exactly two appends win", .hangBound)
    func racingThreeWayCycles() async throws {
        let rounds = 1000
        let triples = (0..<rounds).map { round in
            (0..<3).map { ActionPipe(name: "r\(round)-\($0)") }
        }
        let log = Log()
        for pipes in triples { registerPings(on: pipes, log: log) }
        let wins = Counter()
        let barrier = SpinBarrier(parties: 3)
        let finished = await runOnThreads(3) { index in
            for pipes in triples {
                barrier.wait()
                if (try? pipes[index].append(pipes[(index + 1) % 3])) != nil { wins.increment() }
            }
        }
        #expect(finished)
        #expect(wins.value == rounds * 2)
        var broken = 0
        for pipes in triples {
            let names = pipes[0].chainNames
            if Set(names) != Set(pipes.map(\.name)) || names.count != 3 { broken += 1 }
            if pipes[1].chainNames != names || pipes[2].chainNames != names { broken += 1 }
            pipes[2].tPing(0)
            if log.take() != names { broken += 1 }
        }
        #expect(broken == 0)
    }

    @Test(
        "Racing cancels of one token, and removals of one handler: exactly one wins",
        .hangBound)
    func racingCancels() async {
        let rounds = 2000
        let pipes = (0..<rounds).map { ActionPipe(name: "p\($0)") }
        let tokens = pipes.map { pipe in pipe.on(\.tPing) { _ in 1 } }
        for pipe in pipes { pipe.on(\.tOther) { _ in 1 } }
        let successes = Counter()
        let removals = Counter()
        let barrier = SpinBarrier(parties: 4)
        let finished = await runOnThreads(4) { _ in
            for (pipe, token) in zip(pipes, tokens) {
                barrier.wait()
                if token.cancel() { successes.increment() }
                if pipe.removeHandler(for: \.tOther) { removals.increment() }
            }
        }
        #expect(finished)
        #expect(successes.value == rounds)
        #expect(removals.value == rounds)
        #expect(pipes.allSatisfy { $0.tPing(0) == nil && $0.tOther(0) == nil })
    }

    @Test(
        "Concurrent calls each get their own process: arguments, rewrites, side data",
        .hangBound)
    func processesAreIsolated() async throws {
        let pipes = try makeChain("p1", "p2", "p3")
        pipes[0].on(\.tPair) { process in
            let (first, second) = process.arguments
            process.sideData[Keys.label] = "\(first)"
            process.rewrite(\.1, to: first + second)
            return "p1 \(first)"
        }
        pipes[1].on(\.tPair).when("odd") { process in process.arguments.0 % 2 == 1 }
            .handle { process in
                process.sideData[Keys.counter] = process.arguments.0
                return process.upstream
            }
        pipes[2].on(\.tPair) { process in
            "\(process.upstream ?? "-") \(process.arguments.1) \(process.sideData[Keys.label] ?? "-") "
                + "\(show(process.sideData[Keys.counter]))"
        }
        let mismatches = Counter()
        let threads = 4
        let calls = 3000
        let finished = await runOnThreads(threads) { thread in
            for call in 0..<calls {
                let first = thread * calls + call
                let expected =
                    "p1 \(first) \(first + thread) \(first) \(first % 2 == 1 ? "\(first)" : "nil")"
                if pipes[call % 3].tPair(first, thread) != expected { mismatches.increment() }
            }
        }
        #expect(finished)
        #expect(mismatches.value == 0)
    }

    @Test("Concurrent swift-concurrency tasks calling and registering", .hangBound)
    func tasksCallAndRegister() async throws {
        let pipes = try makeChain("p1", "p2")
        let runs = Counter()
        pipes[0].on(\.tPing) { process in
            runs.increment()
            return process.arguments
        }
        let mismatches = Counter()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<6 {
                group.addTask {
                    for call in 0..<1000 {
                        if task == 5 {
                            pipes[1].on(\.tPing) { process in process.upstream }
                            pipes[1].removeHandler(for: \.tPing)
                        } else if pipes[call % 2].tPing(call) != call {
                            mismatches.increment()
                        }
                    }
                }
            }
        }
        #expect(mismatches.value == 0)
        #expect(runs.value == 5000)
    }

    /// The key path of `tFresh<index>`, written at the call site so each thread makes its own.
    private static func freshAction(_ index: Int) -> KeyPath<Actions, Action<Int, Int>> & Sendable {
        switch index {
        case 0: \.tFresh0
        case 1: \.tFresh1
        case 2: \.tFresh2
        case 3: \.tFresh3
        case 4: \.tFresh4
        case 5: \.tFresh5
        case 6: \.tFresh6
        default: \.tFresh7
        }
    }

    @Test(
        "Concurrent first use of actions: every thread gets the same, distinct actions",
        .hangBound)
    func concurrentFirstUseOfActions() async {
        let shared = ActionPipe(name: "shared")
        let mismatches = Counter()
        let threads = 8
        let finished = await runOnThreads(threads) { thread in
            let mine = ActionPipe(name: "own\(thread)")
            for offset in 0..<8 {
                let index = (thread + offset) % 8
                mine.on(Self.freshAction(index)) { process in index * 100 + process.arguments }
            }
            shared.on(Self.freshAction(thread)) { process in thread * 1000 + process.arguments }
            for index in 0..<8 {
                let bound = mine[dynamicMember: Self.freshAction(index)]
                if bound(thread) != index * 100 + thread { mismatches.increment() }
                if bound.report(thread).trace.action != "tFresh\(index)" { mismatches.increment() }
            }
        }
        #expect(finished)
        #expect(mismatches.value == 0)
        for index in 0..<8 {
            #expect(shared[dynamicMember: Self.freshAction(index)](1) == index * 1000 + 1)
        }
    }
}
