import ActionPipe
import Synchronization

/// The seed's login event: a business area (the type) with two subtypes.
struct BusTestLogin: BusEvent {
    enum Kind: Hashable, Sendable { case login, logout }
    let subtype: Kind
    let user: String
}

/// An event without subtype or payload.
struct BusTestPing: BusEvent {}

/// An event whose subscribers answer with a String.
struct BusTestQuery: BusEvent {
    typealias Feedback = String
    let question: String
}

/// The original's model: an optional integer subtype, where "no subtype" is a value of its
/// own that must not match events that have one.
struct BusTestLegacy: BusEvent {
    let subtype: Int?
}

/// What a ``BusTestCallingSubtype`` reads and counts: one per test, so tests that run at
/// once share nothing. Holds its bus weakly: the bus keeps the subtypes of its
/// subscriptions.
final class BusTestProbe: Sendable {
    weak let bus: EventBus?
    let comparisons = TestLock(0)
    let hashes = TestLock(0)

    init(_ bus: EventBus) { self.bus = bus }
}

/// A subtype whose `==` and `hash(into:)` read its probe's bus: app code that a bus must not
/// run under its lock (reading `subscriptionCount` takes it).
struct BusTestCallingSubtype: Hashable, Sendable {
    let value: Int
    let probe: BusTestProbe

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.probe.comparisons.withLock { $0 += 1 }
        _ = lhs.probe.bus?.subscriptionCount
        return lhs.value == rhs.value
    }

    func hash(into hasher: inout Hasher) {
        probe.hashes.withLock { $0 += 1 }
        _ = probe.bus?.subscriptionCount
        hasher.combine(value)
    }
}

/// An event with a ``BusTestCallingSubtype``.
struct BusTestCallingEvent: BusEvent {
    let subtype: BusTestCallingSubtype
}

/// A subtype whose values all hash alike: their sticky events share one slot of the bus.
struct BusTestCollidingSubtype: Hashable, Sendable {
    let value: Int
    func hash(into hasher: inout Hasher) { hasher.combine(0) }
}

/// An event with a ``BusTestCollidingSubtype``.
struct BusTestCollidingEvent: BusEvent {
    let subtype: BusTestCollidingSubtype
    let writer: String
}

/// An error a handler throws.
struct BusTestError: Error, Equatable, CustomStringConvertible {
    let reason: String
    var description: String { "refused: \(reason)" }
}

/// A subscriber object whose lifetime the tests control.
final class BusTestSubscriber: Sendable, CustomStringConvertible {
    let name: String
    init(_ name: String) { self.name = name }
    var description: String { name }
}

/// A thread-safe, ordered record of what handlers did.
final class BusTestRecorder: Sendable {
    private let entries = TestLock<[String]>([])

    func record(_ entry: String) { entries.withLock { $0.append(entry) } }

    var all: [String] { entries.withLock { $0 } }

    func take() -> [String] {
        entries.withLock { entries in
            defer { entries.removeAll() }
            return entries
        }
    }
}

/// A serial queue of jobs the test runs by hand: an executor whose timing the test decides.
final class BusTestManualQueue: Sendable {
    private let jobs = TestLock<[@Sendable () -> Void]>([])

    var executor: BusExecutor {
        .custom { job in self.jobs.withLock { $0.append(job) } }
    }

    var pending: Int { jobs.withLock { $0.count } }

    /// Runs every queued job, in order (and the jobs they queue).
    func drain() {
        while true {
            let next = jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            guard let next else { return }
            next()
        }
    }
}

/// A topic of the login event.
let busTestLogins = BusTopic(BusTestLogin.self, .login)
/// The logout topic.
let busTestLogouts = BusTopic(BusTestLogin.self, .logout)
/// The ping topic.
let busTestPings = BusTopic(BusTestPing.self)
