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
    private let jobs = TestLock<[@Sendable () -> Void]>([])
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
        let outer = TestLock<[Diagnostic.Kind]>([])
        let inner = TestLock<[Diagnostic.Kind]>([])
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

    @Test(
        "An async scope receives what its task reports across suspensions, and what its child and unstructured tasks report; not a detached task's"
    )
    func asyncScope() async {
        TestDiagnostics.install()
        let bus = EventBus(name: "diag")
        let name = "async-scope-\(UInt64.random(in: 0...UInt64.max))"
        bus.subscribe(diagEvents, name: name, on: .custom { job in job() }) { _ in
            throw DiagFailure()
        }
        let scoped = TestLock<Int>(0)
        var innerSync: [Diagnostic] = []
        let countInScope: @Sendable (Diagnostic) -> Void = { _ in scoped.withLock { $0 += 1 } }
        await Diagnostics.withHandler(countInScope) {
            await Task.yield()
            bus.publish(DiagEvent())  // the scope's own task, after a suspension
            async let child = bus.publish(DiagEvent())
            _ = await child
            _ = await Task { bus.publish(DiagEvent()) }.value
            // A detached task inherits no scope: to the process-wide handler.
            _ = await Task.detached { bus.publish(DiagEvent()) }.value
            // The innermost scope receives.
            innerSync = Diagnostics.record { _ = bus.publish(DiagEvent()) }
        }
        bus.publish(DiagEvent())  // after the scope: to the process-wide handler
        #expect(scoped.withLock { $0 } == 3)
        #expect(innerSync.map(\.kind) == [.handlerErrorDropped])
        let processWide = TestDiagnostics.recorded(.handlerErrorDropped).filter {
            $0.message.contains(name)
        }
        #expect(processWide.count == 2)
    }

    @Test("Async scopes nest; record(_:) collects what async code and its tasks report")
    func asyncScopesNest() async {
        let bus = EventBus(name: "diag")
        bus.subscribe(diagEvents, name: "inline", on: .custom { job in job() }) { _ in
            throw DiagFailure()
        }
        let outer = TestLock<Int>(0)
        var inner: [Diagnostic] = []
        let countOuter: @Sendable (Diagnostic) -> Void = { _ in outer.withLock { $0 += 1 } }
        await Diagnostics.withHandler(countOuter) {
            inner = await Diagnostics.record {
                await Task.yield()
                bus.publish(DiagEvent())
                _ = await Task { bus.publish(DiagEvent()) }.value
            }
            bus.publish(DiagEvent())  // the inner scope has ended
        }
        #expect(inner.count == 2)
        #expect(inner.allSatisfy { $0.error as? DiagFailure == DiagFailure() })
        #expect(outer.withLock { $0 } == 1)
    }

    @Test(
        "A job the .task executor starts inside an async scope reports to that scope",
        .hangBound)
    func taskExecutorInheritsTheScope() async {
        let bus = EventBus(name: "diag")
        bus.subscribe(diagEvents, name: "task", on: .task) { _ in throw DiagFailure() }
        let (reported, report) = AsyncStream.makeStream(of: Diagnostic.self)
        let send: @Sendable (Diagnostic) -> Void = { report.yield($0) }
        await Diagnostics.withHandler(send) {
            bus.publish(DiagEvent())
            var received = reported.makeAsyncIterator()
            let first = await received.next()
            #expect(first?.kind == .handlerErrorDropped)
            #expect(first?.message.contains("'task'") == true)
        }
    }

    @Test("A diagnostic describes itself with its kind and message")
    func description() {
        let diagnostic = Diagnostic(.handlerErrorDropped, "it threw")
        #expect(diagnostic.description == "ActionPipe handlerErrorDropped: it threw")
        #expect(diagnostic.error == nil)
    }
}
