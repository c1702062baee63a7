import ActionPipe
import Foundation
import Testing

/// Many threads calling, registering and recomposing at once, a fixed number of times each,
/// with every call accounted for. The work is counted, not timed: a busy machine runs the
/// same work more slowly, and the checks are the same.
@Suite("Stress: core")
struct CoreStressTests {
    static let callsPerCaller = 3_000
    static let changesPerChurner = 1_500
    static let tokenRounds = 400
    static let stableCount = 4

    @Test(
        "calls during registrations and recompositions: every stable handler runs once per call",
        .hangBound)
    func callsDuringChurn() async throws {
        // Four stable pipes whose stressCall handlers never change: each counts its runs and
        // adds one to the upstream value, so every call must return 4.
        let stable = (0..<Self.stableCount).map { ActionPipe(name: "s\($0)") }
        let stableRuns = (0..<Self.stableCount).map { _ in Counter() }
        for (index, pipe) in stable.enumerated() {
            let runs = stableRuns[index]
            pipe.on(\.stressCall) { process in
                runs.increment()
                return (process.upstream ?? 0) + 1
            }
        }
        for (left, right) in zip(stable, stable.dropFirst()) { try left.append(right) }
        // Churn pipes join and leave the chain, at either end, and gain and lose
        // pass-through handlers (they return the upstream value unchanged).
        let churn = (0..<4).map { ActionPipe(name: "c\($0)") }
        let churnRuns = Counter()
        let stableNames = stable.map(\.name)

        let calls = Counter()
        let wrong = StressFailures()
        let changes = Counter()
        let callers = 3
        let finished = await runOnThreads(callers + 2, timeout: 120) { thread in
            var random = SeededRandom(seed: 0x5EED_0000 + UInt64(thread))
            if thread < callers {
                for _ in 0..<Self.callsPerCaller {
                    let pipe = stable[random.below(stable.count)]
                    if random.chance(1, in: 4) {
                        let report = pipe.stressCall.report(thread, nil)
                        let ran = report.trace.ran.filter { $0.hasPrefix("s") }
                        if report.value != Self.stableCount || ran != stableNames {
                            wrong.record(
                                "report \(report.trace) value \(String(describing: report.value))")
                        }
                    } else if let value = pipe.stressCall(thread, nil), value == Self.stableCount {
                    } else {
                        wrong.record("a call did not return \(Self.stableCount)")
                    }
                    calls.increment()
                }
                return
            }
            for _ in 0..<Self.changesPerChurner {
                let pipe = churn[random.below(churn.count)]
                switch random.below(7) {
                case 0: _ = try? stable[0].append(pipe)
                case 1: _ = try? pipe.append(stable[random.below(stable.count)])
                case 2, 3: _ = pipe.removeFromChain()
                case 4:
                    pipe.on(\.stressCall) { process in
                        churnRuns.increment()
                        return process.upstream
                    }
                case 5: pipe.removeHandler(for: \.stressCall)
                default:
                    // Another action on a stable pipe: a new snapshot of the stable chain,
                    // while calls read the old one.
                    let token = stable[random.below(stable.count)].on(\.stressChurn) { _ in 0 }
                    token.cancel()
                }
                changes.increment()
            }
        }
        #expect(finished, "a thread did not finish within 120 s: deadlock or livelock")
        let total = calls.value
        #expect(total == callers * Self.callsPerCaller)
        #expect(changes.value == 2 * Self.changesPerChurner)
        #expect(wrong.count == 0, "wrong results: \(wrong.first ?? "")")
        for (index, runs) in stableRuns.enumerated() {
            #expect(runs.value == total, "s\(index) ran \(runs.value) times for \(total) calls")
        }
        #expect(stable.allSatisfy { $0.isInSameChain(as: stable[0]) })
        #expect(stable[0].chainNames.filter { $0.hasPrefix("s") } == stableNames)
        print(
            "StressCore churn: \(total) calls × \(Self.stableCount) stable handlers, "
                + "\(changes.value) changes, \(churnRuns.value) churn handler runs")
    }

    @Test(
        "tokens under contention: each registration answers, cancels once, and is gone",
        .hangBound)
    func tokensUnderContention() async {
        let threads = 4
        let rounds = Counter()
        let wrong = StressFailures()
        let finished = await runOnThreads(threads, timeout: 120) { thread in
            // Each thread owns its pipe (so the expected answers are known) but shares the
            // process-wide registration lock and the action cache with the others; one in
            // four rounds also joins and leaves a shared chain.
            let pipe = ActionPipe(name: "t\(thread)")
            let partner = ActionPipe(name: "partner\(thread)")
            for round in 1...Self.tokenRounds {
                let value = thread * 1_000_000 + round
                let token = pipe.on(\.stressChurn) { _ in value }
                if pipe.stressChurn(0, nil) != value {
                    wrong.record("t\(thread) round \(round): not answered")
                }
                let replaced = pipe.on(\.stressChurn) { _ in value + 1 }
                if token.isActive || token.cancel() {
                    wrong.record("t\(thread): a replaced token is active")
                }
                if pipe.stressChurn(0, nil) != value + 1 {
                    wrong.record("t\(thread): replacement not seen")
                }
                if round % 4 == 0 {
                    do {
                        try partner.append(pipe)
                        if partner.stressChurn(0, nil) != value + 1 {
                            wrong.record("t\(thread): chain call")
                        }
                        if !pipe.removeFromChain() { wrong.record("t\(thread): removeFromChain") }
                    } catch {
                        wrong.record("t\(thread): \(error)")
                    }
                }
                if !replaced.cancel() || replaced.cancel() {
                    wrong.record("t\(thread): cancel twice")
                }
                if pipe.stressChurn(0, nil) != nil {
                    wrong.record("t\(thread): cancelled handler ran")
                }
                rounds.increment()
            }
        }
        #expect(finished, "a thread did not finish within 120 s: deadlock or livelock")
        #expect(wrong.count == 0, "\(wrong.count) failures, first: \(wrong.first ?? "")")
        #expect(rounds.value == threads * Self.tokenRounds)
        print("StressCore tokens: \(rounds.value) rounds on \(threads) threads")
    }

    @Test(
        "concurrent async calls with suspending handlers: every call accounted for",
        .hangBound)
    func asyncCalls() async throws {
        let first = ActionPipe(name: "first")
        let second = ActionPipe(name: "second")
        let runs = Counter()
        first.on(\.modelAsync) { process in
            runs.increment()
            await Task.yield()
            process.sideData[ModelCoreKeys.counter] = process.arguments.0
            return process.arguments.0
        }
        second.on(\.modelAsync) { process in
            runs.increment()
            await Task.yield()
            // The process travels with its own call: side data and upstream are this call's.
            guard process.sideData[ModelCoreKeys.counter] == process.arguments.0 else { return -1 }
            return (process.upstream ?? 0) * 2
        }
        try first.append(second)
        let calls = 2_000
        let sum = try await withThrowingTaskGroup(of: Int.self) { group in
            for number in 0..<calls {
                group.addTask { try await second.modelAsync(number, nil) ?? -1_000_000 }
            }
            return try await group.reduce(0, +)
        }
        #expect(sum == (0..<calls).reduce(0) { $0 + $1 * 2 })
        #expect(runs.value == calls * 2)
    }
}

/// Failures seen by stress threads, kept for the report (thread-safe).
final class StressFailures: Sendable {
    private let entries = TestLock<[String]>([])

    func record(_ failure: String) { entries.withLock { $0.append(failure) } }

    var count: Int { entries.withLock { $0.count } }

    var first: String? { entries.withLock { $0.first } }
}
