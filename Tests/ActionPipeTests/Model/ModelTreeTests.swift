import ActionPipe
import Foundation
import Testing

/// The shape and the failure plan of one random tree (a DAG: a node may sit under several
/// parents). Every decision is a pure function of the node, its input and the salt, so
/// providers running concurrently decide the same way whatever the schedule.
struct ModelTreeSpec: Sendable {
    var names: [String]
    var children: [[Int]]
    var nodeAttempts: [Int?]
    var runAttempts: Int
    var salt: UInt64
    var maxFanOut: Int
    var failPercent: Int

    func fanOut(_ node: Int, _ input: String) -> Int {
        // The root item always has work below it; deeper items often fan out less.
        let hash = SeededRandom.hash("fan|\(names[node])|\(input)", salt)
        let fan = Int(hash % UInt64(maxFanOut + 1))
        return input == "r" ? max(1, fan) : fan
    }

    /// How many times the call fails before it succeeds (0: never fails).
    func failures(_ what: String) -> Int {
        let hash = SeededRandom.hash("fail|\(what)", salt)
        guard Int(hash % 100) < failPercent else { return 0 }
        return 1 + Int((hash >> 8) % 4)
    }

    func objectFailures(_ node: Int, _ input: String) -> Int {
        failures("objects|\(names[node])|\(input)")
    }

    func workFailures(_ key: String) -> Int { failures("work|\(key)") }

    func attempts(_ node: Int) -> Int { max(1, nodeAttempts[node] ?? runAttempts) }

    func itemKey(_ node: Int, _ input: String, _ index: Int) -> String {
        "\(input)/\(names[node]).\(index)"
    }

    static func random(_ random: inout SeededRandom) -> ModelTreeSpec {
        let count = random.int(2...7)
        var children: [[Int]] = Array(repeating: [], count: count)
        for node in 1..<max(1, count) where count > 1 {
            // Every node but the root gets a parent before it, sometimes two: a DAG.
            children[random.int(0...node - 1)].append(node)
            if node > 1 && random.chance(15, in: 100) {
                let second = random.int(0...node - 1)
                if !children[second].contains(node) { children[second].append(node) }
            }
        }
        return ModelTreeSpec(
            names: (0..<count).map { "n\($0)" }, children: children,
            nodeAttempts: (0..<count).map { _ in
                random.chance(30, in: 100) ? random.int(1...4) : nil
            },
            runAttempts: random.int(1...4), salt: random.next(), maxFanOut: random.int(1...4),
            failPercent: random.pick([0, 10, 25, 50]))
    }
}

/// What the model says happens to one item.
struct ModelTreeReferenceItem {
    let key: String
    let node: String
    let parent: String?
    let index: Int
    let attempts: Int
    let succeeded: Bool
}

/// The obviously correct reference: plain recursion over the spec.
struct ModelTreeReference {
    var items: [String: ModelTreeReferenceItem] = [:]
    /// Objects calls: "node|input" -> (attempts, gave up).
    var objectCalls: [String: (attempts: Int, gaveUp: Bool)] = [:]
    var succeeded = 0
    var retries = 0
    /// Failures that gave up: (node, stage, object, attempts).
    var failures: [String] = []
    /// With a limit of 1, the order in which items first start.
    var sequentialOrder: [String] = []

    init(_ spec: ModelTreeSpec, depthFirst: Bool) {
        // A deque walk, as the runner's queue does with one worker.
        var queue: [(node: Int, key: String, parent: String?, index: Int)] = []
        queue = expand(spec, node: 0, input: "r", parent: nil)
        while !queue.isEmpty {
            let next = queue.removeFirst()
            sequentialOrder.append(next.key)
            let planned = spec.workFailures(next.key)
            let limit = spec.attempts(next.node)
            let ok = planned < limit
            let attempts = ok ? planned + 1 : limit
            retries += attempts - 1
            items[next.key] = ModelTreeReferenceItem(
                key: next.key, node: spec.names[next.node], parent: next.parent,
                index: next.index, attempts: attempts, succeeded: ok)
            guard ok else {
                failures.append("\(spec.names[next.node]) work \(next.key) \(attempts)")
                continue
            }
            succeeded += 1
            var produced: [(node: Int, key: String, parent: String?, index: Int)] = []
            for child in spec.children[next.node] {
                produced += expand(spec, node: child, input: next.key, parent: next.key)
            }
            queue = depthFirst ? produced + queue : queue + produced
        }
    }

    private mutating func expand(_ spec: ModelTreeSpec, node: Int, input: String, parent: String?)
        -> [(node: Int, key: String, parent: String?, index: Int)]
    {
        let planned = spec.objectFailures(node, input)
        let limit = spec.attempts(node)
        let ok = planned < limit
        let attempts = ok ? planned + 1 : limit
        retries += attempts - 1
        objectCalls["\(spec.names[node])|\(input)"] = (attempts, !ok)
        guard ok else {
            failures.append("\(spec.names[node]) objects \(input) \(attempts)")
            return []
        }
        return (0..<spec.fanOut(node, input)).map {
            (node, spec.itemKey(node, input, $0), parent, $0)
        }
    }
}

/// Counts provider calls by what they were called for.
final class ModelTreeCalls: Sendable {
    private let counts = TestLock<[String: Int]>([:])

    func bump(_ key: String) -> Int {
        counts.withLock { counts in
            counts[key, default: 0] += 1
            return counts[key]!
        }
    }

    var all: [String: Int] { counts.withLock { $0 } }
}

struct ModelTreeFailure: Error, CustomStringConvertible {
    let what: String
    var description: String { "planned failure of \(what)" }
}

/// Builds the real tree of a spec; calls are counted in `calls`.
func modelTreeBuild(_ spec: ModelTreeSpec, calls: ModelTreeCalls, yieldPercent: Int) throws
    -> OperationTreeNode<String, String>
{
    let nodes = spec.names.indices.map { index in
        let name = spec.names[index]
        return OperationTreeNode<String, String>(
            name,
            retry: spec.nodeAttempts[index].map { OperationTreeRetryPolicy(maxAttempts: $0) },
            objects: { (input: String) in
                let call = calls.bump("objects|\(name)|\(input)")
                if call <= spec.objectFailures(index, input) {
                    throw ModelTreeFailure(what: "objects \(name) \(input) call \(call)")
                }
                return (0..<spec.fanOut(index, input)).map { spec.itemKey(index, input, $0) }
            },
            work: { (key: String) in
                let call = calls.bump("work|\(key)")
                if Int(SeededRandom.hash("yield|\(key)|\(call)", spec.salt) % 100) < yieldPercent {
                    await Task.yield()
                }
                if call <= spec.workFailures(key) {
                    throw ModelTreeFailure(what: "work \(key) call \(call)")
                }
                return key
            })
    }
    for (parent, children) in spec.children.enumerated() {
        for child in children { try nodes[parent].addChild(nodes[child]) }
    }
    return nodes[0]
}

@Suite("Model: the operation tree", .hangBound)
struct ModelTreeTests {
    static let trees = 1000
    static let failFastTrees = 150

    @Test("Random trees with random failures and retries match the model item by item")
    func randomTreesMatchTheModel() async throws {
        let run = SeededRun(defaultSeed: 0x5EED_AC71_0B1E_0001, sequences: Self.trees)
        var items = 0
        for index in run.sequences {
            do {
                items += try await checkOneTree(run: run, index: index)
            } catch {
                run.record(error, sequence: index)
                break
            }
        }
        print(
            "ModelTreeTests: \(run.sequences.count) random trees, \(items) items, seed \(run.seed)")
    }

    /// Runs one random tree and compares everything with the model; returns its item count.
    private func checkOneTree(run: SeededRun, index: Int) async throws -> Int {
        var random = run.random(index)
        var spec = ModelTreeSpec.random(&random)
        let depthFirst = random.chance(50, in: 100)
        var model = ModelTreeReference(spec, depthFirst: depthFirst)
        while model.items.count > 150 {  // keep each run small: fewer items, same variety
            spec.maxFanOut = max(0, spec.maxFanOut - 1)
            model = ModelTreeReference(spec, depthFirst: depthFirst)
        }
        let limit = random.pick([1, 1, 2, 3, 4])
        let withEvents = random.chance(70, in: 100)
        let calls = ModelTreeCalls()
        let root = try modelTreeBuild(spec, calls: calls, yieldPercent: random.pick([0, 30]))
        let options = OperationTreeOptions(
            concurrencyLimit: limit, retry: OperationTreeRetryPolicy(maxAttempts: spec.runAttempts),
            order: depthFirst ? .depthFirst : .breadthFirst)
        let report: OperationTreeReport
        var events: [OperationTreeEvent] = []
        if withEvents {
            let treeRun = root.start("r", options: options)
            for await event in treeRun.events { events.append(event) }
            report = await treeRun.report
        } else {
            report = await root.run("r", options: options)
        }
        let context = "tree \(index): \(spec.names.count) nodes \(spec.children), limit \(limit)"

        // Every provider call, counted where it happened.
        var expectedCalls: [String: Int] = [:]
        for item in model.items.values { expectedCalls["work|\(item.key)"] = item.attempts }
        for (call, outcome) in model.objectCalls {
            expectedCalls["objects|\(call)"] = outcome.attempts
        }
        run.expect(calls.all == expectedCalls, "\(context): calls differ", sequence: index)

        // The report.
        run.expect(
            report.outcome == .completed, "\(context): outcome \(report.outcome)", sequence: index)
        run.expect(
            report.succeededCount == model.succeeded,
            "\(context): succeeded \(report.succeededCount), model \(model.succeeded)",
            sequence: index)
        run.expect(
            report.retryCount == model.retries,
            "\(context): retries \(report.retryCount), model \(model.retries)", sequence: index)
        run.expect(
            report.notStartedCount == 0, "\(context): notStarted \(report.notStartedCount)",
            sequence: index)
        run.expect(
            report.peakConcurrency <= limit,
            "\(context): peak \(report.peakConcurrency) > \(limit)", sequence: index)
        let failures = report.failures.map {
            "\($0.node) \($0.stage == .work ? "work" : "objects") \($0.object) \($0.attempts)"
        }
        run.expect(
            failures.sorted() == model.failures.sorted(),
            "\(context): failures \(failures), model \(model.failures)", sequence: index)
        if withEvents {
            checkEvents(events, model: model, limit: limit, run: run, index: index, context)
        }
        return model.items.count
    }

    /// Checks the event stream: per item, the table's order; children after the parent's
    /// `produced`; `finished` post-order; ids, parents and indexes.
    private func checkEvents(
        _ events: [OperationTreeEvent], model: ModelTreeReference, limit: Int, run: SeededRun,
        index: Int,
        _ context: String
    ) {
        var perItem: [String: [String]] = [:]
        var keyOfID: [Int: String] = [:]
        var producedAt: [String: Int] = [:]
        var firstStartAt: [String: Int] = [:]
        var finishedAt: [String: Int] = [:]
        var firstStarts: [String] = []
        var objectFailures: [String] = []
        for (position, event) in events.enumerated() {
            guard let item = event.item else {
                if case .failed(let failure) = event {
                    objectFailures.append(
                        "\(failure.node) objects \(failure.object) \(failure.attempts)")
                }
                continue
            }
            let key = item.object as? String ?? "?"
            if let known = keyOfID[item.id], known != key {
                run.expect(
                    false, "\(context): id \(item.id) is \(known) and \(key)", sequence: index)
            }
            keyOfID[item.id] = key
            switch event {
            case .started(_, let attempt):
                perItem[key, default: []].append("started \(attempt)")
                if firstStartAt[key] == nil {
                    firstStartAt[key] = position
                    firstStarts.append(key)
                }
            case .produced(_, let output):
                perItem[key, default: []].append("produced \(output)")
                producedAt[key] = position
            case .retrying(let failure, _):
                perItem[key, default: []].append("retrying \(failure.attempts)")
            case .failed(let failure):
                perItem[key, default: []].append("failed \(failure.attempts)")
            case .finished(_, let output):
                perItem[key, default: []].append("finished \(output.map { "\($0)" } ?? "nil")")
                finishedAt[key] = position
            }
            if let expected = model.items[key] {
                run.expect(
                    item.node == expected.node && item.index == expected.index,
                    "\(context): \(item) is not node \(expected.node) index \(expected.index)",
                    sequence: index)
            } else {
                run.expect(
                    false, "\(context): an item the model does not have: \(item)", sequence: index)
            }
        }
        run.expect(
            objectFailures.sorted() == model.failures.filter { $0.contains(" objects ") }.sorted(),
            "\(context): objects failures \(objectFailures)", sequence: index)
        for item in model.items.values {
            var expected: [String] = []
            for attempt in 1...item.attempts {
                expected.append("started \(attempt)")
                if attempt < item.attempts { expected.append("retrying \(attempt)") }
            }
            if item.succeeded {
                expected += ["produced \(item.key)", "finished \(item.key)"]
            } else {
                expected += ["failed \(item.attempts)", "finished nil"]
            }
            run.expect(
                perItem[item.key] == expected,
                "\(context): events of \(item.key): \(perItem[item.key] ?? []), model \(expected)",
                sequence: index)
            guard let parent = item.parent else { continue }
            run.expect(
                (producedAt[parent] ?? .max) < (firstStartAt[item.key] ?? -1),
                "\(context): \(item.key) started before its parent produced", sequence: index)
            run.expect(
                (finishedAt[item.key] ?? .max) < (finishedAt[parent] ?? -1),
                "\(context): \(parent) finished before its child \(item.key)", sequence: index)
        }
        let parentIDs = events.compactMap { event -> (String, Int?)? in
            guard case .started(let item, 1) = event else { return nil }
            return (item.object as? String ?? "?", item.parentID)
        }
        for (key, parentID) in parentIDs {
            let expected = model.items[key]?.parent
            run.expect(
                parentID.flatMap { keyOfID[$0] } == expected,
                "\(context): parent of \(key) is \(parentID.map(String.init) ?? "nil")",
                sequence: index)
        }
        if limit == 1 {
            run.expect(
                firstStarts == model.sequentialOrder,
                "\(context): order \(firstStarts), model \(model.sequentialOrder)", sequence: index)
        }
    }

    @Test("Fail-fast: stops exactly when the model has a failure that survives its retries")
    func failFastMatchesTheModel() async throws {
        let run = SeededRun(defaultSeed: 0x5EED_AC71_0B1E_0001, sequences: Self.failFastTrees)
        for index in run.sequences {
            var random = run.random(index)
            var spec = ModelTreeSpec.random(&random)
            spec.failPercent = max(spec.failPercent, 10)
            var model = ModelTreeReference(spec, depthFirst: true)
            while model.items.count > 150 {
                spec.maxFanOut = max(0, spec.maxFanOut - 1)
                model = ModelTreeReference(spec, depthFirst: true)
            }
            let calls = ModelTreeCalls()
            let root: OperationTreeNode<String, String>
            do {
                root = try modelTreeBuild(spec, calls: calls, yieldPercent: 30)
            } catch {
                run.record(error, sequence: index)
                break
            }
            let limit = random.int(1...4)
            let report = await root.run(
                "r",
                options: .init(
                    concurrencyLimit: limit,
                    retry: OperationTreeRetryPolicy(maxAttempts: spec.runAttempts), failFast: true))
            let context = "fail-fast tree \(index), limit \(limit)"
            let failures = report.failures.map {
                "\($0.node) \($0.stage == .work ? "work" : "objects") \($0.object) \($0.attempts)"
            }
            if model.failures.isEmpty {
                run.expect(
                    report.outcome == .completed && report.succeededCount == model.succeeded
                        && failures.isEmpty,
                    "\(context): \(report)", sequence: index)
            } else {
                run.expect(
                    report.outcome == .stoppedByFailure && !failures.isEmpty,
                    "\(context): \(report)", sequence: index)
                run.expect(
                    Set(failures).isSubset(of: model.failures),
                    "\(context): failures \(failures) not in the model's \(model.failures)",
                    sequence: index)
            }
            for (call, count) in calls.all {
                let modelCount =
                    call.hasPrefix("work|")
                    ? model.items[String(call.dropFirst(5))]?.attempts
                    : model.objectCalls[String(call.dropFirst(8))]?.attempts
                run.expect(
                    count <= (modelCount ?? 0),
                    "\(context): \(call) ran \(count) times, model \(modelCount ?? 0)",
                    sequence: index)
            }
        }
        print("ModelTreeTests: \(run.sequences.count) fail-fast trees, seed \(run.seed)")
    }
}
