import ActionPipe
import Testing

extension Actions {
    /// A synchronous action whose first handler is a main-actor one.
    var cmaTitle: Action<Int, String> { .init() }
    /// An async action whose handler is a main-actor one.
    var cmaFetch: AsyncAction<Int, String> { .init() }
    /// A throwing action whose handler is a main-actor one.
    var cmaValidate: ThrowingAction<String, String, CMAFormError> { .init() }
}

/// The typed error of `cmaValidate`.
enum CMAFormError: Error, Equatable { case empty }

/// A view model as an app has one: main-actor state, changed by the handlers directly (no
/// `MainActor.assumeIsolated`: that this file compiles is half of what it tests).
@MainActor
private final class CoreViewModel {
    var title = ""
    var log: [String] = []
}

/// Handlers `handle(on: .mainActor)`: `@MainActor` bodies, checked by the compiler.
@Suite("Core: handlers on the main actor (handle(on: .mainActor))")
struct CoreMainActorTests {
    /// A screen pipe with a main-actor handler, followed by a plain fallback handler that
    /// passes the upstream value on (or "no title").
    @MainActor
    private static func chain(_ model: CoreViewModel) throws -> (ActionPipe, ActionPipe) {
        let screen = ActionPipe(name: "screen")
        let fallback = ActionPipe(name: "fallback")
        screen.on(\.cmaTitle).handle(on: .mainActor) { process in
            model.title = "Item \(process.arguments)"
            model.log.append("screen \(process.arguments)")
            return model.title
        }
        fallback.on(\.cmaTitle).handle { process in process.upstream ?? "no title" }
        try screen.append(fallback)
        return (screen, fallback)
    }

    @Test("sync: called on the main actor, the handler runs at once and its result is returned")
    @MainActor
    func syncOnMainActor() throws {
        let model = CoreViewModel()
        let pipe = ActionPipe(name: "screen")
        pipe.on(\.cmaTitle).handle(on: .mainActor) { process in
            model.title = "Item \(process.arguments)"
            return model.title
        }
        #expect(pipe.cmaTitle(7) == "Item 7")
        // Synchronous: the view model changed before the call returned.
        #expect(model.title == "Item 7")
        let report = pipe.cmaTitle.report(8)
        #expect(report.value == "Item 8")
        #expect(report.trace.steps.map(\.outcome) == [.ran])
    }

    @Test("sync: on the main actor, the next handler gets the main-actor handler's result")
    @MainActor
    func syncChainOnMainActor() throws {
        let model = CoreViewModel()
        let (_, fallback) = try Self.chain(model)
        let report = fallback.cmaTitle.report(3)
        #expect(report.value == "Item 3")
        #expect(report.trace.steps.map(\.outcome) == [.ran, .ran])
        #expect(model.log == ["screen 3"])
    }

    @Test("sync: called off the main actor, the handler is skipped (traced), the call goes on")
    @MainActor
    func syncOffMainActorSkips() async throws {
        let model = CoreViewModel()
        let (_, fallback) = try Self.chain(model)
        let (plain, report) = await Task.detached {
            (fallback.cmaTitle(4), fallback.cmaTitle.report(5))
        }.value
        #expect(plain == "no title")
        #expect(report.value == "no title")
        #expect(report.runCount == 1)
        #expect(
            report.trace.steps.map(\.outcome) == [.skipped(.notOnMainActor), .ran])
        #expect(report.trace.description.contains("not on the main actor"))
        #expect(model.log.isEmpty)
        #expect(model.title == "")
    }

    @Test("sync: an owner form runs with its main-actor owner, or is skipped off the main actor")
    @MainActor
    func syncOwner() async {
        let model = CoreViewModel()
        let pipe = ActionPipe(name: "owned")
        pipe.on(\.cmaTitle).handle(owner: model, on: .mainActor) { model, process in
            model.log.append("owner \(process.arguments)")
            return "owned \(process.arguments)"
        }
        #expect(pipe.cmaTitle(1) == "owned 1")
        let report = await Task.detached { pipe.cmaTitle.report(2) }.value
        #expect(report.value == nil)
        #expect(report.trace.steps.map(\.outcome) == [.skipped(.notOnMainActor)])
        #expect(model.log == ["owner 1"])
    }

    @Test("throwing: on the main actor the handler runs and its typed error reaches the caller")
    @MainActor
    func throwingOnMainActor() async throws {
        let model = CoreViewModel()
        let form = ActionPipe(name: "form")
        let fallback = ActionPipe(name: "fallback")
        form.on(\.cmaValidate).handle(on: .mainActor) { (process) throws(CMAFormError) in
            guard !process.arguments.isEmpty else {
                model.log.append("empty")
                throw .empty
            }
            model.title = process.arguments
            return process.arguments
        }
        fallback.on(\.cmaValidate).handle { process in process.upstream ?? "unchecked" }
        try form.append(fallback)
        #expect(try fallback.cmaValidate("Ada") == "Ada")
        #expect(model.title == "Ada")
        #expect(throws: CMAFormError.empty) { try fallback.cmaValidate("") }
        #expect(model.log == ["empty"])
        // Off the main actor the handler is skipped, never run, and the call goes on.
        let (value, report) = await Task.detached {
            (try? fallback.cmaValidate(""), fallback.cmaValidate.report("Bob"))
        }.value
        #expect(value == "unchecked")
        #expect(report.trace.steps.map(\.outcome) == [.skipped(.notOnMainActor), .ran])
        #expect(model.log == ["empty"])
        #expect(model.title == "Ada")
    }

    @Test("throwing: the owner form runs with its owner on the main actor, skipped once gone")
    @MainActor
    func throwingOwner() async throws {
        var model: CoreViewModel? = CoreViewModel()
        weak let weakModel = model
        let pipe = ActionPipe(name: "owned form")
        pipe.on(\.cmaValidate).handle(owner: model!, on: .mainActor) {
            (model, process) throws(CMAFormError) in
            guard !process.arguments.isEmpty else { throw .empty }
            model.log.append(process.arguments)
            return "owned \(process.arguments)"
        }
        #expect(try pipe.cmaValidate("x") == "owned x")
        #expect(throws: CMAFormError.empty) { try pipe.cmaValidate("") }
        let offMain = await Task.detached { pipe.cmaValidate.report("y") }.value
        #expect(offMain.trace.steps.map(\.outcome) == [.skipped(.notOnMainActor)])
        #expect(model?.log == ["x"])
        model = nil
        #expect(weakModel == nil)
        let gone = pipe.cmaValidate.report("z")
        #expect(gone.trace.steps.map(\.outcome) == [.skipped(.targetReleased)])
    }

    @Test("async: called from a background task, the handler runs on the main actor")
    func asyncFromBackground() async throws {
        let model = CoreViewModel()
        let pipe = ActionPipe(name: "loader")
        pipe.on(\.cmaFetch).handle(on: .mainActor) { process in
            MainActor.assertIsolated()
            model.log.append("fetch \(process.arguments)")
            await Task.yield()
            MainActor.assertIsolated()
            model.title = "Document \(process.arguments)"
            return model.title
        }
        let result = try await Task.detached { try await pipe.cmaFetch(4) }.value
        #expect(result == "Document 4")
        #expect(await model.title == "Document 4")
        #expect(await model.log == ["fetch 4"])
        let report = await Task.detached { await pipe.cmaFetch.report(5) }.value
        #expect(report.value == "Document 5")
        #expect(report.trace.steps.map(\.outcome) == [.ran])
    }

    @Test("async: called on the main actor, the handler runs there too")
    @MainActor
    func asyncOnMainActor() async throws {
        let model = CoreViewModel()
        let pipe = ActionPipe(name: "loader")
        pipe.on(\.cmaFetch).handle(on: .mainActor) { process in
            model.title = "Document \(process.arguments)"
            return model.title
        }
        #expect(try await pipe.cmaFetch(6) == "Document 6")
        #expect(model.title == "Document 6")
    }

    @Test("async: the owner form hands the main-actor owner to the handler, on the main actor")
    func asyncOwner() async throws {
        let model = CoreViewModel()
        let pipe = ActionPipe(name: "loader")
        pipe.on(\.cmaFetch).handle(owner: model, on: .mainActor) { model, process in
            MainActor.assertIsolated()
            model.log.append("owner \(process.arguments)")
            return "owned \(process.arguments)"
        }
        let result = try await Task.detached { try await pipe.cmaFetch(9) }.value
        #expect(result == "owned 9")
        #expect(await model.log == ["owner 9"])
    }
}
