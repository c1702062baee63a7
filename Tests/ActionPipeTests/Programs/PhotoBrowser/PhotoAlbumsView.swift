/// The album screen's view: what a `UIViewController` would put on screen, kept as plain
/// properties, and every render in `log`, frame by frame.
@MainActor
final class PhotoAlbumsView {
    private(set) var greeting = ""
    private(set) var isSpinning = false
    private(set) var rows: [String] = []
    private(set) var errorBanner: String?
    private(set) var searchHint: String?
    private(set) var openAlbum: String?
    private(set) var likedCount = 0
    private(set) var message: String?
    private(set) var shareSheet: String?
    private(set) var log: [String] = []

    /// The renders since the last call, oldest first.
    func takeLog() -> [String] {
        defer { log = [] }
        return log
    }

    func showGreeting(_ text: String) {
        greeting = text
        log.append("greeting \(text)")
    }

    func showSpinner(_ isOn: Bool) {
        isSpinning = isOn
        log.append("spinner \(isOn ? "on" : "off")")
    }

    func showRows(_ rows: [String]) {
        self.rows = rows
        log.append("rows \(rows.count)")
    }

    func showError(_ text: String?) {
        errorBanner = text
        log.append("error \(text ?? "none")")
    }

    func showSearchHint(_ text: String?) {
        searchHint = text
        log.append("hint \(text ?? "none")")
    }

    func showOpenAlbum(_ title: String?) {
        openAlbum = title
        log.append("open \(title ?? "none")")
    }

    func showLikes(_ count: Int) {
        likedCount = count
        log.append("likes \(count)")
    }

    func showMessage(_ text: String) {
        message = text
        log.append("message \(text)")
    }

    func showShareSheet(_ link: String) {
        shareSheet = link
        log.append("share \(link)")
    }
}
