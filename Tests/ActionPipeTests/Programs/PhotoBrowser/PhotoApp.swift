import ActionPipe
import ActionPipeTesting
import Synchronization

/// The app's wiring, as a composition root makes it: the API, the store and its loader,
/// the session on the bus, and the action chain analytics → permissions → feature, on
/// which screens register the feature handlers.
final class PhotoApp: Sendable {
    let clock = TestClock()
    let api: PhotoAPI
    let store = PhotoStore()
    let bus = EventBus(name: "photos")
    let analytics = PhotoAnalytics()
    let analyticsPipe = ActionPipe(name: "analytics")
    let permissions = ActionPipe(name: "permissions")
    let feature = ActionPipe(name: "feature")
    private let loader: PhotoAlbumLoader
    private let loading = TestLock<Task<Void, Never>?>(nil)
    private let registrations = RegistrationBag()

    init(latency: Duration = .seconds(1)) throws {
        api = PhotoAPI(clock: clock, latency: latency)
        loader = try PhotoAlbumLoader(api: api, store: store)
        try analyticsPipe.append(permissions)
        try permissions.append(feature)
        wireSession()
        wireAnalytics()
        wirePermissions()
    }

    /// The load in flight, if any: what a test awaits to know the store's writes are done.
    var currentLoad: Task<Void, Never>? { loading.withLock { $0 } }

    /// Signs `user` in. Sticky, so a screen that appears later still greets them.
    func logIn(_ user: PhotoUser) {
        bus.publishSticky(PhotoSessionEvent(subtype: .login, user: user))
    }

    func logOut() {
        guard let user = store.user else { return }
        bus.removeStickyEvents(for: PhotoTopics.login)
        bus.publish(PhotoSessionEvent(subtype: .logout, user: user))
    }

    /// Loads the signed-in user's albums again, in a background task.
    func reload() {
        guard let user = store.user else { return }
        let task = Task.detached { [loader] in await loader.load(for: user) }
        loading.withLock { current in
            current?.cancel()
            current = task
        }
    }

    private func wireSession() {
        // Plain subscribers: they run on the publisher's thread, and only touch the store.
        registrations.insert(
            bus.subscribe(PhotoTopics.login, owner: self) { app, event in
                app.store.user = event.user
                app.reload()
            })
        registrations.insert(
            bus.subscribe(PhotoTopics.logout, owner: self) { app, _ in
                app.loading.withLock { current in
                    current?.cancel()
                    current = nil
                }
                app.store.albums = []
                app.store.error = nil
                app.store.isLoading = false
                app.store.user = nil
            })
    }

    private func wireAnalytics() {
        // Analytics sees every call, allowed or not, and leaves the result to later pipes.
        let analytics = analytics
        registrations.insert(
            analyticsPipe.on(\.photoOpenAlbum) { process in
                analytics.log("openAlbum \(process.arguments)")
                return nil
            })
        registrations.insert(
            analyticsPipe.on(\.photoLikePhoto) { process in
                analytics.log("likePhoto \(process.arguments)")
                return nil
            })
        registrations.insert(
            analyticsPipe.on(\.photoShare).handle { process in
                analytics.log("share \(process.arguments)")
                return nil
            })
    }

    private func wirePermissions() {
        let store = store
        registrations.insert(
            permissions.on(\.photoLikePhoto) { process in
                guard let user = store.user, !user.isGuest else {
                    process.stop()  // the feature pipe never sees a guest's like
                    return false
                }
                return nil
            })
    }
}
