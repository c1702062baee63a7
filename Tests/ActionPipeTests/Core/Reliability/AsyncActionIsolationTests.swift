import ActionPipe
import Testing

/// Where an async call and its handlers run: on the caller's actor, without hopping off
/// it (the call and the handlers are `nonisolated(nonsending)`).
@Suite("Async actions: a call runs on its caller's actor")
struct AsyncActionIsolationTests {
    /// Records, per handler, whether it ran on the main actor.
    private final class Isolations: Sendable {
        let seen = TestLock<[String]>([])

        func record(_ name: String, _ isolation: (any Actor)?) {
            let place =
                isolation === MainActor.shared ? "main" : (isolation == nil ? "none" : "other")
            seen.withLock { $0.append("\(name) \(place)") }
        }

        var value: [String] { seen.withLock { $0 } }

        let trigger = TestLock<ActionTrigger<ActionKind.Async, Int, Int>?>(nil)

        func keep(_ trigger: ActionTrigger<ActionKind.Async, Int, Int>) {
            self.trigger.withLock { $0 = trigger }
        }
    }

    private func chain(_ isolations: Isolations) throws -> ActionPipe {
        let pipes = try makeChain("p1", "p2", "p3")
        pipes[0].on(\.taWork) { process in
            isolations.record("p1", #isolation)
            return process.arguments
        }
        pipes[1].on(\.taWork) { process in
            isolations.record("p2", #isolation)
            if process.state == nil { isolations.keep(process.trigger) }
            return process.upstream
        }
        pipes[2].on(\.taWork) { process in
            await Task.yield()  // a suspension does not move the call off the caller's actor
            isolations.record("p3", #isolation)
            return process.upstream
        }
        return pipes[0]
    }

    @Test("Called from the main actor, every handler without an actor of its own runs there")
    @MainActor
    func fromTheMainActor() async throws {
        let isolations = Isolations()
        let head = try chain(isolations)
        #expect(try await head.taWork(4) == 4)
        #expect(isolations.value == ["p1 main", "p2 main", "p3 main"])
        let report = await head.taWork.report(5)
        #expect(report.value == 5)
        #expect(isolations.value.suffix(3) == ["p1 main", "p2 main", "p3 main"])
    }

    @Test("Called from a task with no actor, the handlers run with no actor either")
    func fromNoActor() async throws {
        let isolations = Isolations()
        let head = try chain(isolations)
        let value = try await Task.detached { try await head.taWork(6) }.value
        #expect(value == 6)
        #expect(isolations.value == ["p1 none", "p2 none", "p3 none"])
    }

    @Test("A trigger's call also stays on the caller's actor")
    @MainActor
    func triggerFromTheMainActor() async throws {
        let isolations = Isolations()
        let head = try chain(isolations)
        _ = try await Task.detached { try await head.taWork(7) }.value
        let trigger = try #require(isolations.trigger.withLock { $0 })
        #expect(try await trigger.call(state: .success, 8) == 8)
        #expect(isolations.value.suffix(3) == ["p1 main", "p2 main", "p3 main"])
    }
}
