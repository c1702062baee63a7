import ActionPipe
import Foundation

// The async scenarios: the share-link flow of seed 000 (the PipelinePlumber article) and
// the start → request → success/error flow of seed 002, on async actions. The article's
// stages become pipes of one chain; its packet becomes the action's argument; its port
// number travels as side data; its sink is the caller, which awaits the link.

extension Actions {
    /// `shareLink(document) async throws -> link`: every check of the share flow is a pipe,
    /// and the last pipe asks the server for the link.
    var shareLink: AsyncAction<ShareDocument, String> { .init() }

    /// `loadPage(url, body) async throws -> text`: the start → request → success flow.
    var loadPage: AsyncAction<String, String?, String> { .init() }
}

/// The seed's packet: which document to share, for which user.
struct ShareDocument: Sendable, CustomStringConvertible {
    let docId: Int
    let userId: Int

    var description: String { "{docId: \(docId), userId: \(userId)}" }
}

/// Why the share flow refused to make a link.
enum ShareError: Error, CustomStringConvertible {
    case notLoggedIn(userId: Int)
    case noPermission(userId: Int, docId: Int)

    var description: String {
        switch self {
        case .notLoggedIn(let userId):
            "user \(userId) is not logged in"
        case .noPermission(let userId, let docId):
            "user \(userId) may not make a link to document \(docId)"
        }
    }
}

/// Side data of the share flow.
enum ShareKeys {
    /// The number of the port that produced the packet (the seed's `portNum`).
    static let port = SideDataKey<Int>("port")
}

/// The services the checks ask: sessions, documents, permissions, and the link server.
actor ShareBackend {
    private let loggedIn: Set<Int> = [22222, 33333]
    private let linkable: Set<Int> = [111111]
    private let sharers: [Int: Set<Int>] = [111111: [22222]]

    func isLoggedIn(_ userId: Int) -> Bool { loggedIn.contains(userId) }

    func canMakeLink(_ docId: Int) -> Bool { linkable.contains(docId) }

    func mayShare(_ userId: Int, _ docId: Int) -> Bool {
        sharers[docId, default: []].contains(userId)
    }

    /// The network request of the last stage.
    func requestLink(for docId: Int) async throws -> String {
        try await Task.sleep(for: .milliseconds(20))
        return "www.link.com"
    }
}

/// Builds the share flow, login-check → document-check → permission-check → link-request,
/// and returns its head. The other pipes' handles are dropped: the chain keeps them, and
/// the head keeps the chain.
private func makeShareChain(backend: ShareBackend) throws -> ActionPipe {
    let login = ActionPipe(name: "login-check")
    let document = ActionPipe(name: "document-check")
    let permission = ActionPipe(name: "permission-check")
    let request = ActionPipe(name: "link-request")

    // Each handler captures the backend, an actor, and awaits it.
    login.on(\.shareLink) { process in
        let user = process.arguments.userId
        guard await backend.isLoggedIn(user) else { throw ShareError.notLoggedIn(userId: user) }
        say("login-check _ user \(user) is logged in")
        return nil
    }
    document.on(\.shareLink) { process in
        let doc = process.arguments.docId
        guard await backend.canMakeLink(doc) else {
            // Not an error: this document just has no link. Stop the call, without a link.
            say("document-check _ document \(doc) cannot make a link: stop here")
            process.stop()
            return nil
        }
        say("document-check _ document \(doc) can make a link")
        return nil
    }
    permission.on(\.shareLink) { process in
        let (user, doc) = (process.arguments.userId, process.arguments.docId)
        guard await backend.mayShare(user, doc) else {
            throw ShareError.noPermission(userId: user, docId: doc)
        }
        say("permission-check _ user \(user) may make a link to document \(doc)")
        return nil
    }
    request.on(\.shareLink) { process in
        let doc = process.arguments.docId
        let port = process.sideData[ShareKeys.port].map(String.init) ?? "?"
        say("link-request _ packet from port \(port): asking the server (20 ms)...")
        let link = try await backend.requestLink(for: doc)
        say("link-request _ the server answered \(link)")
        return link
    }
    try login.append(document).append(permission).append(request)
    return login
}

// MARK: - 13. share-link

func shareLinkFlow() async throws {
    let share = try makeShareChain(backend: ShareBackend())
    say("chain: \(share.chainNames.joined(separator: " → "))")
    let document = ShareDocument(docId: 111111, userId: 22222)
    say("port 100 sends \(document)")
    // The plain call is `try await share.shareLink(document)`; `report` also returns the
    // trace, and never throws.
    let report = await share.shareLink.with(ShareKeys.port, 100).report(document)
    show(report)
    say("the sink receives port 100 and the link \(report.value ?? "nil")")
}

// MARK: - 14. share-refused

func shareRefused() async throws {
    let share = try makeShareChain(backend: ShareBackend())

    let stranger = ShareDocument(docId: 111111, userId: 33333)
    say("user 33333 is logged in, but may not share document 111111: the permission check throws")
    show(await share.shareLink.with(ShareKeys.port, 100).report(stranger))
    say("a plain call runs the same checks, and throws the error to the caller:")
    do {
        try await share.shareLink(stranger)
    } catch let error as ShareError {
        say("caught ShareError: \(error)")
    }

    let draft = ShareDocument(docId: 222222, userId: 22222)
    say("document 222222 cannot make a link: the document check stops the call")
    show(await share.shareLink.with(ShareKeys.port, 100).report(draft))
}

// MARK: - 15. async-retrigger

/// Why the page request failed.
private enum PageError: Error, CustomStringConvertible {
    case offline

    var description: String { "the network is offline" }
}

/// The request of the flow: 20 ms of "network"; `offline.example` fails.
private func requestPage(_ url: String) async throws -> String {
    try await Task.sleep(for: .milliseconds(20))
    guard url != "offline.example" else { throw PageError.offline }
    return "the page at \(url)"
}

func asyncRetrigger() async throws {
    let view = ActionPipe(name: "view")
    let loader = ActionPipe(name: "loader")
    view.on(\.loadPage).state([.start, .success, .error]).handle { process in
        let (url, body) = process.arguments
        switch process.state {
        case ActionState.start:
            say("view _ [start] show a spinner for \(url)")
            return "spinner"
        case ActionState.success:
            say("view _ [success] show \(body ?? "nothing")")
            return "page shown"
        default:
            say("view _ [error] show the error: \(body ?? "unknown")")
            return "error shown"
        }
    }
    loader.on(\.loadPage).state(.start).handle { process in
        let (url, _) = process.arguments
        let trigger = process.trigger
        say("loader _ [start] request \(url) (20 ms)...")
        let page: String
        do {
            page = try await requestPage(url)
        } catch {
            say("loader _ the request failed; call the chain again with state error")
            return try await trigger.call(state: .error, url, "\(error)")
        }
        say("loader _ the request returned; call the chain again with state success")
        return try await trigger.call(state: .success, url, page)
    }
    // The view comes first, so its spinner shows before the request starts.
    try view.append(loader)
    say("chain: \(view.chainNames.joined(separator: " → ")); the caller awaits the whole flow")

    show(await view.with(state: .start).loadPage.report("example.com", nil))
    say("the same flow when the request fails:")
    show(await view.with(state: .start).loadPage.report("offline.example", nil))
}
