import ActionPipe
import Testing

@Suite("States (SEMANTICS §1 Conditions: state, example 5)")
struct CoreStateTests {
    /// Example 5: pipe1's handler has state 1, pipe2's state 10.
    private func example5(log: Log) throws -> (ActionPipe, ActionPipe) {
        let pipe1 = ActionPipe(name: "pipe1")
        let pipe2 = ActionPipe(name: "pipe2")
        pipe1.on(\.tSomeFunc).state(1).handle { _ in
            log.append("pipe1 _ state 1.")
            return nil
        }
        pipe2.on(\.tSomeFunc).state(10).handle { _ in
            log.append("pipe1 _ state 10.")
            return nil
        }
        try pipe1.append(pipe2)
        return (pipe1, pipe2)
    }

    @Test("Example 5: with state 1 → only p1")
    func stateOneRunsOnlyP1() throws {
        let log = Log()
        let (pipe1, _) = try example5(log: log)
        pipe1.with(state: 1).tSomeFunc(0, nil)
        #expect(log.all == ["pipe1 _ state 1."])
    }

    @Test("Example 5: with state 10 → only p2")
    func stateTenRunsOnlyP2() throws {
        let log = Log()
        let (pipe1, _) = try example5(log: log)
        pipe1.with(state: 10).tSomeFunc(0, nil)
        #expect(log.all == ["pipe1 _ state 10."])
    }

    @Test("Example 5: with state 1 | 10 → both")
    func stateOneOrTenRunsBoth() throws {
        let log = Log()
        let (pipe1, pipe2) = try example5(log: log)
        pipe1.with(state: ActionState(1 | 10)).tSomeFunc(0, nil)
        pipe2.with(state: [1, 10]).tSomeFunc(0, nil)
        pipe1.tSomeFunc.with(state: 11)(0, nil)
        #expect(
            log.all == [
                "pipe1 _ state 1.", "pipe1 _ state 10.",
                "pipe1 _ state 1.", "pipe1 _ state 10.",
                "pipe1 _ state 1.", "pipe1 _ state 10.",
            ])
    }

    @Test("Example 5: a plain call → both")
    func plainCallRunsEveryState() throws {
        let log = Log()
        let (pipe1, pipe2) = try example5(log: log)
        pipe1.tSomeFunc(0, nil)
        pipe2.tSomeFunc(0, nil)
        #expect(
            log.all == [
                "pipe1 _ state 1.", "pipe1 _ state 10.", "pipe1 _ state 1.", "pipe1 _ state 10.",
            ])
    }

    @Test("A handler without a state runs in every call, with or without a state")
    func statelessHandlerAlwaysRuns() throws {
        let log = Log()
        let (pipe1, pipe2) = try example5(log: log)
        let pipe3 = ActionPipe(name: "pipe3")
        pipe3.on(\.tSomeFunc) { _ in
            log.append("pipe3 _ no state.")
            return nil
        }
        try pipe2.append(pipe3)

        for state: ActionState in [1, 10, 4, 16, 0, ActionState(1 << 40)] {
            pipe1.with(state: state).tSomeFunc(0, nil)
            #expect(log.take().last == "pipe3 _ no state.", "state \(state)")
        }
        pipe1.tSomeFunc(0, nil)
        #expect(log.take() == ["pipe1 _ state 1.", "pipe1 _ state 10.", "pipe3 _ no state."])
    }

    @Test("State matching is bitwise: call & handler != 0")
    func stateMatchingIsBitwise() throws {
        let log = Log()
        let (pipe1, _) = try example5(log: log)  // 1 = 0b0001, 10 = 0b1010
        pipe1.with(state: 2).tSomeFunc(0, nil)
        #expect(log.take() == ["pipe1 _ state 10."])
        pipe1.with(state: 8).tSomeFunc(0, nil)
        #expect(log.take() == ["pipe1 _ state 10."])
        pipe1.with(state: 4).tSomeFunc(0, nil)
        #expect(log.take() == [])
        pipe1.with(state: 5).tSomeFunc(0, nil)
        #expect(log.take() == ["pipe1 _ state 1."])
        pipe1.with(state: 0b1111).tSomeFunc(0, nil)
        #expect(log.take() == ["pipe1 _ state 1.", "pipe1 _ state 10."])
        // A call with the empty state meets no handler state.
        pipe1.with(state: 0).tSomeFunc(0, nil)
        #expect(log.take() == [])
    }

    @Test("Named states have the original's values: start 1, process 2, success 4, error 8, end 16")
    func namedStateValues() {
        #expect(ActionState.start.rawValue == 1)
        #expect(ActionState.process.rawValue == 2)
        #expect(ActionState.success.rawValue == 4)
        #expect(ActionState.error.rawValue == 8)
        #expect(ActionState.end.rawValue == 16)
        #expect(ActionState(10) == [.process, .error])
        #expect(ActionState(rawValue: 10) == ActionState(10))
        let literal: ActionState = 10
        #expect(literal == ActionState(10))
        #expect(ActionState([.start, .success]).rawValue == 5)
    }

    @Test("Named states select handlers: start → success flow")
    func namedStatesSelectHandlers() throws {
        let pipes = try makeChain("p1", "p2", "p3")
        pipes[0].on(\.tLoad).state(.start).handle { _ in "started" }
        pipes[1].on(\.tLoad).state(.success).handle { _ in "succeeded" }
        pipes[2].on(\.tLoad).state([.success, .error]).handle { process in
            "\(process.upstream ?? "-") then finished"
        }
        #expect(pipes[2].with(state: .start).tLoad("x") == "started")
        #expect(pipes[0].with(state: .success).tLoad("x") == "succeeded then finished")
        #expect(pipes[0].with(state: .error).tLoad("x") == "- then finished")
        #expect(pipes[0].with(state: .end).tLoad("x") == nil)
        #expect(pipes[0].tLoad("x") == "succeeded then finished")
    }

    @Test("runs(in:)")
    func runsIn() {
        #expect(!ActionState(10).runs(in: 1))
        #expect(ActionState(10).runs(in: 11))
        #expect(ActionState(10).runs(in: 2))
        #expect(ActionState.start.runs(in: [.start, .end]))
        #expect(!ActionState.start.runs(in: []))
    }

    @Test("State descriptions: a named state by name, others by number and bit names")
    func stateDescriptions() {
        #expect(ActionState.start.description == "start")
        #expect(ActionState.process.description == "process")
        #expect(ActionState.success.description == "success")
        #expect(ActionState.error.description == "error")
        #expect(ActionState.end.description == "end")
        #expect(ActionState([.start, .error]).description == "9 (start|error)")
        #expect(ActionState([.start, .success]).description == "5 (start|success)")
        #expect(ActionState(10).description == "10 (process|error)")
        #expect(ActionState(31).description == "31 (start|process|success|error|end)")
        #expect(ActionState(rawValue: 1 << 8).description == "256")
        #expect(ActionState(33).description == "33")
        #expect(ActionState(0).description == "0")
    }

    @Test("The process knows the state of the call; nil for a plain call")
    func processKnowsTheState() {
        let pipe = ActionPipe(name: "p")
        pipe.on(\.tLoad) { process in process.state.map { "\($0)" } ?? "plain" }
        #expect(pipe.tLoad("x") == "plain")
        #expect(pipe.with(state: .success).tLoad("x") == "success")
        #expect(pipe.tLoad.with(state: [.start, .end])("x") == "17 (start|end)")
    }

    @Test("Call options combine in either order: state and side data")
    func callOptionsCombine() {
        let pipe = ActionPipe(name: "p")
        pipe.on(\.tLoad).state(.start).handle { process in
            "\(process.state.map { "\($0)" } ?? "plain") \(process.sideData[Keys.label] ?? "none")"
        }
        #expect(pipe.with(state: .start).with(Keys.label, "a").tLoad("x") == "start a")
        #expect(pipe.with(Keys.label, "b").with(state: .start).tLoad("x") == "start b")
        #expect(pipe.tLoad.with(Keys.label, "c").with(state: .start)("x") == "start c")
        #expect(pipe.with(Keys.label, "d").with(state: .end).tLoad("x") == nil)
        #expect(pipe.with(Keys.label, "e").tLoad("x") == "plain e")
        // The later state wins.
        #expect(pipe.with(state: .end).with(state: .start).tLoad("x") == "start none")
    }
}
