import ActionPipe
import Testing

/// The seed's example: port 100 emits {docId: 111111, userId: 22222}; four stages pass;
/// the sink gets port 100 and "www.link.com". Any failing check stops it, with its reason.
@Suite("Plumbing: the share-link example")
struct PlumbShareLinkTests {
    let document = PlumbSharePacket(docId: 111111, userId: 22222)

    @Test("four checks pass; the sink fires once with port 100 and the link")
    func allPass() async throws {
        let flow = try PlumbShareFlow()
        let outcome = await flow.port.process(document)

        let delivered = try #require(outcome.delivered)
        #expect(delivered.port == 100)
        #expect(delivered.link == "www.link.com")
        #expect(delivered.docId == 111111 && delivered.userId == 22222)
        #expect(flow.log.all == PlumbShareFlow.stageNames)
        #expect(flow.sink.all.count == 1)
        #expect(flow.sink.all.first?.port == 100)
        #expect(flow.sink.all.first?.payload.link == "www.link.com")
        #expect(flow.stops.all.isEmpty)
        #expect(outcome.description.hasPrefix("delivered port 100: "))
    }

    @Test("emitted fire-and-forget, as in the seed, the sink still gets port 100 and the link")
    func emitted() async throws {
        let flow = try PlumbShareFlow()
        flow.port.emit(document)  // an async stage: queued and run by the port's task
        let received = await flow.sink.wait(for: 1)
        #expect(received.map(\.port) == [100])
        #expect(received.map(\.payload.link) == ["www.link.com"])
    }

    @Test(
        "a failing check stops the packet: the sink does not fire, the caller learns where and why",
        arguments: [
            (
                PlumbSharePacket(docId: 111111, userId: 1), "check-login", 0,
                "user 1 is not logged in"
            ),
            (
                PlumbSharePacket(docId: 222222, userId: 22222), "check-document", 1,
                "document 222222 cannot make a link"
            ),
            (
                PlumbSharePacket(docId: 111111, userId: 33333), "check-permission", 2,
                "user 33333 may not share document 111111"
            ),
        ])
    func refused(packet: PlumbSharePacket, stage: String, passed: Int, reason: String) async throws
    {
        let flow = try PlumbShareFlow(loggedIn: [22222, 33333], linkable: [111111])
        let outcome = await flow.port.process(packet)

        let stop = try #require(outcome.stop)
        #expect(stop.stage == stage)
        #expect(stop.stagesPassed == passed)
        #expect(stop.stageCount == 4)
        #expect(stop.reason?.refusal == reason)
        #expect(stop.packet.port == 100)
        #expect(stop.plumber == "share")
        #expect(
            stop.description
                == "share: port 100's packet stopped by stage '\(stage)' (\(passed + 1) of 4): refused: \(reason)"
        )
        #expect(flow.log.all == Array(PlumbShareFlow.stageNames.prefix(passed + 1)))  // none after
        #expect(flow.sink.all.isEmpty)
        #expect(flow.stops.all.map(\.stage) == [stage])  // the observer heard it too
    }

    @Test("the link request throws: the packet stops at it with the error")
    func requestFails() async throws {
        let flow = try PlumbShareFlow(serverFails: [111111])
        let stop = try #require(await flow.port.process(document).stop)
        #expect(stop.stage == "request-link")
        #expect(stop.reason?.error as? PlumbLinkError == PlumbLinkError(docId: 111111))
        #expect(
            stop.description.hasSuffix("threw the server could not make a link for document 111111")
        )
        #expect(flow.sink.all.isEmpty)
    }

    @Test("a synchronous send reaches the async request and says to use process")
    func syncSendOfAsyncFlow() throws {
        let flow = try PlumbShareFlow()
        let stop = try #require(flow.plumber.send(document, from: 100).stop)
        #expect(stop.stage == "request-link")
        #expect(stop.reason?.isStageAsync == true)
        #expect(stop.reason?.description.contains("await plumber.process") == true)
        #expect(flow.log.all == ["check-login", "check-document", "check-permission"])
        #expect(flow.sink.all.isEmpty)
    }
}
