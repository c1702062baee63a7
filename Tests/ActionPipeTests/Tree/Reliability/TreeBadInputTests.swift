import ActionPipe
import Testing

/// Durations, limits and counts a user may pass: none traps, none makes a negative wait.
@Suite("Tree: bad durations, limits and counts are clamped, never trap")
struct TreeBadInputTests {
    typealias Backoff = OperationTreeRetryPolicy.Backoff

    static let backoffs: [Backoff] = [
        .exponential(initial: .milliseconds(-1), maximum: .seconds(1)),
        .exponential(initial: .zero, maximum: .seconds(1)),
        .exponential(initial: .seconds(1), maximum: .milliseconds(-5)),
        .exponential(initial: .seconds(2), maximum: .seconds(1)),
        .exponential(initial: .seconds(Int64.max / 2), maximum: .seconds(Int64.max)),
        .exponential(initial: .nanoseconds(1), maximum: .seconds(Int64.max)),
        .constant(.seconds(-3)),
        .constant(.zero),
        .immediate,
    ]
    static let attempts = [Int.min, -1, 0, 1, 2, 3, 10, 64, 100, 10_000, Int.max]

    @Test("Backoff delays are never negative and never above the maximum, for any attempt")
    func backoffDelays() {
        var bad: [String] = []
        for backoff in Self.backoffs {
            for attempt in Self.attempts {
                let delay = backoff.delay(beforeAttempt: attempt)
                var limit = Duration.seconds(Int64.max)
                if case .exponential(_, let maximum) = backoff { limit = max(maximum, .zero) }
                if case .constant(let constant) = backoff { limit = max(constant, .zero) }
                if delay < .zero || delay > limit { bad.append("\(backoff) @\(attempt): \(delay)") }
            }
        }
        #expect(bad.isEmpty)
        #expect(
            Backoff.exponential(initial: .milliseconds(-1), maximum: .seconds(1))
                .delay(beforeAttempt: 100) == .zero)
        #expect(
            Backoff.exponential(initial: .nanoseconds(1), maximum: .seconds(1))
                .delay(beforeAttempt: 10_000) == .seconds(1))
    }

    @Test(
        "A tree with 100 attempts and a negative backoff runs every attempt and reports one failure"
    )
    func negativeBackoffTree() async {
        struct Failure: Error {}
        var options = OperationTreeOptions()
        options.retry = OperationTreeRetryPolicy(
            maxAttempts: 100,
            backoff: .exponential(initial: .milliseconds(-1), maximum: .milliseconds(1)))
        let node = OperationTreeNode(
            "failing", objects: { (n: Int) in [n] },
            work: { (_: Int) async throws -> Int in throw Failure() })
        let report = await node.run(1, options: options)
        #expect(report.failures.count == 1)
        #expect(report.failures.first?.attempts == 100)
        #expect(report.retryCount == 99)
    }

    @Test("A timeout too large for the clock means no timeout; zero or less times out at once")
    func extremeTimeouts() async {
        var options = OperationTreeOptions()
        options.retry = .never
        options.itemTimeout = .seconds(Int64.max)
        let node = OperationTreeNode("n", objects: { (n: Int) in [n] }, work: { $0 + 1 })
        let report = await node.run(1, options: options)
        #expect(report.outcome == .completed)
        #expect(report.succeededCount == 1)
        options.itemTimeout = .seconds(-1)
        let slow = OperationTreeNode(
            "slow", objects: { (n: Int) in [n] },
            work: { (n: Int) async throws -> Int in
                try await Task.sleep(for: .seconds(30))
                return n
            })
        let timedOut = await slow.run(1, options: options)
        #expect(timedOut.failures.count == 1)
    }

    @Test("Counts below their minimum are clamped, also when set after init")
    func clampedCounts() {
        var policy = OperationTreeRetryPolicy(maxAttempts: -5)
        #expect(policy.maxAttempts == 1)
        policy.maxAttempts = 0
        #expect(policy.maxAttempts == 1)
        var options = OperationTreeOptions(concurrencyLimit: Int.min)
        #expect(options.concurrencyLimit == 1)
        options.concurrencyLimit = -1
        #expect(options.concurrencyLimit == 1)
    }
}
