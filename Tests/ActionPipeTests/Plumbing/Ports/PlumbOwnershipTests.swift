import ActionPipe
import Synchronization
import Testing

/// Issue 31: a packet belongs to the plumber it was emitted into, from `emit` to its one
/// outcome, whatever becomes of the plumber or the port meanwhile; a `send` nested past the
/// limit is refused with a typed stop.
@Suite("Plumbing: a packet's plumber")
struct PlumbOwnershipTests {
    @Test(
        "releasing a plumber with packets queued: its port's queue keeps it until each has its outcome",
        .hangBound)
    func releasedWithQueue() async throws {
        let gate = PlumbGate()
        let arrived = PlumbInbox<Int>()
        let delivered = PlumbInbox<Int>()
        let stopped = TestLock<[Int]>([])
        let outcomes = Tally()
        let port = PlumbingPort<Int>(1)
        weak var weakPlumber: PipelinePlumber<Int>?
        do {
            let plumber = try PipelinePlumber<Int>().addPort(port)
            plumber.addStage("held") { packet in
                arrived.put(packet.payload)
                await gate.wait()
                return .pass
            }
            plumber.sink { packet in
                delivered.put(packet.payload)
                outcomes.increment()
            }
            plumber.onStop { stop in
                stopped.withLock { $0.append(stop.packet.payload) }
                outcomes.increment()
            }
            weakPlumber = plumber
            for value in 0..<10 { port.emit(value) }
        }
        _ = await arrived.wait(for: 1)  // the first packet is in its stage, the rest queued
        await gate.open()
        await outcomes.wait(for: 10)
        #expect(delivered.all == Array(0..<10))
        #expect(stopped.withLock { $0 }.isEmpty)
        _ = await eventually { weakPlumber == nil }
        #expect(weakPlumber == nil)  // and the queue lets go once it is empty
        #expect(!port.isConnected)
    }

    @Test(
        "removePort, then addPort to another plumber: the packets queued finish in the first",
        .hangBound)
    func removeThenAdd() async throws {
        let gate = PlumbGate()
        let arrived = PlumbInbox<Int>()
        let sinkA = PlumbInbox<Int>()
        let stopsA = TestLock<[Int]>([])
        let sinkB = PlumbInbox<Int>()
        let stopsB = TestLock<[Int]>([])
        let port = PlumbingPort<Int>(1)
        let plumberA = try PipelinePlumber<Int>(name: "A").addPort(port)
        plumberA.addStage("held") { packet in
            arrived.put(packet.payload)
            await gate.wait()
            return .pass
        }
        plumberA.sink { sinkA.put($0.payload) }
        plumberA.onStop { stop in stopsA.withLock { $0.append(stop.packet.payload) } }
        let plumberB = PipelinePlumber<Int>(name: "B")
        plumberB.addStage("b") { _ in
            await Task.yield()
            return .pass
        }
        plumberB.sink { sinkB.put($0.payload) }
        plumberB.onStop { stop in stopsB.withLock { $0.append(stop.packet.payload) } }

        for value in 0..<5 { port.emit(value) }
        _ = await arrived.wait(for: 1)
        #expect(plumberA.removePort(port))
        try plumberB.addPort(port)
        port.emit(5)  // emitted into B: waits for A's packets, then runs in B
        await gate.open()
        #expect(await sinkA.wait(for: 5) == Array(0..<5))
        #expect(await sinkB.wait(for: 1) == [5])
        #expect(stopsA.withLock { $0 }.isEmpty)
        #expect(stopsB.withLock { $0 }.isEmpty)
    }

    @Test("a send nested past the limit stops with NestingLimitError, no stack overflow")
    func nestingLimit() throws {
        let refusals = TestLock<[NestingLimitError]>([])
        let innermost = TestLock<PlumbingStopReason?>(nil)
        let plumber = PipelinePlumber<Int>(name: "loop")
        plumber.addStage("again") { [weak plumber] packet in
            // No base case: every packet sends the next one, nested.
            let inner = plumber?.send(packet.payload + 1, from: packet.port)
            if let reason = inner?.stop?.reason, reason.nestingError != nil {
                innermost.withLock { $0 = reason }
            }
            return .pass
        }
        plumber.onStop { stop in
            if let error = stop.reason?.nestingError { refusals.withLock { $0.append(error) } }
        }
        #expect(plumber.send(0, from: 1).wasDelivered)  // the calls above the refusal go on
        let errors = refusals.withLock { $0 }
        #expect(errors.count == 1)
        #expect(errors.first?.depth == NestingLimitError.depthLimit + 1)
        #expect(errors.first?.refused == .packet(plumber: "loop"))
        #expect(innermost.withLock { $0 }?.isNestingLimit == true)
    }

    @Test(
        "4 threads emit, a fifth rewires the port: one outcome per packet, in its plumber",
        .hangBound)
    func stress() async throws {
        /// Which plumber the port feeds (its generation), `-1` while it feeds none; emitters
        /// read it and emit under this lock, so each packet's plumber is known.
        struct Wiring {
            var generation = 0
            var plumber: PipelinePlumber<[Int]>?
        }
        let port = PlumbingPort<[Int]>(1)
        let outcomes = Tally()
        // [thread, sequence] -> the generations of the plumbers that gave it an outcome.
        let seen = TestLock<[[Int]: [Int]]>([:])
        let expected = TestLock<[[Int]: Int]>([:])
        let makePlumber: @Sendable (Int) -> PipelinePlumber<[Int]> = { generation in
            let plumber = PipelinePlumber<[Int]>(name: "g\(generation)")
            plumber.addStage("yield") { _ in
                await Task.yield()
                return .pass
            }
            plumber.sink { packet in
                seen.withLock { $0[packet.payload, default: []].append(generation) }
                outcomes.increment()
            }
            plumber.onStop { stop in
                seen.withLock { $0[stop.packet.payload, default: []].append(-100 - generation) }
                outcomes.increment()
            }
            return plumber
        }
        // Only `wiring` holds the plumbers, so dropping one there releases it.
        let wiring = TestLock(Wiring(generation: 0, plumber: makePlumber(0)))
        _ = try wiring.withLock { wiring in try wiring.plumber?.addPort(port) }
        let emittersDone = Atomic(0)
        let rounds = Atomic(0)
        let perThread = 1_500
        let finished = await runOnThreads(5) { index in
            if index < 4 {
                var sequence = 0
                while sequence < perThread {
                    let key = [index, sequence]
                    let generation = wiring.withLock { wiring -> Int in
                        guard wiring.generation >= 0 else { return -1 }
                        port.emit(key)
                        return wiring.generation
                    }
                    // While the port feeds no plumber, try again.
                    guard generation >= 0 else { continue }
                    expected.withLock { $0[key] = generation }
                    sequence += 1
                }
                emittersDone.add(1, ordering: .sequentiallyConsistent)
                return
            }
            var next = 1
            var round = 0
            while emittersDone.load(ordering: .sequentiallyConsistent) < 4 || round < 30 {
                round += 1
                // Whatever leaves the lock is released after unlocking.
                var released: PipelinePlumber<[Int]>?
                switch round % 3 {
                case 0:  // remove, then add to a new plumber; drop the old one
                    released = wiring.withLock { wiring in
                        wiring.generation = -1
                        if let plumber = wiring.plumber { _ = plumber.removePort(port) }
                        return wiring.plumber.take()
                    }
                case 1:  // drop the plumber without removing the port
                    released = wiring.withLock { wiring in
                        wiring.generation = -1
                        return wiring.plumber.take()
                    }
                default:  // remove and re-add to the same plumber
                    wiring.withLock { wiring in
                        guard let plumber = wiring.plumber else { return }
                        wiring.generation = -1
                        _ = plumber.removePort(port)
                        _ = try? plumber.addPort(port)
                        wiring.generation = next - 1
                    }
                }
                released = nil
                _ = released
                let fresh = makePlumber(next)
                let added = wiring.withLock { wiring -> Bool in
                    guard wiring.plumber == nil else { return false }
                    // Fails while a dropped plumber still runs its queue; tried again later.
                    guard (try? fresh.addPort(port)) != nil else { return false }
                    wiring.plumber = fresh
                    wiring.generation = next
                    return true
                }
                if added { next += 1 }
                rounds.add(1, ordering: .relaxed)
            }
        }
        #expect(finished)
        let emitted = expected.withLock { $0.count }
        #expect(emitted == 4 * perThread)
        await outcomes.wait(for: emitted)
        let (expectedNow, seenNow) = (expected.withLock { $0 }, seen.withLock { $0 })
        #expect(outcomes.value == emitted)
        #expect(seenNow.count == emitted)
        let plumbers = Set(expectedNow.values).count
        let rewired = rounds.load(ordering: .relaxed)
        print("stress: \(emitted) packets, \(rewired) rounds, \(plumbers) plumbers")
        let wrong = expectedNow.filter { key, generation in seenNow[key] != [generation] }
        #expect(wrong.isEmpty, "\(wrong.count) packets: \(Array(wrong.prefix(5)))")
        _ = wiring.withLock { $0.plumber.take() }
    }
}
