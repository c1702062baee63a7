import ActionPipe
import Testing

@Suite("answer: a call whose chain must answer returns the result, or throws")
struct AnswerTests {
    @Test("A sync answer is the last handler's result, not an optional")
    func syncAnswers() throws {
        let head = ActionPipe(name: "head")
        let tail = ActionPipe(name: "tail")
        try head.append(tail)
        head.on(\.tPing).handle { $0.arguments + 1 }
        tail.on(\.tPing).handle { ($0.upstream ?? 0) * 10 }
        let value: Int = try head.tPing.answer(4)
        #expect(value == 50)
    }

    @Test(
        "No handler, every handler skipped, or a nil answer: UnansweredActionError names the call")
    func syncUnanswered() throws {
        let head = ActionPipe(name: "head")
        let tail = ActionPipe(name: "tail")
        try head.append(tail)
        #expect(
            throws: UnansweredActionError(
                action: "tPing", arguments: ["4"], chain: ["head", "tail"])
        ) {
            try head.tPing.answer(4)
        }
        tail.on(\.tPing).when("large") { $0.arguments > 100 }.handle { $0.arguments }
        #expect(throws: UnansweredActionError.self) { try tail.tPing.answer(4) }
        #expect(try tail.tPing.answer(101) == 101)

        // A nil answer of an optional result is no answer; a non-nil one is kept as is.
        head.on(\.tOptional).handle { $0.arguments > 0 ? "yes" : nil }
        #expect(throws: UnansweredActionError.self) { try head.tOptional.answer(0) }
        #expect(try head.tOptional.answer(1) == "yes")

        let error = UnansweredActionError(
            action: "tWords", arguments: ["\"a\"", "\"b\""], chain: ["p"])
        #expect(
            error.description.hasPrefix("tWords(\"a\", \"b\"): no handler answered in the chain p:")
        )
    }

    @Test("A throwing answer throws the handler's error unchanged, or UnansweredActionError")
    func throwingAnswers() throws {
        let pipe = ActionPipe(name: "parser")
        #expect(throws: UnansweredActionError.self) { try pipe.ttParse.answer("1") }
        pipe.on(\.ttParse).handle { (process) throws(TTFailure) in
            guard let number = Int(process.arguments) else { throw .notANumber(process.arguments) }
            return number
        }
        #expect(try pipe.ttParse.answer("42") == 42)
        #expect(throws: TTFailure.notANumber("x")) { try pipe.ttParse.answer("x") }
    }

    @Test("An async answer awaits the chain, and throws UnansweredActionError when none answered")
    func asyncAnswers() async throws {
        let pipe = ActionPipe(name: "loader")
        await #expect(throws: UnansweredActionError.self) { try await pipe.taStep.answer(1) }
        pipe.on(\.taStep).handle { process in
            await Task.yield()
            return process.arguments * 3
        }
        #expect(try await pipe.taStep.answer(2) == 6)
    }

    @Test("A throwing action's report keeps the handler's error at its own type")
    func typedReport() throws {
        let pipe = ActionPipe(name: "parser")
        pipe.on(\.ttParse).handle { (process) throws(TTFailure) in
            guard let number = Int(process.arguments) else { throw .notANumber(process.arguments) }
            return number
        }
        let failed = pipe.ttParse.report("forty-two")
        let failure: TTFailure? = failed.failure
        #expect(failure == .notANumber("forty-two"))
        #expect(failed.thrownBy == "parser")
        #expect(failed.error as? TTFailure == .notANumber("forty-two"))
        #expect(failed.value == nil)

        let passed = pipe.ttParse.report("7")
        #expect(passed.failure == nil)
        #expect(passed.value == 7)
        #expect(passed.report.runCount == 1)
    }
}
