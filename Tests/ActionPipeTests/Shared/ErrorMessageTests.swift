import ActionPipe
import Testing

/// Every public error type's description says what went wrong and what to do. Each error is
/// produced through the API that really throws or reports it, where that can be done
/// without global state.
@Suite("Errors read well")
struct ErrorMessageTests {
    /// The failure the tree tests provoke.
    struct NewcomerOffline: Error, CustomStringConvertible {
        var description: String { "offline" }
    }

    @Test func chainErrorNamesTheCycleAndTheRemedy() throws {
        let first = ActionPipe(name: "first")
        let second = ActionPipe(name: "second")
        try first.append(second)

        do {
            try second.append(first)
            Issue.record("appending a pipe of the same chain must throw")
        } catch {
            // What went wrong: which pipe, which chain, and that nothing changed.
            #expect(error.description.contains("first is already in the chain first → second"))
            #expect(error.description.contains("cycle"))
            #expect(error.description.contains("Nothing was changed"))
            // What to do.
            #expect(error.description.contains("removeFromChain()"))
        }
        #expect(second.chainNames == ["first", "second"])
    }

    @Test func operationTreeCycleSaysToMakeANewNode() {
        let node = OperationTreeNode("loop", objects: { (n: Int) in [n] }, work: { $0 + 1 })
        do {
            try node.addChild(node)
            Issue.record("a node added to itself must throw")
        } catch {
            #expect(error == .cycle(parent: "loop", child: "loop"))
            #expect(error.description.contains("would make a cycle"))
            #expect(error.description.contains("make a new node for the repeated step"))
        }
    }

    @Test(.hangBound)
    func operationTreeTimeoutSaysWhichKnobToTurn() async throws {
        let stuck = OperationTreeNode(
            "stuck", objects: { (n: Int) in [n] },
            work: { (n: Int) in
                try await Task.sleep(for: .seconds(30))
                return n
            })
        let options = OperationTreeOptions(retry: .never, itemTimeout: .milliseconds(20))
        let report = await stuck.run(1, options: options)

        let failure = try #require(report.failures.first)
        let error = try #require(failure.error as? OperationTreeError)
        #expect(error == .timedOut(node: "stuck", after: .milliseconds(20)))
        #expect(error.description.contains("node 'stuck'"))
        #expect(error.description.contains("did not return within"))
        #expect(error.description.contains("OperationTreeOptions.itemTimeout"))
        #expect(error.description.contains("honour cancellation"))
    }

    @Test(.hangBound)
    func operationTreeFailureSaysWhatFailedAndWhatToDo() async throws {
        let recipe = OperationTreeNode(
            "recipe", objects: { (n: Int) in [n] },
            work: { (_: Int) -> Int in throw NewcomerOffline() })
        let report = await recipe.run(42, options: .init(retry: .init(maxAttempts: 2)))

        let failure = try #require(report.failures.first)
        // What went wrong: node, object, attempts, the error, and what happened to the rest.
        #expect(failure.description.contains("node 'recipe'"))
        #expect(failure.description.contains("work on 42 failed after 2 attempts: offline"))
        #expect(failure.description.contains("its subtree was skipped"))
        // What to do, for the developer only: a program shows its users the description.
        #expect(!failure.description.contains("OperationTreeOptions"))
        #expect(failure.developerHint.contains("OperationTreeOptions.retry"))
        #expect(failure.developerHint.contains("fix the provider"))
    }

    @Test func plumbingErrorSaysToRemoveThePortFirst() throws {
        let port = PlumbingPort<Int>(100)
        let first = PipelinePlumber<Int>(name: "first")
        try first.addPort(port)

        do {
            try PipelinePlumber<Int>(name: "second").addPort(port)
            Issue.record("a port of a live plumber must be refused")
        } catch {
            #expect(error == .portInUse(port: 100, plumber: "first"))
            #expect(error.description.contains("port 100 already feeds plumber 'first'"))
            #expect(error.description.contains("call `removePort(_:)` on 'first' first"))
            #expect(error.description.contains("or make another port"))
        }
        withExtendedLifetime(first) {}
    }

    @Test func observationCycleErrorSaysHowToBreakTheLoop() {
        // Built directly: the real report goes through the process-wide diagnostics handler
        // that other suites running in parallel also use.
        let depth = ObservationCycleError.depthLimit + 1
        let error = ObservationCycleError(property: "a", depth: depth)
        #expect(error.description.contains("a cycle of observers: setting 'a'"))
        #expect(error.description.contains("65 deep (limit 64)"))
        #expect(error.description.contains("stored but not delivered"))
        #expect(error.description.contains("break the loop"))
        #expect(error.description.contains(".skipEqual"))
    }
}
