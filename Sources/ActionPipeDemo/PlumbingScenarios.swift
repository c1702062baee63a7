import ActionPipe
import Foundation
import Synchronization

// The plumbing scenarios: the share-link flow of seed 000 (the PipelinePlumber article)
// with PipelinePlumber itself: a port, four stages and a sink. Scenarios 13 and 14 play the
// same flow on the core's async actions.

/// The scenarios of the plumbing (seed 000, PipelinePlumber).
let plumbingScenarios: [Scenario] = [
    Scenario(
        number: 40, name: "plumb-share-link",
        title: "Plumbing: a port, four stages and a sink make a share link",
        original: "plumber.addPort(port).addPipeline(checkLogin)...throwPacketBlock = ^{...}",
        library: "PipelinePlumber",
        run: plumbShareLink),
    Scenario(
        number: 41, name: "plumb-share-refused",
        title: "Plumbing: a check stops the packet, and the caller learns where and why",
        original: "BlockInPipelibe(packet): the packet is dropped, and nobody learns why",
        library: "PipelinePlumber",
        run: plumbShareRefused),
    Scenario(
        number: 42, name: "plumb-hazards",
        title: "Plumbing: late ports, no stages, one stage in two plumbers",
        original:
            "ports wired only when the sink is set; no stages = no sink; plumber_nextPipeline",
        library: "PipelinePlumber",
        run: plumbHazards),
    Scenario(
        number: 43, name: "plumb-port-order",
        title: "Plumbing: two ports, an async stage, each port's packets in order",
        original: "self.throwPacketBlock(packet, 100) from several ports",
        library: "PipelinePlumber",
        run: plumbPortOrder),
]

/// The seed's packet (`@protocol Packet`): the event's data, and the link the last stage
/// adds. The port number travels on the `PlumbingPacket` around it.
private struct PlumbShareEvent: Sendable, CustomStringConvertible {
    var docId: Int
    var userId: Int
    var entrance = "share-button"
    var linkString: String?

    var description: String {
        "{docId: \(docId), userId: \(userId)" + (linkString.map { ", link: \($0)" } ?? "") + "}"
    }
}

/// The seed's `ShareEventPort`: turns a share event into a packet of port 100.
private final class PlumbShareEventPort: Sendable {
    let port = PlumbingPort<PlumbShareEvent>(100)

    /// The article's `receiveShareEvent:`.
    func receiveShareEvent(docId: Int, userId: Int) async -> PlumbingOutcome<PlumbShareEvent> {
        await port.process(PlumbShareEvent(docId: docId, userId: userId))
    }
}

/// The seed's `CheckLoginPipeline`, a stage object (sync).
private struct PlumbCheckLogin: PlumbingStage {
    let loggedIn: Set<Int>
    var name: String { "check-login" }

    func receive(_ packet: inout PlumbingPacket<PlumbShareEvent>) -> PlumbingVerdict {
        guard loggedIn.contains(packet.userId) else {
            say("check-login _ user \(packet.userId) is not logged in: stop")
            return .stop("user \(packet.userId) is not logged in")
        }
        say("check-login _ user \(packet.userId) is logged in: pass")
        return .pass
    }
}

/// What the sink received, shared with the scenario.
private final class PlumbDemoLinks: Sendable {
    private let links = Mutex<[String]>([])

    func append(_ link: String) { links.withLock { $0.append(link) } }

    var all: [String] { links.withLock { $0 } }
}

/// Builds the article's `setupPipeline`: port → four stages → sink.
private func makePlumbShareFlow(
    links: PlumbDemoLinks
) throws -> (PipelinePlumber<PlumbShareEvent>, PlumbShareEventPort) {
    let shareEventPort = PlumbShareEventPort()
    let linkable: Set<Int> = [111111]
    let sharers: [Int: Set<Int>] = [111111: [22222]]
    let plumber = try PipelinePlumber<PlumbShareEvent>(name: "share").addPort(shareEventPort.port)
    plumber.addStage(PlumbCheckLogin(loggedIn: [22222, 33333]))
    plumber.addStage("check-document") { packet in
        guard linkable.contains(packet.docId) else {
            say("check-document _ document \(packet.docId) cannot make a link: stop")
            return .stop("document \(packet.docId) cannot make a link")
        }
        say("check-document _ document \(packet.docId) can make a link: pass")
        return .pass
    }
    plumber.addStage("check-permission") { packet in
        guard sharers[packet.docId, default: []].contains(packet.userId) else {
            say("check-permission _ user \(packet.userId) may not share \(packet.docId): stop")
            return .stop("user \(packet.userId) may not share document \(packet.docId)")
        }
        say("check-permission _ user \(packet.userId) may share \(packet.docId): pass")
        return .pass
    }
    plumber.addStage("request-link") { packet in
        say("request-link _ packet from port \(packet.port): asking the server (20 ms)...")
        try await Task.sleep(for: .milliseconds(20))
        packet.linkString = "www.link.com"
        say("request-link _ the server answered www.link.com: pass")
        return .pass
    }
    plumber.sink { packet in
        // The article's `throwPacketBlock`: `self.generateLinkBlock(packet.linkString)`.
        say("sink _ port \(packet.port) delivered link \(packet.linkString ?? "nil")")
        links.append(packet.linkString ?? "nil")
    }
    plumber.onStop { stop in say("onStop _ \(stop)") }
    return (plumber, shareEventPort)
}

/// Prints what became of a packet.
private func showPlumbing<Payload: Sendable>(_ outcome: PlumbingOutcome<Payload>) {
    let packet = outcome.packet
    guard let reason = outcome.reason else {
        print("  outcome: delivered from port \(packet.port): \(packet.payload)")
        return
    }
    let stage = outcome.stage.map { "'\($0)'" } ?? "none"
    print(
        "  outcome: stopped at stage \(stage) after \(outcome.stagesPassed) of \(outcome.stageCount) passed"
    )
    print("  why:     \(reason)")
}

// MARK: - 40. share link

private func plumbShareLink() async throws {
    let links = PlumbDemoLinks()
    let (plumber, shareEventPort) = try makePlumbShareFlow(links: links)
    say(
        "stages: \(plumber.stageNames.joined(separator: " → ")) → sink; ports: \(plumber.portNumbers)"
    )
    say("port 100 emits {docId: 111111, userId: 22222}")
    showPlumbing(await shareEventPort.receiveShareEvent(docId: 111111, userId: 22222))
    say("the sink fired \(links.all.count) time(s): \(links.all)")
}

// MARK: - 41. share refused

private func plumbShareRefused() async throws {
    let links = PlumbDemoLinks()
    let (plumber, shareEventPort) = try makePlumbShareFlow(links: links)

    say("user 44444 is not logged in: the first check stops the packet")
    showPlumbing(await shareEventPort.receiveShareEvent(docId: 111111, userId: 44444))
    say("document 222222 cannot make a link: the second check stops it")
    showPlumbing(await shareEventPort.receiveShareEvent(docId: 222222, userId: 22222))
    say("user 33333 may not share document 111111: the third check stops it")
    showPlumbing(await shareEventPort.receiveShareEvent(docId: 111111, userId: 33333))
    say("a synchronous send cannot wait for the network stage, and says so:")
    showPlumbing(plumber.send(PlumbShareEvent(docId: 111111, userId: 22222), from: 100))
    say("the sink never fired: \(links.all)")
}

// MARK: - 42. hazards of the original, fixed

/// One stage object for two plumbers (the original keeps the next stage on the object).
private struct PlumbDemoTrim: PlumbingStage {
    var name: String { "trim" }

    func receive(_ packet: inout PlumbingPacket<String>) -> PlumbingVerdict {
        packet.payload = packet.payload.trimmingCharacters(in: .whitespaces)
        return packet.payload.isEmpty ? .stop("empty after trimming") : .pass
    }
}

private func plumbHazards() async throws {
    say("1. a port added after the sink is set still feeds the stages")
    let late = PlumbingPort<String>(7)
    let plumber = PipelinePlumber<String>(name: "late")
    plumber.addStage(PlumbDemoTrim())
    plumber.sink { say("   sink _ \($0)") }
    try plumber.addPort(late)
    late.emit("  hello  ")

    say("2. a plumber with no stages hands packets to the sink unchanged")
    let bare = PipelinePlumber<String>(name: "bare")
    bare.sink { say("   sink _ \($0)") }
    showPlumbing(bare.send("  as is  ", from: 1))

    say("3. one stage object serves two plumbers; each keeps its own next stage")
    let trim = PlumbDemoTrim()
    let upper = PipelinePlumber<String>(name: "upper")
    upper.addStage(trim)
    upper.addStage("upper") { packet in
        packet.payload = packet.payload.uppercased()
        return .pass
    }
    let count = PipelinePlumber<String>(name: "count")
    count.addStage(trim)
    count.addStage("count") { packet in
        packet.payload = "\(packet.payload.count) characters"
        return .pass
    }
    showPlumbing(upper.send(" share ", from: 1))
    showPlumbing(count.send(" share ", from: 1))
    showPlumbing(count.send("   ", from: 1))

    say("4. a stage answers once, with its return value; to pass a second packet it emits")
    say("   it into a port, where it waits for the packet in the stages")
    let (echoes, echoed) = AsyncStream.makeStream(of: String.self)
    let port = PlumbingPort<String>(9)
    let echo = try PipelinePlumber<String>(name: "echo").addPort(port)
    echo.addStage("echo") { [weak port] packet in
        if !packet.payload.hasPrefix("echo") { port?.emit("echo of \(packet.payload)") }
        return .pass
    }
    echo.sink { packet in
        say("   sink _ \(packet)")
        echoed.yield(packet.payload)
    }
    port.emit("ping")
    for await _ in echoes.prefix(2) {}
    say("   \(echo.name): both packets went through the stage, the first one first")
}

// MARK: - 43. per-port order

private func plumbPortOrder() async throws {
    let (done, finished) = AsyncStream.makeStream(of: Void.self)
    let received = Mutex<[String]>([])
    let taps = PlumbingPort<Int>(100)
    let pushes = PlumbingPort<Int>(200)
    let plumber = try PipelinePlumber<Int>(name: "events").addPort(taps).addPort(pushes)
    plumber.addStage("slow-for-odd") { packet in
        // Odd packets take longer: run unordered, they would overtake the even ones.
        if packet.payload % 2 == 1 { try await Task.sleep(for: .milliseconds(5)) }
        return .pass
    }
    plumber.sink { packet in
        let count = received.withLock {
            $0.append("\(packet.port):\(packet.payload)")
            return $0.count
        }
        if count == 8 { finished.yield() }
    }
    say("ports \(plumber.portNumbers) each emit 1, 2, 3, 4 without waiting (fire and forget)")
    for value in 1...4 {
        taps.emit(value)
        pushes.emit(value)
    }
    for await _ in done.prefix(1) {}
    let all = received.withLock { $0 }
    say("sink order: \(all.joined(separator: " "))")
    say("port 100: \(all.filter { $0.hasPrefix("100:") }.joined(separator: " ")) (in order)")
    say("port 200: \(all.filter { $0.hasPrefix("200:") }.joined(separator: " ")) (in order)")
}
