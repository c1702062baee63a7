import ActionPipe
import Foundation
import Testing

/// The payload of the plumbing model: an id to follow it, a value the stages rewrite, and
/// the trail of stages that passed it.
struct ModelPlumbPacket: Sendable, Equatable {
    var id: Int
    var value: Int
    var trail: [String] = []
}

struct ModelPlumbError: Error, Equatable, CustomStringConvertible {
    let stage: String
    let id: Int
    var description: String { "stage \(stage) threw for packet \(id)" }
}

/// What one stage does: a pure function of the packet, so the model can run it too.
struct ModelPlumbRule: Sendable {
    enum Kind: Sendable { case rewrite, refuse, fail, replace }
    let name: String
    let kind: Kind
    let modulus: Int
    let remainder: Int
    let add: Int
    let isAsync: Bool

    static func random(_ random: inout SeededRandom, name: String) -> ModelPlumbRule {
        ModelPlumbRule(
            name: name, kind: random.pick([.rewrite, .rewrite, .refuse, .fail, .replace]),
            modulus: random.int(2...6), remainder: random.int(0...1), add: random.int(1...9),
            isAsync: random.chance(30, in: 100))
    }

    /// The model's (and the real stage's) verdict; changes `packet` when it passes.
    func apply(_ packet: inout PlumbingPacket<ModelPlumbPacket>) throws -> PlumbingVerdict {
        let hit = packet.value % modulus == remainder
        switch kind {
        case .refuse where hit: return .stop("\(name) refuses \(packet.value)")
        case .fail where hit: throw ModelPlumbError(stage: name, id: packet.id)
        case .replace:
            var payload = packet.payload
            payload.value = (payload.value * 3 + add) % 1_000
            payload.trail.append(name)
            packet = PlumbingPacket(payload, port: packet.port)
        default:
            packet.value = (packet.value + add) % 1_000
            packet.trail.append(name)
        }
        return .pass
    }
}

/// A stage object, for half of the rules (the other half are closures).
struct ModelPlumbRuleStage: PlumbingStage {
    let rule: ModelPlumbRule
    var name: String { rule.name }
    func receive(_ packet: inout PlumbingPacket<ModelPlumbPacket>) throws -> PlumbingVerdict {
        try rule.apply(&packet)
    }
}

struct ModelPlumbAsyncRuleStage: AsyncPlumbingStage {
    let rule: ModelPlumbRule
    var name: String { rule.name }
    func receive(_ packet: inout PlumbingPacket<ModelPlumbPacket>) async throws -> PlumbingVerdict {
        await Task.yield()
        return try rule.apply(&packet)
    }
}

/// Everything sinks and observers saw: one line per packet, keyed by packet id, plus the
/// order per port number.
final class ModelPlumbSeen: Sendable {
    private struct State: Sendable {
        var lines: [Int: [String]] = [:]
        var order: [Int: [Int]] = [:]
        var count = 0
        /// A test waiting for a count of lines.
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }
    private let state = TestLock(State())

    func record(_ id: Int, port: Int, _ line: String) {
        let ready = state.withLock { state in
            state.lines[id, default: []].append(line)
            state.order[port, default: []].append(id)
            state.count += 1
            let count = state.count
            defer { state.waiters.removeAll { $0.count <= count } }
            return state.waiters.filter { $0.count <= count }.map(\.continuation)
        }
        for waiter in ready { waiter.resume() }
    }

    /// Suspends until `count` lines were recorded since the last `take()`, or the task is
    /// cancelled (the suite's time limit).
    func wait(for count: Int) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Bool in
                    if state.count >= count || Task.isCancelled { return true }
                    state.waiters.append((count, continuation))
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let stuck = state.withLock { state in
                defer { state.waiters = [] }
                return state.waiters.map(\.continuation)
            }
            for waiter in stuck { waiter.resume() }
        }
    }

    func take() -> (lines: [Int: [String]], order: [Int: [Int]]) {
        state.withLock { state in
            defer { (state.lines, state.order, state.count) = ([:], [:], 0) }
            return (state.lines, state.order)
        }
    }
}

/// One line that describes an outcome, the same for the model and the library.
func modelPlumbDescribe(_ outcome: PlumbingOutcome<ModelPlumbPacket>) -> String {
    outcome.wasDelivered
        ? modelPlumbDescribeDelivered(outcome.packet) : modelPlumbDescribeStop(outcome)
}

func modelPlumbDescribeDelivered(_ packet: PlumbingPacket<ModelPlumbPacket>) -> String {
    "delivered #\(packet.id) port \(packet.port) value \(packet.value) trail \(packet.trail)"
}

func modelPlumbDescribeStop(_ stop: PlumbingOutcome<ModelPlumbPacket>) -> String {
    let reason: String
    if let refusal = stop.reason?.refusal {
        reason = "refused \(refusal)"
    } else if let error = stop.reason?.error {
        reason = "failed \(error)"
    } else if stop.reason?.isStageAsync == true {
        reason = "async"
    } else if stop.reason?.isPortNotConnected == true {
        reason = "not connected"
    } else {
        reason = stop.reason?.description ?? "delivered"
    }
    return "stopped #\(stop.packet.id) port \(stop.packet.port) at \(stop.stage ?? "-") "
        + "after \(stop.stagesPassed) of \(stop.stageCount) trail \(stop.packet.trail): \(reason)"
}

/// The reference: a plumber is a list of rules; a packet runs them in a loop.
struct ModelPlumbReference {
    let name: String
    var rules: [ModelPlumbRule] = []
    var sinkGeneration = 0

    func run(_ payload: ModelPlumbPacket, port: Int, synchronous: Bool) -> (String, delivered: Bool)
    {
        var packet = PlumbingPacket(payload, port: port)
        for (index, rule) in rules.enumerated() {
            let before = packet
            if synchronous && rule.isAsync {
                return (stopLine(before, rule.name, index, "async"), false)
            }
            do {
                if case .stop(let text) = try rule.apply(&packet) {
                    return (stopLine(packet, rule.name, index, "refused \(text)"), false)
                }
            } catch {
                return (stopLine(packet, rule.name, index, "failed \(error)"), false)
            }
        }
        return (modelPlumbDescribeDelivered(packet), true)
    }

    private func stopLine(
        _ packet: PlumbingPacket<ModelPlumbPacket>, _ stage: String, _ index: Int, _ reason: String
    ) -> String {
        "stopped #\(packet.id) port \(packet.port) at \(stage) after \(index) of \(rules.count) "
            + "trail \(packet.trail): \(reason)"
    }
}

@Suite("Model: plumbing", .hangBound)
struct ModelPlumbTests {
    static let sequences = 400

    @Test("Random stages, ports and packets: every packet's outcome and every port's order match")
    func randomPlumbingMatchesTheModel() async throws {
        let run = SeededRun(defaultSeed: 0x5EED_AC71_0B1E_0001, sequences: Self.sequences)
        var packets = 0
        for index in run.sequences {
            do {
                packets += try await checkOneSequence(run: run, index: index)
            } catch {
                run.record(error, sequence: index)
                break
            }
        }
        print(
            "ModelPlumbTests: \(run.sequences.count) sequences, \(packets) packets, seed \(run.seed)"
        )
    }

    private func checkOneSequence(run: SeededRun, index: Int) async throws -> Int {
        var random = run.random(index)
        let seen = ModelPlumbSeen()
        var models = [ModelPlumbReference(name: "p0"), ModelPlumbReference(name: "p1")]
        let plumbers = models.map { PipelinePlumber<ModelPlumbPacket>(name: $0.name) }
        for (number, plumber) in plumbers.enumerated() {
            plumber.onStop { stop in
                seen.record(stop.packet.id, port: stop.packet.port, modelPlumbDescribeStop(stop))
            }
            setSink(plumber, generation: 0, plumberIndex: number, seen)
        }
        // Port numbers are unique here so that per-port order can be read off the packets;
        // direct sends use numbers from 1000.
        let ports = (0..<3).map { PlumbingPort<ModelPlumbPacket>(10 + $0) }
        var owner: [Int?] = [nil, nil, nil]
        var nextID = 0
        var nextStage = 0
        var packetCount = 0
        for round in 0..<random.int(3...7) {
            let context = "sequence \(index) round \(round)"
            let firstID = nextID
            // Configuration, while no packet is in flight.
            for _ in 0..<random.int(0...3) {
                let target = random.int(0...1)
                switch random.int(0...9) {
                case 0...3:
                    let rule = ModelPlumbRule.random(&random, name: "s\(nextStage)")
                    nextStage += 1
                    models[target].rules.append(rule)
                    addStage(rule, to: plumbers[target], asObject: random.chance(50, in: 100))
                case 4...6:
                    let port = random.int(0...2)
                    let expectedError: PlumbingError? =
                        owner[port].flatMap { $0 == target ? nil : $0 }.map {
                            .portInUse(port: ports[port].number, plumber: models[$0].name)
                        }
                    do {
                        try plumbers[target].addPort(ports[port])
                        run.expect(
                            expectedError == nil, "\(context): addPort succeeded", sequence: index)
                        owner[port] = target
                    } catch {
                        run.expect(
                            error == expectedError, "\(context): addPort threw \(error)",
                            sequence: index
                        )
                    }
                case 7...8:
                    let port = random.int(0...2)
                    let removed = plumbers[target].removePort(ports[port])
                    run.expect(
                        removed == (owner[port] == target),
                        "\(context): removePort returned \(removed)", sequence: index)
                    if owner[port] == target { owner[port] = nil }
                default:
                    models[target].sinkGeneration += 1
                    setSink(
                        plumbers[target], generation: models[target].sinkGeneration,
                        plumberIndex: target, seen)
                }
            }
            for (number, plumber) in plumbers.enumerated() {
                run.expect(
                    plumber.stageNames == models[number].rules.map(\.name)
                        && Set(plumber.portNumbers)
                            == Set(ports.indices.filter { owner[$0] == number }.map { 10 + $0 })
                        && plumber.isSynchronous == !models[number].rules.contains(
                            where: \.isAsync),
                    "\(context): configuration of \(plumber.name) differs", sequence: index)
            }

            // Packets.
            var expected: [Int: [String]] = [:]
            var expectedOrder: [Int: [Int]] = [:]
            var returned: [Int: String] = [:]
            var modelReturned: [Int: String] = [:]
            func expect(_ id: Int, plumber: Int, port: Int, synchronous: Bool) -> String {
                let (line, delivered) = models[plumber].run(
                    ModelPlumbPacket(id: id, value: id % 97), port: port, synchronous: synchronous)
                let seenLine =
                    delivered ? "sink \(plumber).\(models[plumber].sinkGeneration) \(line)" : line
                expected[id, default: []].append(seenLine)
                expectedOrder[port, default: []].append(id)
                return line
            }
            for _ in 0..<random.int(1...12) {
                let id = nextID
                nextID += 1
                let payload = ModelPlumbPacket(id: id, value: id % 97)
                switch random.int(0...9) {
                case 0...3:
                    let port = random.int(0...2)
                    if let plumber = owner[port] {
                        _ = expect(
                            id, plumber: plumber, port: ports[port].number, synchronous: false)
                    }
                    ports[port].emit(payload)
                case 4...5:
                    let port = random.int(0...2)
                    if let plumber = owner[port] {
                        modelReturned[id] = expect(
                            id, plumber: plumber, port: ports[port].number, synchronous: false)
                    } else {
                        modelReturned[id] =
                            "stopped #\(id) port \(ports[port].number) at - after 0 of 0 trail []: "
                            + "not connected"
                    }
                    returned[id] = modelPlumbDescribe(await ports[port].process(payload))
                case 6...7:
                    let target = random.int(0...1)
                    modelReturned[id] = expect(id, plumber: target, port: 1_000, synchronous: true)
                    returned[id] = modelPlumbDescribe(plumbers[target].send(payload, from: 1_000))
                case 8:
                    let target = random.int(0...1)
                    modelReturned[id] = expect(id, plumber: target, port: 1_001, synchronous: false)
                    returned[id] = modelPlumbDescribe(
                        await plumbers[target].process(payload, from: 1_001))
                default:
                    // A burst of direct sends from several tasks at once: each outcome is
                    // independent of the schedule.
                    let target = random.int(0...1)
                    let count = random.int(2...6)
                    let ids = (0..<count).map { id + $0 }
                    nextID += count - 1
                    for burstID in ids {
                        modelReturned[burstID] = expect(
                            burstID, plumber: target, port: 2_000 + burstID, synchronous: false)
                    }
                    let plumber = plumbers[target]
                    let results = await withTaskGroup(of: (Int, String).self) { group in
                        for burstID in ids {
                            group.addTask {
                                let outcome = await plumber.process(
                                    ModelPlumbPacket(id: burstID, value: burstID % 97),
                                    from: 2_000 + burstID)
                                return (burstID, modelPlumbDescribe(outcome))
                            }
                        }
                        var results: [Int: String] = [:]
                        for await (burstID, line) in group { results[burstID] = line }
                        return results
                    }
                    returned.merge(results) { first, _ in first }
                }
            }
            let total = expected.values.reduce(0) { $0 + $1.count }
            packetCount += nextID - firstID
            // Emitted packets run on their ports' tasks: wait for every line, not for a time.
            await seen.wait(for: total)
            let (lines, order) = seen.take()
            run.expect(
                lines == expected,
                "\(context): seen \(lines.sorted { $0.key < $1.key }), model "
                    + "\(expected.sorted { $0.key < $1.key })", sequence: index)
            run.expect(
                order == expectedOrder, "\(context): order \(order), model \(expectedOrder)",
                sequence: index)
            run.expect(
                returned == modelReturned,
                "\(context): returned \(returned), model \(modelReturned)",
                sequence: index)
        }
        return packetCount
    }

    private func addStage(
        _ rule: ModelPlumbRule, to plumber: PipelinePlumber<ModelPlumbPacket>, asObject: Bool
    ) {
        switch (rule.isAsync, asObject) {
        case (false, true): plumber.addStage(ModelPlumbRuleStage(rule: rule))
        case (true, true): plumber.addStage(ModelPlumbAsyncRuleStage(rule: rule))
        case (false, false): plumber.addStage(rule.name) { packet in try rule.apply(&packet) }
        case (true, false):
            plumber.addStage(rule.name) { packet in
                await Task.yield()
                return try rule.apply(&packet)
            }
        }
    }

    private func setSink(
        _ plumber: PipelinePlumber<ModelPlumbPacket>, generation: Int, plumberIndex: Int,
        _ seen: ModelPlumbSeen
    ) {
        plumber.sink { packet in
            seen.record(
                packet.id, port: packet.port,
                "sink \(plumberIndex).\(generation) \(modelPlumbDescribeDelivered(packet))")
        }
    }
}
