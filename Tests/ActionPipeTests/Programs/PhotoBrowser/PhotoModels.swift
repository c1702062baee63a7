import ActionPipe

/// An album as the browser shows it: the API's summary with its thumbnail filled in.
struct PhotoAlbum: Sendable, Equatable {
    let id: String
    let title: String
    var thumbnail: String?
}

/// Who is signed in. Guests may browse but not like.
struct PhotoUser: Sendable, Equatable {
    let name: String
    var isGuest = false
}

/// Signing in and out, app-wide, on the bus.
struct PhotoSessionEvent: BusEvent {
    enum Kind: Hashable, Sendable { case login, logout }
    let subtype: Kind
    let user: PhotoUser
}

/// The two session topics. Login is published sticky, so a screen that appears after it
/// still learns who is signed in.
enum PhotoTopics {
    static let login = BusTopic(PhotoSessionEvent.self, .login)
    static let logout = BusTopic(PhotoSessionEvent.self, .logout)
}

extension Actions {
    /// Opens an album by id; the result is the title the screen shows.
    var photoOpenAlbum: Action<String, String> { .init() }
    /// Likes a photo by id; `false` when the permissions pipe refuses.
    var photoLikePhoto: Action<String, Bool> { .init() }
    /// Shares an album by id; the result is the link the share sheet shows.
    var photoShare: AsyncAction<String, String> { .init() }
}
