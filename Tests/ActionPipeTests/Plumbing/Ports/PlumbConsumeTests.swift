import ActionPipe
import Testing

@Suite("Plumbing: a port consumes an AsyncSequence", .hangBound)
struct PlumbConsumeTests {
    /// A plumber that doubles every payload, refuses odd inputs, and records the sink (then
    /// calls `delivered`).
    private func makePlumber(
        _ seen: Log, delivered: @escaping @Sendable () -> Void = {}
    ) -> PipelinePlumber<Int> {
        let plumber = PipelinePlumber<Int>(name: "numbers")
        plumber.addStage("even") { packet in packet.payload % 2 == 0 ? .pass : .stop("odd") }
        plumber.addStage("double") { packet in
            packet.payload *= 2
            return .pass
        }
        plumber.sink { packet in
            seen.append("\(packet.payload)")
            delivered()
        }
        return plumber
    }

    @Test("every element goes through, in order; the counts say what happened")
    func everyElementInOrder() async throws {
        let seen = Log()
        let port = PlumbingPort<Int>(1)
        let plumber = try makePlumber(seen).addPort(port)  // a port holds its plumber weakly
        let counts = await port.consume(
            AsyncStream { continuation in
                for value in 1...10 { continuation.yield(value) }
                continuation.finish()
            })
        #expect(counts == (deliveredCount: 5, stoppedCount: 5))
        #expect(seen.all == ["4", "8", "12", "16", "20"])
        withExtendedLifetime(plumber) {}
    }

    @Test("an error of the sequence is rethrown, after the elements before it went through")
    func sourceErrorRethrown() async throws {
        struct Broken: Error {}
        let seen = Log()
        let port = PlumbingPort<Int>(1)
        let plumber = try makePlumber(seen).addPort(port)  // a port holds its plumber weakly
        let source = AsyncThrowingStream<Int, any Error> { continuation in
            continuation.yield(2)
            continuation.finish(throwing: Broken())
        }
        await #expect(throws: Broken.self) { try await port.consume(source) }
        #expect(seen.all == ["4"])
        withExtendedLifetime(plumber) {}
    }

    @Test("cancelling the consuming task ends it: no element is read after")
    func cancellation() async throws {
        let seen = Log()
        let port = PlumbingPort<Int>(1)
        let (deliveries, delivered) = AsyncStream.makeStream(of: Void.self)
        let plumber = try makePlumber(seen) { delivered.yield() }.addPort(port)  // held weakly
        let (source, continuation) = AsyncStream.makeStream(of: Int.self)
        let consumer = Task { await port.consume(source) }
        continuation.yield(2)
        var sinkCalls = deliveries.makeAsyncIterator()
        await sinkCalls.next()  // the consumer has sent 2 through
        try #require(seen.all == ["4"])
        consumer.cancel()
        continuation.yield(4)  // may be read by the iteration in progress; nothing after it
        let counts = await consumer.value
        continuation.yield(6)
        continuation.finish()
        #expect(counts.deliveredCount + counts.stoppedCount <= 2)
        #expect(!seen.all.contains("12"))
        withExtendedLifetime(plumber) {}
    }

    @Test("not connected: every element is counted as stopped")
    func notConnected() async {
        let port = PlumbingPort<Int>(1)
        let counts = await port.consume(
            AsyncStream { continuation in
                continuation.yield(1)
                continuation.yield(2)
                continuation.finish()
            })
        #expect(counts == (deliveredCount: 0, stoppedCount: 2))
    }
}
