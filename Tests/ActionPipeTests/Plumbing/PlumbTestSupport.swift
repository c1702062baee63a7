import ActionPipe
import Synchronization

/// The seed's packet: a share event, and the link the last stage adds.
struct PlumbSharePacket: Sendable, Equatable {
    var docId: Int
    var userId: Int
    var entrance: String? = nil
    var link: String? = nil
}

/// Why the link request failed.
struct PlumbLinkError: Error, Equatable, CustomStringConvertible {
    let docId: Int
    var description: String { "the server could not make a link for document \(docId)" }
}

/// A gate a stage can wait on; it ignores cancellation, so a test decides when the stage
/// returns.
actor PlumbGate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters.removeAll()
    }

    func wait() async {
        if isOpen { return }
        HangGuard.arm("PlumbGate") { await self.expire() }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Opens the gate if someone still waits at it; see ``HangGuard``.
    private func expire() -> Bool {
        guard !waiters.isEmpty else { return false }
        open()
        return true
    }
}

/// Collects what a sink (or observer) receives, and lets a test await the next one.
final class PlumbInbox<Value: Sendable>: Sendable {
    let stream: AsyncStream<Value>
    private let continuation: AsyncStream<Value>.Continuation
    private let received = TestLock<[Value]>([])

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Value.self)
    }

    func put(_ value: Value) {
        received.withLock { $0.append(value) }
        continuation.yield(value)
    }

    /// Everything received so far, in order.
    var all: [Value] { received.withLock { $0 } }

    /// Waits until `count` values have arrived in total and returns them.
    func wait(for count: Int) async -> [Value] {
        var iterator = stream.makeAsyncIterator()
        var seen = 0
        while seen < count, await iterator.next() != nil { seen += 1 }
        return all
    }
}

/// The seed's share-link flow: four stages (logged in? document can make a link? user may
/// make a link? request the link), the last one async. Every stage logs its name.
struct PlumbShareFlow {
    let plumber: PipelinePlumber<PlumbSharePacket>
    let port = PlumbingPort<PlumbSharePacket>(100)
    let log = Log()
    let sink = PlumbInbox<PlumbingPacket<PlumbSharePacket>>()
    let stops = PlumbInbox<PlumbingOutcome<PlumbSharePacket>>()

    static let stageNames = ["check-login", "check-document", "check-permission", "request-link"]

    /// - Parameters: who is logged in, which documents can make links, which (user, doc)
    ///   pairs may, and which documents the server fails for.
    init(
        loggedIn: Set<Int> = [22222], linkable: Set<Int> = [111111],
        permitted: Set<[Int]> = [[22222, 111111]], serverFails: Set<Int> = []
    ) throws {
        let (log, sink, stops) = (log, sink, stops)
        plumber = try PipelinePlumber<PlumbSharePacket>(name: "share").addPort(port)
        plumber.addStage("check-login") { packet in
            log.append("check-login")
            return loggedIn.contains(packet.userId)
                ? .pass : .stop("user \(packet.userId) is not logged in")
        }
        plumber.addStage("check-document") { packet in
            log.append("check-document")
            return linkable.contains(packet.docId)
                ? .pass : .stop("document \(packet.docId) cannot make a link")
        }
        plumber.addStage("check-permission") { packet in
            log.append("check-permission")
            return permitted.contains([packet.userId, packet.docId])
                ? .pass
                : .stop("user \(packet.userId) may not share document \(packet.docId)")
        }
        plumber.addStage("request-link") { packet in
            log.append("request-link")
            await Task.yield()  // the "network"
            if serverFails.contains(packet.docId) { throw PlumbLinkError(docId: packet.docId) }
            packet.link = "www.link.com"
            return .pass
        }
        plumber.sink { sink.put($0) }
        plumber.onStop { stops.put($0) }
    }
}
