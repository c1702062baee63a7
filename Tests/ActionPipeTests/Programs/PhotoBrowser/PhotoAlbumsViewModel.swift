import ActionPipe

/// The album screen's view model: it observes the store and the session on the main actor,
/// validates the search field through a plumber, and handles the feature pipe's actions,
/// all as `@MainActor` closures that touch it and its view directly.
@MainActor
final class PhotoAlbumsViewModel {
    let view: PhotoAlbumsView
    private let app: PhotoApp
    private let search = PipelinePlumber<String>(name: "search")
    private let registrations = RegistrationBag()
    private var albums: [PhotoAlbum] = []
    private var query = ""
    private var liked: Set<String> = []

    init(app: PhotoApp, view: PhotoAlbumsView) {
        self.app = app
        self.view = view
        search.addStage("normalize") { packet in
            packet.payload = packet.payload.split(separator: " ").joined(separator: " ")
                .lowercased()
            return .pass
        }
        search.addStage("length") { packet in
            packet.payload.count == 1 ? .stop("type at least 2 characters") : .pass
        }
        search.addStage("characters") { packet in
            packet.payload.allSatisfy { $0.isLetter || $0.isNumber || $0 == " " }
                ? .pass : .stop("letters and digits only")
        }
    }

    /// The screen appears: every registration is bound to this view model (owner) and kept
    /// in one bag (tokens), so either its release or ``disappear()`` ends them all.
    func appear() {
        let store = app.store
        registrations.insert(
            store.$isLoading.observe(.initial, owner: self, on: .mainActor) { model, isLoading in
                model.view.showSpinner(isLoading)
            })
        registrations.insert(
            store.$albums.observe(.initial, owner: self, on: .mainActor) { model, albums in
                model.albums = albums
                model.showRows()
            })
        registrations.insert(
            store.$error.observe(.initial, owner: self, on: .mainActor) { model, error in
                model.view.showError(error)
            })
        registrations.insert(
            app.bus.subscribe(PhotoTopics.login, owner: self, on: .mainActor) { model, event in
                model.view.showGreeting("Hello, \(event.user.name)")
            })
        registrations.insert(
            app.bus.subscribe(PhotoTopics.logout, owner: self, on: .mainActor) { model, _ in
                model.signedOut()
            })
        bindSearch()
        bindFeature()
    }

    /// The screen disappears: nothing reaches it afterwards, not even deliveries already
    /// queued for the main actor.
    func disappear() { registrations.cancelAll() }

    /// Callable from any thread: the plumber delivers to the main actor.
    nonisolated func searchTextChanged(_ text: String) { search.send(text, from: 1) }

    func retry() { app.reload() }

    func open(albumID: String) { app.feature.photoOpenAlbum(albumID) }

    func like(photoID: String) {
        // Synchronous, on the main actor: the feature handler ran (or was refused) before
        // this returns.
        if app.feature.photoLikePhoto(photoID) != true {
            view.showMessage("Sign in to like photos")
        }
    }

    func share(albumID: String) async throws {
        _ = try await app.feature.photoShare(albumID)
    }

    private func bindSearch() {
        registrations.insert(
            search.sink(owner: self, on: .mainActor) { model, packet in
                model.query = packet.payload
                model.view.showSearchHint(nil)
                model.showRows()
            })
        registrations.insert(
            search.onStop(owner: self, on: .mainActor) { model, stop in
                model.view.showSearchHint(stop.reason?.refusal)
            })
    }

    private func bindFeature() {
        registrations.insert(
            app.feature.on(\.photoOpenAlbum).handle(owner: self, on: .mainActor) {
                model, process in
                guard let album = model.albums.first(where: { $0.id == process.arguments })
                else { return nil }
                model.view.showOpenAlbum(album.title)
                return album.title
            })
        registrations.insert(
            app.feature.on(\.photoLikePhoto).handle(owner: self, on: .mainActor) {
                model, process in
                model.liked.insert(process.arguments)
                model.view.showLikes(model.liked.count)
                return true
            })
        registrations.insert(
            app.feature.on(\.photoShare).handle(owner: self, on: .mainActor) { model, process in
                let link = "https://photos.example/\(process.arguments)"
                model.view.showShareSheet(link)
                return link
            })
    }

    private func showRows() {
        let visible = albums.filter { query.isEmpty || $0.title.lowercased().contains(query) }
        view.showRows(visible.map { "\($0.title) [\($0.thumbnail ?? "no thumbnail")]" })
    }

    private func signedOut() {
        query = ""
        liked = []
        view.showGreeting("Signed out")
        view.showOpenAlbum(nil)
        view.showSearchHint(nil)
    }
}
