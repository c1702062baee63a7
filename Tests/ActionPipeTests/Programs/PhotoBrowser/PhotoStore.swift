import ActionPipe

/// The browser's shared state, written by the loader from background tasks and read by
/// screens on the main actor.
///
/// `@unchecked Sendable`: every stored property is an `@Observed` property, which locks.
final class PhotoStore: ObservableState, @unchecked Sendable {
    @Observed("photos.user") var user: PhotoUser? = nil
    @Observed("photos.isLoading") var isLoading = false
    @Observed("photos.albums") var albums: [PhotoAlbum] = []
    @Observed("photos.error") var error: String? = nil
}
