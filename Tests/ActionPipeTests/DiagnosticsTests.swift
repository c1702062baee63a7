import ActionPipe
import Synchronization
import Testing

extension Actions {
    // Actions named like members of ActionPipe: `pipe.name` is the member.
    fileprivate var name: Action<Int, Int> { .init() }
    fileprivate var append: Action<String, String> { .init() }
    fileprivate var diagPlain: Action<Int, Int> { .init() }
    fileprivate var register: Action<Int, Int> { .init() }
    fileprivate var chainNames: Action<Int, Int> { .init() }
}

private struct DiagFailure: Error, Equatable {}
private struct DiagEvent: BusEvent {}
private let diagEvents = BusTopic(DiagEvent.self)

/// What `body` reports.
private func diagnostics(of body: () -> Void) -> [Diagnostic] {
    Diagnostics.record(body)
}

/// A job queue the test runs by hand.
private final class ManualQueue: Sendable {
    private let jobs = Mutex<[@Sendable () -> Void]>([])
    var executor: BusExecutor {
        .custom { [self] job in jobs.withLock { $0.append(job) } }
    }
    func runAll() {
        let taken = jobs.withLock { jobs in
            defer { jobs = [] }
            return jobs
        }
        for job in taken { job() }
    }
}

@Suite("Diagnostics: one channel for misuse and dropped errors")
struct DiagnosticsTests {
    @Test(
        "An action named like a member of ActionPipe is reported once, and callable with pipe[action:]"
    )
    func shadowedActionIsReported() {
        let pipe = ActionPipe(name: "p")
        let reported = diagnostics {
            pipe.on(\.name) { process in process.arguments * 2 }
            pipe.on(\.name) { process in process.arguments * 3 }  // registered before: quiet
            pipe.on(\.append) { process in process.arguments + "!" }
            pipe.on(\.diagPlain) { process in process.arguments }
        }
        let shadowed = reported.filter { $0.kind == .actionShadowed }
        #expect(shadowed.count == 2)
        #expect(shadowed.contains { $0.message.contains("'name'") })
        #expect(shadowed.contains { $0.message.contains("'append'") })
        #expect(pipe.name == "p")  // the member
        #expect(pipe[action: \.name](2) == 6)  // the action
        #expect(pipe[action: \.append]("hi") == "hi!")
    }

    @Test("Every listed member name of ActionPipe is reported, and an ordinary name is not")
    func memberNamesAreTheAPI() {
        // The names a dynamic member can never reach: each is a member of ActionPipe (the
        // pipe below uses every one, so a rename breaks this test's compilation).
        let pipe = ActionPipe(name: "p")
        let other = ActionPipe(name: "q")
        _ = pipe.name
        _ = pipe.description
        _ = pipe.on(\.diagPlain) { _ in nil }
        _ = pipe.handles(\.diagPlain)
        _ = pipe.chainHandles(\.diagPlain)
        _ = pipe.removeHandler(for: \.diagPlain)
        _ = try? pipe.append(other)
        pipe.removeFromChain()
        _ = pipe.isInSameChain(as: other)
        _ = pipe.chainNames
        _ = pipe.with(state: .start)
        #expect(
            ActionPipe._memberNames
                == [
                    "name", "description", "on", "handles", "chainHandles", "removeHandler",
                    "append", "removeFromChain", "isInSameChain", "chainNames", "register",
                    "with",
                ])
        #expect(diagnostics { pipe.on(\.diagPlain) { _ in nil } }.isEmpty)
    }

    @Test("A subscriber run on an executor that throws is reported, not dropped")
    func executorErrorIsReported() {
        let bus = EventBus(name: "diag")
        let queue = ManualQueue()
        bus.subscribe(diagEvents, name: "failing", on: queue.executor) { _ in
            throw DiagFailure()
        }
        bus.publish(DiagEvent())
        let reported = diagnostics { queue.runAll() }
        #expect(reported.count == 1)
        #expect(reported.first?.kind == .handlerErrorDropped)
        #expect(reported.first?.error as? DiagFailure == DiagFailure())
        #expect(reported.first?.message.contains("'failing'") == true)
    }

    @Test("A union subscriber run on an executor that throws is reported, not dropped")
    func unionExecutorErrorIsReported() {
        let bus = EventBus(name: "diag")
        let queue = ManualQueue()
        bus.subscribe(anyOf: [diagEvents.key], name: "union", on: queue.executor) { _ in
            throw DiagFailure()
        }
        bus.publish(DiagEvent())
        let reported = diagnostics { queue.runAll() }
        #expect(reported.map(\.kind) == [.handlerErrorDropped])
        #expect(reported.first?.error as? DiagFailure == DiagFailure())
    }

    @Test("A scoped handler sees only its own scope; nested scopes replace, then restore")
    func scopesNest() {
        let outer = Mutex<[Diagnostic.Kind]>([])
        let inner = Mutex<[Diagnostic.Kind]>([])
        let pipe = ActionPipe(name: "p")
        Diagnostics.withHandler(
            { d in outer.withLock { $0.append(d.kind) } },
            operation: {
                Diagnostics.withHandler(
                    { d in inner.withLock { $0.append(d.kind) } },
                    operation: { pipe.on(\.register) { _ in nil } })
                pipe.on(\.chainNames) { _ in nil }
            })
        #expect(inner.withLock { $0 } == [.actionShadowed])
        #expect(outer.withLock { $0 } == [.actionShadowed])
    }

    @Test("A diagnostic describes itself with its kind and message")
    func description() {
        let diagnostic = Diagnostic(.handlerErrorDropped, "it threw")
        #expect(diagnostic.description == "ActionPipe handlerErrorDropped: it threw")
        #expect(diagnostic.error == nil)
    }
}
