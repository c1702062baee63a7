import ActionPipe
import ActionPipeTesting
import Testing

@Suite("ActionPipeTesting: trace helpers")
struct TraceHelperTests {
    @Test("helpers on a real chain: names, outcomes, reasons and the summary")
    func realChain() throws {
        let pipes = try makeChain("cache", "check", "server", "audit")
        pipes[0].on(\.tPing).when("small") { $0.arguments < 10 }.handle { process in
            process.stop()
            return 1
        }
        pipes[1].on(\.tPing).state(.error).handle { _ in 2 }
        pipes[2].on(\.tPing) { process in process.arguments * 2 }

        let cached = pipes[3].tPing.report(3)
        #expect(
            cached.trace.summary == "cache stopped, check skipped, server skipped, audit skipped")
        #expect(cached.trace.pipeNames == ["cache", "check", "server", "audit"])
        #expect(cached.trace.ranPipes == ["cache"])
        #expect(cached.trace.skippedPipes == ["check", "server", "audit"])
        #expect(cached.trace.outcome(of: "cache") == .stopped)
        #expect(cached.trace.skipReason(of: "server") == .stoppedEarlier)
        #expect(cached.trace.skipReason(of: "cache") == nil)

        let served = pipes[0].tPing.with(state: .start).report(20)
        #expect(served.trace.summary == "cache skipped, check skipped, server ran, audit skipped")
        #expect(served.trace.ranPipes == served.trace.ran)
        #expect(served.trace.skipReason(of: "cache") == .conditionFailed("small"))
        #expect(
            served.trace.skipReason(of: "check")
                == .stateMismatch(handler: .error, call: .start))
        #expect(served.trace.skipReason(of: "audit") == .notRegistered)
        #expect(served.trace.outcome(of: "nowhere") == nil)
        #expect(served.trace.skipReason(of: "nowhere") == nil)
    }

    @Test("a handler that throws is summarised as threw")
    func threw() throws {
        let pipes = try makeChain("first", "second")
        pipes[0].on(\.ttLoad).handle { (process) throws(TTFailure) in
            throw .rejected(process.arguments)
        }
        pipes[1].on(\.ttLoad).handle { process in process.arguments }
        let report = pipes[0].ttLoad.report("x")
        #expect(report.trace.summary == "first threw, second skipped")
        #expect(report.trace.skipReason(of: "second") == .earlierHandlerThrew)
        #expect(report.trace.ranPipes == ["first"])
    }
}
