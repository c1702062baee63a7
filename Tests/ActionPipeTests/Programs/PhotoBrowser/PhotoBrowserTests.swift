import ActionPipe
import ActionPipeTesting
import Testing

/// The photo browser driven as a user would: sign in, wait for the slow API, retry, search,
/// like, share, leave the screen, sign out. Every wait is the library's: the test clock's
/// sleepers, the load task, recorders and `MainActorDeliveries.drain()`.
@Suite("Photo browser: a UI layer on the main actor")
@MainActor
struct PhotoBrowserTests {
    /// A screen on `app`, shown, with its initial renders drained and discarded.
    private func screen(on app: PhotoApp) async -> PhotoAlbumsViewModel {
        let model = PhotoAlbumsViewModel(app: app, view: PhotoAlbumsView())
        model.appear()
        await MainActorDeliveries.drain()
        _ = model.view.takeLog()
        return model
    }

    /// Answers the album list request, then the three thumbnail requests, and waits until
    /// the view has caught up with the store.
    private func answerRequests(_ app: PhotoApp, thumbnails: Bool = true) async {
        // The list, then one thumbnail per album.
        await app.clock.run(sleeps: thumbnails ? 1 + 3 : 1)
        await app.currentLoad?.value
        await MainActorDeliveries.drain()
    }

    /// The renders caused by the store. The greeting comes from the bus on the login's
    /// thread, while the load it starts already writes from a background task: the two
    /// keep the order their writes took, which varies from run to run.
    private static func storeRenders(_ log: [String]) -> [String] {
        log.filter { !$0.hasPrefix("greeting") }
    }

    private static let allRows = [
        "Holidays [thumb-a1.jpg]", "Cats [thumb-a2.jpg]", "Mountains [thumb-a3.jpg]",
    ]

    @Test("login greets at once, shows the spinner, then the albums with their thumbnails")
    func loginShowsAlbums() async throws {
        let app = try PhotoApp()
        let model = await screen(on: app)
        app.logIn(PhotoUser(name: "ann"))
        await app.clock.waitForSleepers(1)
        await MainActorDeliveries.drain()
        #expect(model.view.greeting == "Hello, ann")
        #expect(model.view.isSpinning)
        #expect(model.view.rows.isEmpty)

        await answerRequests(app)
        #expect(model.view.rows == Self.allRows)
        #expect(!model.view.isSpinning)
        #expect(model.view.errorBanner == nil)
        #expect(await app.api.requests == 4)

        // A screen that appears later learns who is signed in from the sticky login.
        let later = await screen(on: app)
        #expect(later.view.greeting == "Hello, ann")
        #expect(later.view.rows == Self.allRows)
    }

    @Test("a failing fetch shows an error; retry clears it and shows the albums")
    func failureThenRetry() async throws {
        let app = try PhotoApp()
        await app.api.failNextAlbumRequests(1)
        let model = await screen(on: app)
        app.logIn(PhotoUser(name: "ann"))
        await answerRequests(app, thumbnails: false)
        #expect(model.view.errorBanner == "Could not load albums: offline")
        #expect(model.view.rows.isEmpty)
        #expect(!model.view.isSpinning)
        #expect(
            Self.storeRenders(model.view.takeLog()) == [
                "spinner on", "error Could not load albums: offline", "spinner off",
            ])

        model.retry()
        await answerRequests(app)
        #expect(model.view.errorBanner == nil)
        #expect(model.view.rows == Self.allRows)
        #expect(
            Self.storeRenders(model.view.takeLog()) == [
                "error none", "spinner on", "rows 1", "rows 2", "rows 3", "spinner off",
            ])
        #expect(await app.api.requests == 5)
    }

    @Test("1,000 runs: the store's five writes from a background task reach the view in order")
    func fiveWritesInOrder() async throws {
        let expected = ["spinner on", "rows 1", "rows 2", "rows 3", "spinner off"]
        var inOrder = 0
        var lastValues = 0
        for _ in 0..<1_000 {
            let app = try PhotoApp(latency: .zero)  // the loader never waits for the clock
            let model = await screen(on: app)
            app.logIn(PhotoUser(name: "ann"))
            await app.currentLoad?.value
            await MainActorDeliveries.drain()
            if Self.storeRenders(model.view.takeLog()) == expected { inOrder += 1 }
            if model.view.rows == Self.allRows, !model.view.isSpinning,
                model.view.errorBanner == nil
            {
                lastValues += 1
            }
        }
        #expect(inOrder == 1_000)
        #expect(lastValues == 1_000)
    }

    /// Starts 2,000 album writes from a background task once the clock moves, and returns
    /// when the screen has rendered the first of them: the rest race with what follows.
    private func startRacingWrites(
        _ app: PhotoApp
    ) async -> (writer: Task<Void, Never>, writes: ObservationRecorder<[PhotoAlbum]>) {
        let writes = ObservationRecorder(app.store.$albums)
        // Registered after the screen's observer, so its first delivery follows the
        // screen's first render in the one main-actor queue.
        let delivered = Recorder<Int>()
        let probe = app.store.$albums.observe(on: .mainActor) { delivered.record($0.count) }
        let writer = Task.detached { [clock = app.clock, store = app.store] in
            try? await clock.sleep(for: .seconds(1))
            for number in 1...2_000 {
                store.albums = [PhotoAlbum(id: "\(number)", title: "Album \(number)")]
            }
        }
        await app.clock.waitForSleepers(1)
        app.clock.advance(by: .seconds(1))
        _ = await delivered.waitForCount(1)
        probe.cancel()
        return (writer, writes)
    }

    @Test("a screen that disappears (tokens cancelled) gets no render while writes race")
    func disappearStopsRenders() async throws {
        for _ in 0..<20 {
            let app = try PhotoApp()
            let model = await screen(on: app)
            let (writer, writes) = await startRacingWrites(app)
            model.disappear()
            let rendered = model.view.log.count
            await writer.value
            await MainActorDeliveries.drain()
            #expect(rendered >= 1)
            #expect(model.view.log.count == rendered)  // not one render more
            #expect(writes.count == 2_000)
        }
    }

    @Test("a released screen (its view model the owner) gets no render while writes race")
    func releasedScreenStopsRenders() async throws {
        for _ in 0..<20 {
            let app = try PhotoApp()
            var model: PhotoAlbumsViewModel? = await screen(on: app)
            weak let weakModel = model
            let view = model!.view
            let (writer, writes) = await startRacingWrites(app)
            model = nil
            #expect(weakModel == nil)  // nothing the screen registered keeps it
            let rendered = view.log.count
            await writer.value
            await MainActorDeliveries.drain()
            #expect(rendered >= 1)
            #expect(view.log.count == rendered)
            #expect(writes.count == 2_000)
        }
    }

    @Test("the search field is validated by the plumber; valid text filters the albums")
    func searchValidation() async throws {
        let app = try PhotoApp()
        let model = await screen(on: app)
        app.logIn(PhotoUser(name: "ann"))
        await answerRequests(app)
        _ = model.view.takeLog()

        model.searchTextChanged("  CA ")
        await MainActorDeliveries.drain()
        #expect(model.view.rows == ["Cats [thumb-a2.jpg]"])
        #expect(model.view.searchHint == nil)

        model.searchTextChanged("m")
        await MainActorDeliveries.drain()
        #expect(model.view.searchHint == "type at least 2 characters")
        #expect(model.view.rows == ["Cats [thumb-a2.jpg]"])  // the last valid search stays

        // From a background task (a speech recogniser, say): the sink still runs on the
        // main actor, in order.
        await Task.detached { model.searchTextChanged("c@t") }.value
        await MainActorDeliveries.drain()
        #expect(model.view.searchHint == "letters and digits only")

        model.searchTextChanged("")
        await MainActorDeliveries.drain()
        #expect(model.view.rows == Self.allRows)
        #expect(
            model.view.takeLog() == [
                "hint none", "rows 1", "hint type at least 2 characters",
                "hint letters and digits only", "hint none", "rows 3",
            ])
    }

    @Test("likePhoto: the permissions pipe refuses a guest; a member's like reaches the screen")
    func likeDeniedForGuests() async throws {
        let app = try PhotoApp()
        let model = await screen(on: app)
        app.logIn(PhotoUser(name: "guest", isGuest: true))
        await answerRequests(app)

        model.like(photoID: "p1")
        #expect(model.view.likedCount == 0)
        #expect(model.view.message == "Sign in to like photos")
        let refused = app.feature.photoLikePhoto.report("p1")
        #expect(refused.value == false)
        #expect(refused.stoppedBy == "permissions")
        #expect(
            refused.trace.steps.map(\.outcome) == [.ran, .stopped, .skipped(.stoppedEarlier)])

        app.logIn(PhotoUser(name: "ann"))
        await answerRequests(app)  // the reload the login started
        model.like(photoID: "p1")
        model.like(photoID: "p2")
        #expect(model.view.likedCount == 2)
        #expect(
            app.analytics.all == ["likePhoto p1", "likePhoto p1", "likePhoto p1", "likePhoto p2"])
    }

    @Test("openAlbum runs on the main actor at once, is skipped off it; share hops there")
    func openAndShare() async throws {
        let app = try PhotoApp()
        let model = await screen(on: app)
        app.logIn(PhotoUser(name: "ann"))
        await answerRequests(app)

        model.open(albumID: "a2")
        #expect(model.view.openAlbum == "Cats")  // synchronous: shown before open returns

        // A synchronous action cannot wait for the main actor: off it, the screen's handler
        // is skipped (and traced), never run on the wrong thread.
        let report = await Task.detached { app.feature.photoOpenAlbum.report("a3") }.value
        #expect(report.value == nil)
        #expect(report.trace.skippedPipes == ["permissions", "feature"])
        #expect(report.trace.skipReason(of: "feature") == .notOnMainActor)
        #expect(model.view.openAlbum == "Cats")

        // An async action hops: called from a background task, its handler runs on the
        // main actor and the caller gets the link.
        let link = try await Task.detached { try await app.feature.photoShare("a1") }.value
        #expect(link == "https://photos.example/a1")
        #expect(model.view.shareSheet == link)
        #expect(app.analytics.all == ["openAlbum a2", "openAlbum a3", "share a1"])
    }

    @Test("logout clears the screen and the sticky login")
    func logoutClears() async throws {
        let app = try PhotoApp()
        let model = await screen(on: app)
        app.logIn(PhotoUser(name: "ann"))
        await answerRequests(app)
        model.open(albumID: "a1")
        model.searchTextChanged("x")
        await MainActorDeliveries.drain()
        #expect(model.view.rows == Self.allRows && model.view.openAlbum == "Holidays")
        #expect(model.view.searchHint != nil)

        app.logOut()
        await MainActorDeliveries.drain()
        #expect(model.view.rows.isEmpty)
        #expect(model.view.greeting == "Signed out")
        #expect(model.view.openAlbum == nil)
        #expect(model.view.searchHint == nil)
        #expect(!model.view.isSpinning && model.view.errorBanner == nil)
        #expect(app.bus.stickyEvent(for: PhotoTopics.login) == nil)

        let later = await screen(on: app)
        #expect(later.view.greeting == "")  // no login to replay
        #expect(later.view.rows.isEmpty)
    }

    @Test("logout during a load: the spinner goes, and the cancelled load writes nothing more")
    func logoutDuringLoad() async throws {
        let app = try PhotoApp()
        let model = await screen(on: app)
        let writes = ObservationRecorder(app.store.$albums)
        app.logIn(PhotoUser(name: "ann"))
        await app.clock.waitForSleepers(1)  // the album list is on the wire
        let load = try #require(app.currentLoad)

        app.logOut()
        await load.value
        await MainActorDeliveries.drain()
        #expect(!model.view.isSpinning)
        #expect(model.view.rows.isEmpty)
        #expect(model.view.greeting == "Signed out")
        #expect(writes.values.map(\.count) == [0])  // the logout's clear, and no album
        #expect(app.clock.sleeperCount == 0)  // the request was cancelled with the load
    }
}
