import ActionPipeTesting

/// The photo service: every request waits `latency` on a test clock, and the next
/// `failures` album requests fail, as a slow, flaky network does.
actor PhotoAPI {
    struct Offline: Error, CustomStringConvertible {
        var description: String { "offline" }
    }

    private let clock: TestClock
    private let latency: Duration
    private var failures = 0
    private(set) var requests = 0

    init(clock: TestClock, latency: Duration = .seconds(1)) {
        self.clock = clock
        self.latency = latency
    }

    /// Makes the next `count` album requests fail after their latency.
    func failNextAlbumRequests(_ count: Int) { failures = count }

    /// The user's albums, without thumbnails.
    func albums(for user: PhotoUser) async throws -> [PhotoAlbum] {
        try await request()
        if failures > 0 {
            failures -= 1
            throw Offline()
        }
        return [
            PhotoAlbum(id: "a1", title: "Holidays"),
            PhotoAlbum(id: "a2", title: "Cats"),
            PhotoAlbum(id: "a3", title: "Mountains"),
        ]
    }

    /// The album's thumbnail URL.
    func thumbnail(for album: PhotoAlbum) async throws -> String {
        try await request()
        return "thumb-\(album.id).jpg"
    }

    private func request() async throws {
        requests += 1
        try await clock.sleep(for: latency)
    }
}
