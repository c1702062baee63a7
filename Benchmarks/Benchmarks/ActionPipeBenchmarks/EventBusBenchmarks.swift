// Benchmarks of the event bus (issue 5) against its peers, in the same run as the core's.
// Names start with the part's prefix; Scripts/targets/1-eventbus.json holds the rows
// `./run` prints.
//
// Every handler, of the bus and of every peer, does the same work: it adds the event's value
// to one counter through a pointer (no exclusivity check, no atomic), so the figures compare
// delivery, not handler bodies. 100-subscriber benchmarks make ten thousand publishes per
// iteration (a million handler calls), so the harness's own few mallocs per iteration stay
// below the report's zero threshold; the others make a million.

import ActionPipe
import Benchmark
import Foundation
import OpenCombine

/// The benchmarked event: a subtype (so the exact-subtype route is the one measured) and a
/// payload.
struct BusBenchEvent: BusEvent {
    enum Kind: Hashable, Sendable { case tick, tock }
    let subtype: Kind
    let value: Int
}

/// Where every benchmarked handler adds its value.
///
/// `@unchecked Sendable`: the benchmarks that use it publish from one thread, so the
/// pointer is never touched by two threads at once.
struct BusBenchSink: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Int>

    init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: 0)
    }

    @inline(__always) func add(_ value: Int) { pointer.pointee &+= value }

    var total: Int { pointer.pointee }
}

/// An event of another type, whose sticky events the sticky reads of `BusBenchEvent` must
/// not have to look at.
struct BusBenchOtherEvent: BusEvent {
    let subtype: Int
}

/// A subscriber object, for the subscriptions that end with their owner.
final class BusBenchOwner: Sendable {}

/// The honest baseline for one delivery: a call through an existential the optimiser cannot
/// see through (`identity` hides which type it is), to a stored closure.
protocol BusBenchHandling {
    func handle(_ event: BusBenchEvent)
}

/// The only implementation of `BusBenchHandling`: calls its stored closure.
final class BusBenchClosureHandler: BusBenchHandling {
    let body: (BusBenchEvent) -> Void
    init(_ body: @escaping (BusBenchEvent) -> Void) { self.body = body }
    func handle(_ event: BusBenchEvent) { body(event) }
}

/// Registers the event bus (issue 5) benchmarks.
func registerEventBusBenchmarks() {
    let kilo = Benchmark.Configuration(scalingFactor: .kilo)
    let tick = BusTopic(BusBenchEvent.self, .tick)

    // 100 subscribers, kept by their tokens: the shape of NotificationCenter's block
    // observers and OpenCombine's sinks.
    let bus100 = EventBus(name: "bench100")
    let sink100 = BusBenchSink()
    let tokens100 = (0..<100).map { _ in
        bus100.subscribe(tick) { event in sink100.add(event.value) }
    }
    // A subscriber to another subtype, which a publish of .tick must not reach.
    bus100.subscribe(BusTopic(BusBenchEvent.self, .tock)) { _ in fatalError("wrong subtype") }
    bus100.publish(BusBenchEvent(subtype: .tick, value: 1))
    check(sink100.total, 100, "bus, 100 subscribers")

    Benchmark("Bus publish 100 subscribers", configuration: kilo) { benchmark in
        for i in benchmark.scaledIterations {
            for j in 0..<10 {
                blackHole(bus100.publish(BusBenchEvent(subtype: .tick, value: i &+ j)))
            }
        }
        blackHole(tokens100)
    }

    // 100 subscriptions that end with their owner: each delivery checks the owner is alive.
    let busOwned = EventBus(name: "benchOwned")
    let sinkOwned = BusBenchSink()
    let owners = (0..<100).map { _ in BusBenchOwner() }
    for owner in owners {
        busOwned.subscribe(tick, owner: owner) { _, event in sinkOwned.add(event.value) }
    }
    busOwned.publish(BusBenchEvent(subtype: .tick, value: 1))
    check(sinkOwned.total, 100, "bus, 100 owned subscribers")

    Benchmark("Bus publish 100 owned subscribers", configuration: kilo) { benchmark in
        for i in benchmark.scaledIterations {
            for j in 0..<10 {
                blackHole(busOwned.publish(BusBenchEvent(subtype: .tick, value: i &+ j)))
            }
        }
        blackHole(owners)
    }

    // Peer: NotificationCenter, 100 block observers, synchronous post.
    let center = NotificationCenter()
    let name = Notification.Name("BusBench")
    let sinkCenter = BusBenchSink()
    let observers = (0..<100).map { _ in
        center.addObserver(forName: name, object: nil, queue: nil) { _ in sinkCenter.add(1) }
    }
    center.post(name: name, object: nil)
    check(sinkCenter.total, 100, "NotificationCenter, 100 observers")

    Benchmark("Bus Peer NotificationCenter 100 observers", configuration: kilo) { benchmark in
        for _ in benchmark.scaledIterations {
            for _ in 0..<10 { center.post(name: name, object: nil) }
        }
        blackHole(observers)
    }

    // The same peer with observers that hold their owner weakly, as the bus's owned
    // subscriptions do.
    let centerWeak = NotificationCenter()
    let sinkWeak = BusBenchSink()
    let weakObservers = owners.map { owner in
        centerWeak.addObserver(forName: name, object: nil, queue: nil) { [weak owner] _ in
            guard owner != nil else { return }
            sinkWeak.add(1)
        }
    }
    centerWeak.post(name: name, object: nil)
    check(sinkWeak.total, 100, "NotificationCenter, 100 weak-owner observers")

    Benchmark("Bus Peer NotificationCenter 100 weak-owner observers", configuration: kilo) {
        benchmark in
        for _ in benchmark.scaledIterations {
            for _ in 0..<10 { centerWeak.post(name: name, object: nil) }
        }
        blackHole(weakObservers)
    }

    // Peer: OpenCombine, a subject with 100 sinks.
    let subject = PassthroughSubject<BusBenchEvent, Never>()
    let sinkCombine = BusBenchSink()
    let cancellables = (0..<100).map { _ in subject.sink { event in sinkCombine.add(event.value) } }
    subject.send(BusBenchEvent(subtype: .tick, value: 1))
    check(sinkCombine.total, 100, "OpenCombine, 100 sinks")

    Benchmark("Bus Peer OpenCombine 100 sinks", configuration: kilo) { benchmark in
        for i in benchmark.scaledIterations {
            for j in 0..<10 { subject.send(BusBenchEvent(subtype: .tick, value: i &+ j)) }
        }
        blackHole(cancellables)
    }

    // One subscriber, against one call through an existential. The publish's result is
    // dropped, not black-holed: the baseline returns nothing, a publish cannot be optimised
    // away (its handler writes to the sink), and `blackHole` is an unspecialised generic call
    // the baseline does not make.
    let bus1 = EventBus(name: "bench1")
    let sink1 = BusBenchSink()
    let token1 = bus1.subscribe(tick) { event in sink1.add(event.value) }
    bus1.publish(BusBenchEvent(subtype: .tick, value: 1))
    check(sink1.total, 1, "bus, 1 subscriber")

    Benchmark("Bus publish 1 subscriber") { benchmark in
        for i in benchmark.scaledIterations {
            _ = bus1.publish(BusBenchEvent(subtype: .tick, value: i))
        }
        blackHole(token1)
    }

    Benchmark("Bus publish 1 subscriber, no-op instrument installed") { benchmark in
        Instrumentation.install(NoOpInstrument())
        defer { Instrumentation.uninstall() }
        for i in benchmark.scaledIterations {
            _ = bus1.publish(BusBenchEvent(subtype: .tick, value: i))
        }
        blackHole(token1)
    }

    let busOwned1 = EventBus(name: "benchOwned1")
    let sinkOwned1 = BusBenchSink()
    let owner1 = BusBenchOwner()
    busOwned1.subscribe(tick, owner: owner1) { _, event in sinkOwned1.add(event.value) }
    busOwned1.publish(BusBenchEvent(subtype: .tick, value: 1))
    check(sinkOwned1.total, 1, "bus, 1 owned subscriber")

    Benchmark("Bus publish 1 owned subscriber") { benchmark in
        for i in benchmark.scaledIterations {
            _ = busOwned1.publish(BusBenchEvent(subtype: .tick, value: i))
        }
        blackHole(owner1)
    }

    let sinkDirect = BusBenchSink()
    let direct: any BusBenchHandling = identity(
        BusBenchClosureHandler { event in sinkDirect.add(event.value) })
    direct.handle(BusBenchEvent(subtype: .tick, value: 1))
    check(sinkDirect.total, 1, "existential closure call")

    Benchmark("Bus Baseline existential closure call") { benchmark in
        for i in benchmark.scaledIterations {
            direct.handle(BusBenchEvent(subtype: .tick, value: i))
        }
    }

    // Reading every subtype's sticky event of a type is O(its own sticky events): 4,000
    // sticky events of another type beside it cost nothing.
    for others in [0, 4_000] {
        let bus = EventBus(name: "benchSticky")
        for subtype in 0..<others { bus.publishSticky(BusBenchOtherEvent(subtype: subtype)) }
        bus.publishSticky(BusBenchEvent(subtype: .tick, value: 1))
        let anyTick = BusTopic(anySubtypeOf: BusBenchEvent.self)
        check(bus.stickyEvent(for: anyTick)?.value ?? 0, 1, "bus, sticky read")
        Benchmark(
            "Bus sticky read anySubtypeOf, \(others) sticky events of another type",
            configuration: kilo
        ) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(bus.stickyEvent(for: anyTick)) }
        }
    }

    // Nobody listens: the cost of a publish that reaches no one.
    let busEmpty = EventBus(name: "benchEmpty")
    Benchmark("Bus publish no subscribers") { benchmark in
        for i in benchmark.scaledIterations {
            _ = busEmpty.publish(BusBenchEvent(subtype: .tick, value: i))
        }
    }
}
