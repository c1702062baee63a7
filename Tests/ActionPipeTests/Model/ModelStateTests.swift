import ActionPipe
import Foundation
import Testing

/// The leaf of the model's state tree.
final class ModelStateLeaf: ObservableState {
    let id: Int
    let c: ObservedProperty<Int>
    init(id: Int, c: Int) {
        self.id = id
        self.c = ObservedProperty(c, label: "leaf\(id).c")
    }
}

/// The middle of the model's state tree: a value and a replaceable leaf.
final class ModelStateMid: ObservableState {
    let id: Int
    let b: ObservedProperty<Int>
    let leaf: ObservedProperty<ModelStateLeaf>
    init(id: Int, b: Int, leaf: ModelStateLeaf) {
        self.id = id
        self.b = ObservedProperty(b, label: "mid\(id).b")
        self.leaf = ObservedProperty(leaf, label: "mid\(id).leaf")
    }
}

/// The root of the model's state tree: a value and a replaceable middle.
final class ModelStateRoot: ObservableState {
    let a = ObservedProperty(0, label: "root.a")
    let mid: ObservedProperty<ModelStateMid>
    init(mid: ModelStateMid) { self.mid = ObservedProperty(mid, label: "root.mid") }
}

/// An owner for `observe(by:)`; the test drops it to end observations.
final class ModelStateOwner: Sendable {}

/// Every delivery of one step, in the order the observers ran.
final class ModelStateDeliveries: Sendable {
    private let log = TestLock<[(observer: Int, value: String)]>([])

    func record(_ observer: Int, _ value: String) { log.withLock { $0.append((observer, value)) } }

    func take() -> [(observer: Int, value: String)] {
        log.withLock { log in
            defer { log = [] }
            return log
        }
    }
}

/// What an observer of the model observes.
enum ModelStateTarget: Equatable, CustomStringConvertible {
    case a, rootMid
    case b(mid: Int)
    case midLeaf(mid: Int)
    case c(leaf: Int)
    /// root.mid → b, root.mid → leaf → c, and mid(m).leaf → c: paths that follow replacements.
    case pathB, pathC
    case pathLeafC(mid: Int)

    var isPath: Bool {
        switch self {
        case .pathB, .pathC, .pathLeafC: true
        default: false
        }
    }

    var description: String {
        switch self {
        case .a: "root.a"
        case .rootMid: "root.mid"
        case .b(let mid): "mid\(mid).b"
        case .midLeaf(let mid): "mid\(mid).leaf"
        case .c(let leaf): "leaf\(leaf).c"
        case .pathB: "root.mid→b"
        case .pathC: "root.mid→leaf→c"
        case .pathLeafC(let mid): "mid\(mid).leaf→c"
        }
    }
}

/// The reference: plain dictionaries, and a loop over the observers in registration order.
struct ModelStateReference {
    struct Observer {
        let id: Int
        let target: ModelStateTarget
        let skipEqual: Bool
        let owner: Int?
        var active = true
        var lastSeen: String?
    }

    var a = 0
    var rootMid = 0
    var b: [Int: Int] = [:]
    var midLeaf: [Int: Int] = [:]
    var c: [Int: Int] = [:]
    var observers: [Observer] = []
    var delivered: [(observer: Int, value: String)] = []

    func value(of target: ModelStateTarget) -> String {
        switch target {
        case .a: "\(a)"
        case .rootMid: "m\(rootMid)"
        case .b(let mid): "\(b[mid]!)"
        case .midLeaf(let mid): "l\(midLeaf[mid]!)"
        case .c(let leaf): "\(c[leaf]!)"
        case .pathB: "\(b[rootMid]!)"
        case .pathC: "\(c[midLeaf[rootMid]!]!)"
        case .pathLeafC(let mid): "\(c[midLeaf[mid]!]!)"
        }
    }

    /// Delivers to every active observer for which `affected` holds, in registration order.
    mutating func deliver(_ affected: (ModelStateTarget) -> Bool) {
        for index in observers.indices where observers[index].active {
            let target = observers[index].target
            guard affected(target) else { continue }
            let value = value(of: target)
            // `.skipEqual` compares Int values; object values are not Equatable: all delivered.
            let comparable =
                !(target == .rootMid || { if case .midLeaf = target { true } else { false } }())
            if observers[index].skipEqual && comparable && observers[index].lastSeen == value {
                continue
            }
            observers[index].lastSeen = value
            delivered.append((observers[index].id, value))
        }
    }

    mutating func setA(_ value: Int) {
        a = value
        deliver { $0 == .a }
    }

    mutating func setB(mid: Int, _ value: Int) {
        b[mid] = value
        let current = rootMid
        deliver { $0 == .b(mid: mid) || ($0 == .pathB && mid == current) }
    }

    mutating func setC(leaf: Int, _ value: Int) {
        c[leaf] = value
        let viaRoot = midLeaf[rootMid] == leaf
        let mids = Set(midLeaf.filter { $0.value == leaf }.map(\.key))
        deliver { target in
            switch target {
            case .c(let observed): observed == leaf
            case .pathC: viaRoot
            case .pathLeafC(let mid): mids.contains(mid)
            default: false
            }
        }
    }

    mutating func setRootMid(_ mid: Int) {
        rootMid = mid
        deliver { $0 == .rootMid || $0 == .pathB || $0 == .pathC }
    }

    mutating func setMidLeaf(mid: Int, _ leaf: Int) {
        midLeaf[mid] = leaf
        let viaRoot = mid == rootMid
        deliver { target in
            switch target {
            case .midLeaf(let observed), .pathLeafC(let observed): observed == mid
            case .pathC: viaRoot
            default: false
            }
        }
    }
}

@Suite("Model: observable state", .hangBound)
struct ModelStateTests {
    static let sequences = 300
    static let steps = 60

    @Test("Random sets, observers, cancels, dropped owners and replaced sub-states match the model")
    func randomStateMatchesTheModel() throws {
        let run = SeededRun(defaultSeed: 0x5EED_AC71_0B1E_0001, sequences: Self.sequences)
        var deliveries = 0
        for index in run.sequences {
            deliveries += checkOneSequence(run: run, index: index)
        }
        print(
            "ModelStateTests: \(run.sequences.count) sequences of \(Self.steps) steps, "
                + "\(deliveries) deliveries, seed \(run.seed)")
    }

    // One sequence: a state tree, random operations, a comparison after every step.
    private func checkOneSequence(run: SeededRun, index: Int) -> Int {
        var random = run.random(index)
        let log = ModelStateDeliveries()
        var model = ModelStateReference()
        var leaves: [ModelStateLeaf] = []
        var mids: [ModelStateMid] = []
        func newLeaf() -> ModelStateLeaf {
            let leaf = ModelStateLeaf(id: leaves.count, c: random.int(0...3))
            leaves.append(leaf)
            model.c[leaf.id] = leaf.c.value
            return leaf
        }
        func newMid() -> ModelStateMid {
            let leaf =
                random.chance(70, in: 100) || leaves.isEmpty ? newLeaf() : random.pick(leaves)
            let mid = ModelStateMid(id: mids.count, b: random.int(0...3), leaf: leaf)
            mids.append(mid)
            model.b[mid.id] = mid.b.value
            model.midLeaf[mid.id] = leaf.id
            return mid
        }
        let root = ModelStateRoot(mid: newMid())
        model.rootMid = 0
        var tokens: [Int: RegistrationToken] = [:]
        var owners: [Int: ModelStateOwner] = [:]
        var weakOwners: [Int: () -> Bool] = [:]  // owner index -> "is it gone?"
        var nextObserver = 0
        var total = 0

        for step in 0..<Self.steps {
            var action = ""
            switch random.int(0...19) {
            case 0...2:
                let value = random.int(0...3)
                action = "root.a = \(value)"
                root.a.value = value
                model.setA(value)
            case 3...4:
                let mid = random.pick(mids)
                let value = random.int(0...3)
                action = "mid\(mid.id).b = \(value)"
                mid.b.value = value
                model.setB(mid: mid.id, value)
            case 5...7:
                let leaf = random.pick(leaves)
                let value = random.int(0...3)
                action = "leaf\(leaf.id).c = \(value)"
                leaf.c.value = value
                model.setC(leaf: leaf.id, value)
            case 8...9:
                let mid = random.chance(50, in: 100) ? newMid() : random.pick(mids)
                action = "root.mid = mid\(mid.id)"
                root.mid.value = mid
                model.setRootMid(mid.id)
            case 10...11:
                let mid = random.pick(mids)
                let leaf = random.chance(50, in: 100) ? newLeaf() : random.pick(leaves)
                action = "mid\(mid.id).leaf = leaf\(leaf.id)"
                mid.leaf.value = leaf
                model.setMidLeaf(mid: mid.id, leaf.id)
            case 12...15:
                let target: ModelStateTarget =
                    switch random.int(0...7) {
                    case 0: .a
                    case 1: .rootMid
                    case 2: .b(mid: random.pick(mids).id)
                    case 3: .midLeaf(mid: random.pick(mids).id)
                    case 4: .c(leaf: random.pick(leaves).id)
                    case 5: .pathB
                    case 6: .pathC
                    default: .pathLeafC(mid: random.pick(mids).id)
                    }
                var options: ObservationOptions = []
                if random.chance(40, in: 100) { options.insert(.initial) }
                if random.chance(40, in: 100) { options.insert(.skipEqual) }
                let id = nextObserver
                nextObserver += 1
                var ownerIndex: Int?
                if random.chance(40, in: 100) {
                    if !owners.isEmpty && random.chance(50, in: 100) {
                        ownerIndex = random.pick(Array(owners.keys).sorted())
                    } else {
                        ownerIndex = id
                        let owner = ModelStateOwner()
                        owners[id] = owner
                        weak let weakOwner = owner
                        weakOwners[id] = { weakOwner == nil }
                    }
                }
                action =
                    "observe \(target) \(options.contains(.initial) ? "initial " : "")"
                    + "\(options.contains(.skipEqual) ? "skipEqual " : "")"
                    + "\(ownerIndex.map { "by owner\($0)" } ?? "")"
                let owner = ownerIndex.flatMap { owners[$0] }
                tokens[id] = observe(
                    target, options, owner: owner, id: id, root: root, mids: mids, leaves: leaves,
                    log: log)
                model.observers.append(
                    .init(
                        id: id, target: target, skipEqual: options.contains(.skipEqual),
                        owner: ownerIndex, lastSeen: model.value(of: target)))
                if options.contains(.initial) {
                    let value = model.value(of: target)
                    model.delivered.append((id, value))
                }
            case 16...17:
                guard
                    let observer = random.pickIfAny(model.observers.filter { $0.owner == nil })
                else { continue }
                let cancelled = tokens[observer.id]!.cancel()
                action = "cancel observer\(observer.id)"
                run.expect(
                    cancelled == observer.active,
                    "sequence \(index) step \(step): cancel returned \(cancelled)", sequence: index)
                let position = model.observers.firstIndex { $0.id == observer.id }!
                model.observers[position].active = false
            default:
                guard let ownerIndex = random.pickIfAny(owners.keys.sorted()) else {
                    continue
                }
                action = "drop owner\(ownerIndex)"
                owners[ownerIndex] = nil
                for position in model.observers.indices
                where model.observers[position].owner == ownerIndex {
                    model.observers[position].active = false
                }
                run.expect(
                    weakOwners[ownerIndex]!(),
                    "sequence \(index) step \(step): owner\(ownerIndex) is still alive after "
                        + "\(action): observing must not keep an owner", sequence: index)
            }
            let seen = log.take()
            let expected = model.delivered
            model.delivered = []
            total += seen.count
            var seenBy: [Int: [String]] = [:]
            var expectedBy: [Int: [String]] = [:]
            for delivery in seen { seenBy[delivery.observer, default: []].append(delivery.value) }
            for delivery in expected {
                expectedBy[delivery.observer, default: []].append(delivery.value)
            }
            // Observers of one property run in registration order; paths hang on links that
            // re-register when they move, so only their own sequence is compared.
            let direct = Set(model.observers.filter { !$0.target.isPath }.map(\.id))
            let seenDirect = seen.filter { direct.contains($0.observer) }.map(\.observer)
            let expectedDirect = expected.filter { direct.contains($0.observer) }.map(\.observer)
            run.expect(
                seenBy == expectedBy && seenDirect == expectedDirect,
                "sequence \(index) step \(step) (\(action)): delivered \(seen), model \(expected)",
                sequence: index)
            for observer in model.observers where observer.owner == nil {
                run.expect(
                    tokens[observer.id]!.isActive == observer.active,
                    "sequence \(index) step \(step): observer\(observer.id) isActive",
                    sequence: index)
            }
        }
        // Values read back through the state and through paths match the model.
        run.expect(
            root.a.value == model.a && root.mid.value.id == model.rootMid
                && "\(root.mid.then(\.b).value)" == model.value(of: .pathB)
                && "\(root.mid.then(\.leaf).then(\.c).value)" == model.value(of: .pathC),
            "sequence \(index): values differ at the end", sequence: index)
        return total
    }

    private func observe(
        _ target: ModelStateTarget, _ options: ObservationOptions, owner: ModelStateOwner?, id: Int,
        root: ModelStateRoot, mids: [ModelStateMid], leaves: [ModelStateLeaf],
        log: ModelStateDeliveries
    ) -> RegistrationToken {
        func on<Value>(
            _ property: ObservedProperty<Value>, _ show: @escaping @Sendable (Value) -> String
        )
            -> RegistrationToken
        {
            if let owner {
                return property.observe(options, owner: owner) { _, value in
                    log.record(id, show(value))
                }
            }
            return property.observe(options) { log.record(id, show($0)) }
        }
        func on(_ path: ObservedPath<Int>) -> RegistrationToken {
            if let owner {
                return path.observe(options, owner: owner) { _, value in log.record(id, "\(value)")
                }
            }
            return path.observe(options) { log.record(id, "\($0)") }
        }
        switch target {
        case .a: return on(root.a) { "\($0)" }
        case .rootMid: return on(root.mid) { "m\($0.id)" }
        case .b(let mid): return on(mids[mid].b) { "\($0)" }
        case .midLeaf(let mid): return on(mids[mid].leaf) { "l\($0.id)" }
        case .c(let leaf): return on(leaves[leaf].c) { "\($0)" }
        case .pathB: return on(root.mid.then(\.b))
        case .pathC: return on(root.mid.then(\.leaf).then(\.c))
        case .pathLeafC(let mid): return on(mids[mid].leaf.then(\.c))
        }
    }
}
