import ActionPipe
import Testing

@testable import ActionPipeCore

@Suite("Tracing: the table form of a trace")
struct TraceTableTests {
    @Test("a real call's table: aligned columns, one row per pipe, no trailing spaces")
    func realCall() throws {
        let pipes = try makeChain("pipe1", "pipe2", "pipe3")
        pipes[0].on(\.tSomeFunc) { _ in nil }
        pipes[2].on(\.tSomeFunc).upstreamNotNil().handle { _ in nil }
        let trace = pipes[0].tSomeFunc.report(0, nil).trace
        #expect(
            trace.table == """
                tSomeFunc
                pipe   outcome  reason
                pipe1  ran
                pipe2  skipped  not registered
                pipe3  skipped  upstream is nil

                """)
        // The one-line form is unchanged.
        #expect(trace.description.hasPrefix("tSomeFunc(0, nil): pipe1 ran → pipe2 skipped"))
    }

    @Test("every outcome, the call's state in the heading, and no duration column")
    func everyOutcome() {
        let trace = ActionTrace(
            action: "save", arguments: [], state: 1,
            steps: [
                .init(pipe: "a", outcome: .ran),
                .init(pipe: "longer name", outcome: .stopped),
                .init(pipe: "c", outcome: .threw("disk full")),
                .init(pipe: "d", outcome: .skipped(.stoppedEarlier)),
            ])
        #expect(
            trace.table == """
                save start
                pipe         outcome  reason
                a            ran
                longer name  stopped  stopped the call
                c            threw    disk full
                d            skipped  \(SkipReason.stoppedEarlier)

                """)
        #expect(!trace.table.contains("duration"))
    }

    @Test("a trace of no pipe is the heading and the column names")
    func empty() {
        let trace = ActionTrace(action: "idle", arguments: [], state: nil, steps: [])
        #expect(trace.table == "idle\npipe  outcome  reason\n")
    }
}
