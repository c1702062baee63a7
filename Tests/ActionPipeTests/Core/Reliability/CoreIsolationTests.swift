import ActionPipe
import Testing

/// Main-actor state, as a view would hold it.
@MainActor
private final class Screen {
    var shown: [String] = []

    func show(_ line: String) {
        MainActor.assertIsolated()
        shown.append(line)
    }
}

/// A counter only the main actor may touch.
@MainActor private var mainActorRuns = 0

/// A global actor of the tests' own, for handlers that are isolated to it.
@globalActor
private actor StorageActor {
    static let shared = StorageActor()
}

/// State only `StorageActor` may touch.
@StorageActor private var storedLines: [String] = []

@StorageActor
private func storedLinesSnapshot() -> [String] { storedLines }

/// An actor used as a handler's target.
private actor TitleCache {
    private var titles: [Int: String] = [:]
    private(set) var lookups = 0

    func title(for id: Int) -> String? {
        lookups += 1
        return titles[id]
    }

    func store(_ title: String, for id: Int) { titles[id] = title }
}

@Suite("Isolation: handlers isolated to the main actor, to actors and to global actors")
struct CoreIsolationTests {
    @Test("A @MainActor handler runs on the main actor; the handlers around it do not need it")
    func mainActorHandler() async throws {
        let pipes = try makeChain("p1", "main", "p3")
        let before = await MainActor.run { mainActorRuns }
        pipes[0].on(\.taIsolated) { process in ["p1 \(process.arguments)"] }
        pipes[1].on(\.taIsolated).handle { @MainActor process in
            MainActor.assertIsolated()
            mainActorRuns += 1  // main-actor state, mutated without a hop
            return (process.upstream ?? []) + ["main run \(mainActorRuns - before)"]
        }
        pipes[2].on(\.taIsolated) { process in
            await Task.yield()
            return (process.upstream ?? []) + ["p3"]
        }

        #expect(try await pipes[2].taIsolated(0) == ["p1 0", "main run 1", "p3"])
        #expect(try await pipes[0].taIsolated(1) == ["p1 1", "main run 2", "p3"])
        #expect(await MainActor.run { mainActorRuns } == before + 2)
    }

    @Test("Called from the main actor: the chain result is the same and main state is updated")
    @MainActor
    func callFromTheMainActor() async throws {
        let pipes = try makeChain("p1", "main", "p3")
        let screen = Screen()
        pipes[0].on(\.taIsolated) { process in
            await Task.yield()
            return ["p1(\(process.arguments))"]
        }
        pipes[1].on(\.taIsolated).handle { @MainActor process in
            screen.show("loading \(process.arguments)")
            return (process.upstream ?? []) + ["screen updated"]
        }
        pipes[2].on(\.taIsolated) { process in
            (process.upstream ?? []) + ["p3 sees \(process.upstream?.count ?? 0) lines"]
        }

        let lines = try await pipes[0].taIsolated(7)
        #expect(lines == ["p1(7)", "screen updated", "p3 sees 2 lines"])
        #expect(screen.shown == ["loading 7"])
    }

    @Test("An actor as the target: the handler awaits the actor's methods")
    func actorTarget() async throws {
        let pipes = try makeChain("cache", "server")
        let cache = TitleCache()
        let fetches = TACounter()
        pipes[0].on(\.taInner).handle(owner: cache) { cache, process in
            await cache.title(for: process.arguments)
        }
        pipes[1].on(\.taInner).handle(owner: cache) { cache, process in
            if let cached = process.upstream { return cached }
            await fetches.increment()
            let title = "Document \(process.arguments)"
            await cache.store(title, for: process.arguments)
            return title
        }

        #expect(try await pipes[1].taInner(1) == "Document 1")
        #expect(try await pipes[0].taInner(1) == "Document 1")
        #expect(try await pipes[0].taInner(2) == "Document 2")
        #expect(await fetches.value == 2, "the second call for 1 was answered by the cache")
        #expect(await cache.lookups == 3)
    }

    @Test("A weakly held actor target is skipped once released")
    func releasedActorTarget() async throws {
        let pipes = try makeChain("cache", "fallback")
        weak var weakCache: TitleCache?
        do {
            let cache = TitleCache()
            weakCache = cache
            await cache.store("cached", for: 1)
            pipes[0].on(\.taInner).handle(owner: cache) { cache, process in
                await cache.title(for: process.arguments)
            }
            pipes[1].on(\.taInner) { process in process.upstream ?? "fallback" }
            #expect(try await pipes[0].taInner(1) == "cached")
        }
        #expect(weakCache == nil)
        let report = await pipes[0].taInner.report(1)
        #expect(report.value == "fallback")
        #expect(report.trace.steps.map(\.outcome) == [.skipped(.targetReleased), .ran])
    }

    @Test("A @MainActor class as the target, with an isolated and a hopping handler")
    func mainActorClassTarget() async throws {
        let pipes = try makeChain("isolated", "hopping")
        let screen = await MainActor.run { Screen() }
        pipes[0].on(\.taIsolated).handle(owner: screen) { @MainActor screen, process in
            MainActor.assertIsolated()
            screen.show("isolated \(process.arguments)")
            return ["isolated saw \(screen.shown.count)"]
        }
        pipes[1].on(\.taIsolated).handle(owner: screen) { screen, process in
            await screen.show("hopping \(process.arguments)")
            return (process.upstream ?? []) + ["hopping saw \(await screen.shown.count)"]
        }

        let lines = try await pipes[1].taIsolated(3)
        #expect(lines == ["isolated saw 1", "hopping saw 2"])
        #expect(await screen.shown == ["isolated 3", "hopping 3"])
    }

    @Test("A handler isolated to a custom global actor runs on that actor")
    func customGlobalActor() async throws {
        let pipes = try makeChain("p1", "storage")
        pipes[0].on(\.taIsolated) { process in ["p1 \(process.arguments)"] }
        pipes[1].on(\.taIsolated).handle { @StorageActor process in
            StorageActor.shared.assertIsolated()
            storedLines.append("stored \(process.arguments)")
            return (process.upstream ?? []) + ["stored \(storedLines.count)"]
        }

        #expect(try await pipes[0].taIsolated(1) == ["p1 1", "stored 1"])
        #expect(try await pipes[1].taIsolated(2) == ["p1 2", "stored 2"])
        #expect(await storedLinesSnapshot() == ["stored 1", "stored 2"])
    }

    @Test("Across isolations, upstream, side data, rewrites, stop and errors still flow")
    func mixedIsolationChain() async throws {
        let pipes = try makeChain("plain", "main", "global", "actor", "last")
        let cache = TitleCache()
        pipes[0].on(\.taPair) { process in
            process.sideData[Keys.label] = "from plain"
            process.rewrite(\.1, to: "rewritten by plain")
            return "plain"
        }
        pipes[1].on(\.taPair).handle { @MainActor process in
            MainActor.assertIsolated()
            process.sideData[Keys.counter] = 1
            return "\(process.upstream ?? "-") > main(\(process.arguments.1 ?? "nil"))"
        }
        pipes[2].on(\.taPair).handle { @StorageActor process in
            StorageActor.shared.assertIsolated()
            let label = process.sideData[Keys.label] ?? "none"
            if process.arguments.0 < 0 { throw TAError(code: process.arguments.0) }
            if process.arguments.0 == 0 { process.stop() }
            process.sideData[Keys.counter] = (process.sideData[Keys.counter] ?? 0) + 1
            return "\(process.upstream ?? "-") > global(\(label))"
        }
        pipes[3].on(\.taPair).handle(owner: cache) { cache, process in
            await cache.store(process.upstream ?? "", for: process.arguments.0)
            return "\(process.upstream ?? "-") > actor(\(process.sideData[Keys.counter] ?? 0))"
        }
        pipes[4].on(\.taPair).handle { @MainActor process in
            "\(process.upstream ?? "-") > last"
        }

        #expect(
            try await pipes[4].taPair(5, "original")
                == "plain > main(rewritten by plain) > global(from plain) > actor(2) > last")
        #expect(
            await cache.title(for: 5) == "plain > main(rewritten by plain) > global(from plain)")

        let stopped = await pipes[0].taPair.report(0, nil)
        #expect(stopped.value == "plain > main(rewritten by plain) > global(from plain)")
        #expect(stopped.stoppedBy == "global")
        #expect(
            stopped.trace.steps.map(\.outcome) == [
                .ran, .ran, .stopped, .skipped(.stoppedEarlier), .skipped(.stoppedEarlier),
            ])

        let failed = await pipes[0].taPair.report(-4, nil)
        #expect(failed.error as? TAError == TAError(code: -4))
        #expect(failed.thrownBy == "global")
        #expect(
            failed.trace.steps.map(\.outcome) == [
                .ran, .ran, .threw("TAError(-4)"), .skipped(.earlierHandlerThrew),
                .skipped(.earlierHandlerThrew),
            ])
    }
}
