import ActionPipe

/// Loads a user's albums, then every album's thumbnail, as an operation tree, and writes
/// the store as each album becomes ready: `isLoading`, `albums` once per album, then
/// `isLoading` again (and `error` when the API failed).
final class PhotoAlbumLoader: Sendable {
    private let store: PhotoStore
    private let albums: OperationTreeNode<PhotoUser, [PhotoAlbum]>
    private let thumbnails: OperationTreeNode<[PhotoAlbum], PhotoAlbum>

    init(api: PhotoAPI, store: PhotoStore) throws {
        self.store = store
        albums = OperationTreeNode(
            "albums", objects: { (user: PhotoUser) in [user] },
            work: { user in try await api.albums(for: user) })
        thumbnails = OperationTreeNode(
            "thumbnails", objects: { (albums: [PhotoAlbum]) in albums },
            work: { album in
                var album = album
                album.thumbnail = try await api.thumbnail(for: album)
                return album
            })
        try albums.addChild(thumbnails)
    }

    /// Runs the tree on the global executor: the store's writes come from a background
    /// task, whoever calls this. A cancelled load writes nothing more.
    @concurrent
    func load(for user: PhotoUser) async {
        if store.error != nil { store.error = nil }
        store.isLoading = true
        // The user taps "retry" rather than the tree retrying behind a spinner.
        let run = albums.start(user, options: OperationTreeOptions(retry: .never))
        var loaded: [PhotoAlbum] = []
        await withTaskCancellationHandler {
            for await event in run.events {
                guard let album = event.finishedOutput(of: thumbnails), !Task.isCancelled
                else { continue }
                loaded.append(album)
                loaded.sort { $0.id < $1.id }
                store.albums = loaded
            }
        } onCancel: {
            run.cancel()
        }
        let report = await run.report
        guard !Task.isCancelled else { return }
        if let failure = report.failures.first {
            store.error = "Could not load albums: \(failure.error)"
        }
        store.isLoading = false
    }
}
