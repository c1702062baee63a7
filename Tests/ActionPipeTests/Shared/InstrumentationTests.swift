import ActionPipe
import Synchronization
import Testing

@testable import ActionPipeShared

/// What the instrument saw: one line per ended operation whose detail or name starts with
/// "instr-" (other suites run at the same time, instrumented too).
final class RecordingInstrument: Instrument {
    struct Ended: Sendable {
        let operation: InstrumentedOperation
        let outcome: String
        let contextRoundTripped: Bool
        let duration: Duration
    }
    private let ended = TestLock<[Ended]>([])
    private let begun = TestLock<Int>(0)

    static let shared = RecordingInstrument()

    private func isOurs(_ operation: InstrumentedOperation) -> Bool {
        operation.detail.hasPrefix("instr-") || operation.name.hasPrefix("instr-")
    }

    func begin(_ operation: InstrumentedOperation) -> (any Sendable)? {
        guard isOurs(operation) else { return nil }
        begun.withLock { $0 += 1 }
        return "context of \(operation)"
    }

    func end(
        _ operation: InstrumentedOperation, context: (any Sendable)?, duration: Duration,
        outcome: InstrumentedOutcome
    ) {
        guard isOurs(operation) else { return }
        let roundTripped = (context as? String) == "context of \(operation)"
        ended.withLock {
            $0.append(
                Ended(
                    operation: operation, outcome: "\(outcome)",
                    contextRoundTripped: roundTripped, duration: duration))
        }
    }

    /// The ended operations of `detail` (or name), as "kind name on detail: outcome".
    func lines(_ detail: String) -> [String] {
        ended.withLock { ended in
            ended.filter { $0.operation.detail == detail || $0.operation.name == detail }
                .map { "\($0.operation): \($0.outcome)" }
        }
    }

    /// Whether every ended operation of `detail` got its begin's context back and a
    /// duration that is not negative.
    func wellFormed(_ detail: String) -> Bool {
        ended.withLock { ended in
            ended.filter { $0.operation.detail == detail || $0.operation.name == detail }
                .allSatisfy { $0.contextRoundTripped && $0.duration >= .zero }
        }
    }
}

struct InstrItemFailed: Error, CustomStringConvertible {
    var description: String { "item failed" }
}

@Suite("Instrumentation: every call, publish, packet and tree item", .serialized)
struct InstrumentationTests {
    init() { Instrumentation.install(RecordingInstrument.shared) }

    private var recorder: RecordingInstrument { .shared }

    @Test("a call begins and ends with the installed instrument, context handed back")
    func syncCall() {
        let pipe = ActionPipe(name: "instr-sync")
        pipe.on(\.tPing) { process in process.arguments + 1 }
        #expect(pipe.tPing(1) == 2)
        #expect(pipe.tPing(2) == 3)
        #expect(
            recorder.lines("instr-sync") == [
                "call tPing on instr-sync: succeeded", "call tPing on instr-sync: succeeded",
            ])
        #expect(recorder.wellFormed("instr-sync"))
    }

    @Test("a throwing call that throws ends failed with the error")
    func throwingCall() {
        let pipe = ActionPipe(name: "instr-throwing")
        pipe.on(\.ttStep).handle { (process) throws(TTFailure) in
            guard process.arguments <= 5 else { throw .tooLarge(process.arguments) }
            return process.arguments
        }
        #expect((try? pipe.ttStep(1)) == 1)
        #expect(throws: TTFailure.tooLarge(9)) { try pipe.ttStep(9) }
        #expect(
            recorder.lines("instr-throwing") == [
                "call ttStep on instr-throwing: succeeded",
                "call ttStep on instr-throwing: failed: tooLarge(9)",
            ])
    }

    @Test("an async call is instrumented across its suspension")
    func asyncCall() async throws {
        let pipe = ActionPipe(name: "instr-async")
        pipe.on(\.taStep) { process in
            await Task.yield()
            return process.arguments * 2
        }
        #expect(try await pipe.taStep(21) == 42)
        #expect(recorder.lines("instr-async") == ["call taStep on instr-async: succeeded"])
    }

    @Test("a call refused for nesting too deep ends failed with the error, throwing or not")
    func nestingRefusal() {
        let pipe = ActionPipe(name: "instr-deep")
        // Recursion without a base case: the limit refuses the innermost call.
        pipe.on(\.tPing) { [weak pipe] process in
            (pipe?.tPing(process.arguments + 1) ?? 0) + 1
        }
        pipe.on(\.ttStep).handle { [weak pipe] (process) throws(TTFailure) in
            (try pipe?.ttStep(process.arguments + 1) ?? 0) + 1
        }
        let reported = Diagnostics.record {
            #expect(pipe.tPing(0) == NestingLimitError.depthLimit)
            #expect((try? pipe.ttStep(0)) == NestingLimitError.depthLimit)
        }
        #expect(reported.map(\.kind) == [.nestingLimit, .nestingLimit])
        let lines = recorder.lines("instr-deep")
        for action in ["tPing", "ttStep"] {
            let calls = lines.filter { $0.hasPrefix("call \(action) on instr-deep: ") }
            let failed = calls.filter { $0.contains(": failed: ") }
            #expect(calls.count == NestingLimitError.depthLimit + 1)
            #expect(failed.count == 1, "only the refused call failed: \(action)")
            #expect(failed.first?.contains("limit \(NestingLimitError.depthLimit)") == true)
        }
        #expect(recorder.wellFormed("instr-deep"))
    }

    @Test("a publish is one operation, named by the event type, on the bus")
    func publish() {
        struct InstrEvent: BusEvent {}
        let bus = EventBus(name: "instr-bus")
        let seen = Counter()
        let token = bus.subscribe(BusTopic(InstrEvent.self)) { _ in seen.increment() }
        bus.publish(InstrEvent())
        #expect(seen.value == 1)
        #expect(recorder.lines("instr-bus") == ["publish InstrEvent on instr-bus: succeeded"])
        token.cancel()
    }

    @Test("packets: delivered succeeds, refused is stopped with the reason, a throw fails")
    func packets() async {
        struct Broken: Error, CustomStringConvertible {
            var description: String { "broken" }
        }
        let plumber = PipelinePlumber<Int>(name: "instr-plumber")
        plumber.addStage("check") { packet in
            if packet.payload == 13 { throw Broken() }
            return packet.payload < 100 ? .pass : .stop("too big")
        }
        _ = plumber.send(1, from: 7)
        _ = plumber.send(500, from: 7)
        _ = await plumber.process(13, from: 8)
        let lines = recorder.lines("instr-plumber")
        #expect(lines.count == 3)
        #expect(lines.first == "packet instr-plumber on port 7: succeeded")
        #expect(
            lines.dropFirst().first?.hasPrefix("packet instr-plumber on port 7: stopped:") == true)
        #expect(lines.last?.hasPrefix("packet instr-plumber on port 8: failed:") == true)
    }

    @Test("tree items: one operation per item, every attempt included; a failure ends failed")
    func treeItems() async {
        let node = OperationTreeNode(
            "instr-node", objects: { (n: Int) in Array(0..<n) },
            work: { (n: Int) async throws -> Int in
                if n == 2 { throw InstrItemFailed() }
                return n
            })
        let report = await node.run(3, options: .init(retry: .init(maxAttempts: 2)))
        #expect(report.succeededCount == 2)
        let lines = recorder.lines("instr-node")
        #expect(lines.count == 3)
        #expect(lines.filter { $0.hasSuffix(": succeeded") }.count == 2)
        #expect(lines.filter { $0.hasSuffix(": failed: item failed") }.count == 1)
    }

    @Test("with no instrument installed, nothing is observed")
    func uninstalled() {
        Instrumentation.uninstall()
        defer { Instrumentation.install(RecordingInstrument.shared) }
        #expect(Instrumentation.instrument == nil)
        let pipe = ActionPipe(name: "instr-off")
        pipe.on(\.tPing) { process in process.arguments }
        _ = pipe.tPing(1)
        #expect(recorder.lines("instr-off").isEmpty)
    }

    @Test("racing installs and uninstalls leave the on/off flag and the instrument agreeing")
    func racingInstallAndUninstall() async {
        defer { Instrumentation.install(RecordingInstrument.shared) }
        // Each round, two threads make their one change at once, then check: the flag must
        // say whether an instrument is installed, whichever change came last.
        let rounds = 20_000
        let barrier = SpinBarrier(parties: 2)
        let disagreements = Counter()
        let finished = await runOnThreads(2) { index in
            for _ in 0..<rounds {
                barrier.wait()
                if index == 0 {
                    Instrumentation.install(RecordingInstrument.shared)
                } else {
                    Instrumentation.uninstall()
                }
                barrier.wait()
                if index == 0, Instrumentation.isOn != (Instrumentation.instrument != nil) {
                    disagreements.increment()
                }
            }
        }
        #expect(finished)
        #expect(disagreements.value == 0)
    }
}
