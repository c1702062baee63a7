// The core's growth and memory rows (Scripts/targets/0-core.json): building a chain one
// append at a time, registering and removing handlers, and the bytes a pipe keeps alive.

import ActionPipe
import Benchmark

extension Actions {
    /// The growth benchmarks register handlers for these: a handful, as an app would have.
    var growthA: Action<Int, Int> { .init() }
    var growthB: Action<Int, Int> { .init() }
    /// One action per registration of the register/remove row (run-time names, one type).
    subscript(growthItem number: Int) -> Action<Int, Int> { .init(name: "growth-\(number)") }
}

/// Registers the core's growth and memory benchmarks.
func registerCoreGrowthBenchmarks() {
    for count in growthCounts {
        Benchmark("Growth Core chain \(count) pipes", configuration: growthConfiguration) {
            benchmark in
            for _ in benchmark.scaledIterations {
                let head = ActionPipe(name: "head")
                head.on(\.growthA) { process in process.arguments }
                var pipes: [ActionPipe] = []
                pipes.reserveCapacity(count)
                for _ in 0..<count {
                    let pipe = ActionPipe(name: "pipe")
                    pipe.on(\.growthB) { process in process.arguments }
                    do { try head.append(pipe) } catch { fatalError("\(error)") }
                    pipes.append(pipe)
                }
                blackHole(head.growthA(1))
                blackHole(pipes)
            }
        }
    }
    for count in growthCounts {
        Benchmark(
            "Growth Core chain \(count) pipes, then each removed",
            configuration: growthConfiguration
        ) { benchmark in
            for _ in benchmark.scaledIterations {
                let head = ActionPipe(name: "head")
                head.on(\.growthA) { process in process.arguments }
                var pipes: [ActionPipe] = []
                pipes.reserveCapacity(count)
                for _ in 0..<count {
                    let pipe = ActionPipe(name: "pipe")
                    do { try head.append(pipe) } catch { fatalError("\(error)") }
                    pipes.append(pipe)
                }
                // From the front of the chain (after the head): the costliest place for an
                // array removal.
                for pipe in pipes { blackHole(pipe.removeFromChain()) }
                blackHole(head.growthA(1))
            }
        }
    }
    Benchmark("Growth Core 8000 registers and removes", configuration: growthConfiguration) {
        benchmark in
        for _ in benchmark.scaledIterations {
            let pipe = ActionPipe(name: "pipe")
            var tokens: [RegistrationToken] = []
            tokens.reserveCapacity(8_000)
            for number in 0..<8_000 {
                tokens.append(pipe.on(\.[growthItem: number]) { process in process.arguments })
            }
            for token in tokens { token.cancel() }
            blackHole(pipe)
        }
    }
    Benchmark("Memory Core pipe with 1 handler", configuration: memoryConfiguration) {
        benchmark in
        for _ in benchmark.scaledIterations {
            measureBytesPerObject(benchmark) { _ -> ActionPipe in
                let pipe = ActionPipe(name: "pipe")
                pipe.on(\.growthA) { process in process.arguments &+ 1 }
                blackHole(pipe.growthA(1))
                return pipe
            }
        }
    }
}

/// The event bus's growth and memory rows (Scripts/targets/5-growth.json).
func registerBusGrowthBenchmarks() {
    for count in growthCounts {
        Benchmark("Growth Bus \(count) subscribes and cancels", configuration: growthConfiguration)
        {
            benchmark in
            let topic = BusTopic(BusBenchEvent.self, .tick)
            for _ in benchmark.scaledIterations {
                let bus = EventBus(name: "growth")
                var tokens: [RegistrationToken] = []
                tokens.reserveCapacity(count)
                for _ in 0..<count { tokens.append(bus.subscribe(topic) { _ in }) }
                for token in tokens { token.cancel() }
                blackHole(bus)
            }
        }
    }
    // Subscriptions bound to owners, one owner each (a screen or model subscribing once).
    // The owners are made before the clock starts: the peer makes no objects of its own.
    for count in growthCounts {
        Benchmark(
            "Growth Bus \(count) owned subscribes and cancels", configuration: growthConfiguration
        ) { benchmark in
            let topic = BusTopic(BusBenchEvent.self, .tick)
            for _ in benchmark.scaledIterations {
                let owners = (0..<count).map { _ in BusBenchOwner() }
                benchmark.startMeasurement()
                do {
                    let bus = EventBus(name: "growth")
                    let tokens = subscribeOwned(owners, to: bus, topic)
                    for token in tokens { token.cancel() }
                    blackHole(bus)
                }
                benchmark.stopMeasurement()
                blackHole(owners)
            }
        }
    }
    // The other end of an owned subscription: its owner goes away, and the next publish of
    // the type meets the gone subscribers and prunes them all (the tokens are dropped, as
    // owned subscriptions' tokens usually are). The setup checks, once and untimed, that
    // this really ends them.
    for count in growthCounts {
        Benchmark(
            "Growth Bus \(count) owned subscribes, owners dropped, one publish",
            configuration: growthConfiguration
        ) { benchmark in
            let topic = BusTopic(BusBenchEvent.self, .tick)
            for _ in benchmark.scaledIterations {
                var owners = (0..<count).map { _ in BusBenchOwner() }
                benchmark.startMeasurement()
                let bus = EventBus(name: "growth")
                _ = subscribeOwned(owners, to: bus, topic)
                owners = []
                blackHole(bus.publish(BusBenchEvent(subtype: .tick, value: 1)))
                blackHole(bus)
            }
        } setup: {
            checkBusOwnersGone(count: count)
        }
    }
    Benchmark("Memory Bus subscription", configuration: memoryConfiguration) { benchmark in
        let bus = EventBus(name: "memory")
        let topic = BusTopic(BusBenchEvent.self, .tick)
        for _ in benchmark.scaledIterations {
            measureBytesPerObject(benchmark) { _ in bus.subscribe(topic) { _ in } }
        }
        blackHole(bus.publish(BusBenchEvent(subtype: .tick, value: 1)))
    }
}

/// Observable state's growth and memory rows (Scripts/targets/5-growth.json).
func registerStateGrowthBenchmarks() {
    for count in growthCounts {
        Benchmark("Growth State \(count) observes and cancels", configuration: growthConfiguration)
        {
            benchmark in
            for _ in benchmark.scaledIterations {
                let property = ObservedProperty(0)
                var tokens: [RegistrationToken] = []
                tokens.reserveCapacity(count)
                for _ in 0..<count { tokens.append(property.observe { _ in }) }
                for token in tokens { token.cancel() }
                blackHole(property)
            }
        }
    }
    // Observers bound to owners, one owner each; the owners are made before the clock starts,
    // as for the bus.
    for count in growthCounts {
        Benchmark(
            "Growth State \(count) owned observes and cancels", configuration: growthConfiguration
        ) { benchmark in
            for _ in benchmark.scaledIterations {
                let owners = (0..<count).map { _ in StateBenchOwner() }
                benchmark.startMeasurement()
                do {
                    let property = ObservedProperty(0)
                    let tokens = observeOwned(owners, property)
                    for token in tokens { token.cancel() }
                    blackHole(property)
                }
                benchmark.stopMeasurement()
                blackHole(owners)
            }
        }
    }
    // The owners go away, and the next set meets the gone observers and removes them (the
    // setup checks that, as for the bus).
    for count in growthCounts {
        Benchmark(
            "Growth State \(count) owned observes, owners dropped, one set",
            configuration: growthConfiguration
        ) { benchmark in
            for _ in benchmark.scaledIterations {
                var owners = (0..<count).map { _ in StateBenchOwner() }
                benchmark.startMeasurement()
                let property = ObservedProperty(0)
                _ = observeOwned(owners, property)
                owners = []
                property.value = 1
                blackHole(property)
            }
        } setup: {
            checkStateOwnersGone(count: count)
        }
    }
    Benchmark("Memory State property with 1 observer", configuration: memoryConfiguration) {
        benchmark in
        for _ in benchmark.scaledIterations {
            measureBytesPerObject(benchmark) {
                index -> (ObservedProperty<Int>, RegistrationToken) in
                let property = ObservedProperty(index)
                let token = property.observe { value in blackHole(value) }
                property.value = index + 1
                return (property, token)
            }
        }
    }
}

/// Subscribes to `topic` once per owner, each subscription bound to its owner (held weakly).
func subscribeOwned(
    _ owners: [BusBenchOwner], to bus: EventBus, _ topic: BusTopic<BusBenchEvent>
) -> [RegistrationToken] {
    var tokens: [RegistrationToken] = []
    tokens.reserveCapacity(owners.count)
    for owner in owners { tokens.append(bus.subscribe(topic, owner: owner) { _, _ in }) }
    return tokens
}

/// Checks, once, that what the owners-dropped row measures ends the subscriptions: the
/// diagram lists every registered subscription, gone owners' too, until they are pruned
/// (`subscriptionCount` already leaves those out, so it cannot tell).
func checkBusOwnersGone(count: Int) {
    let topic = BusTopic(BusBenchEvent.self, .tick)
    let empty = EventBus(name: "growth").mermaidDiagram
    let bus = EventBus(name: "growth")
    var owners = (0..<count).map { _ in BusBenchOwner() }
    _ = subscribeOwned(owners, to: bus, topic)
    owners = []
    guard bus.mermaidDiagram != empty else {
        fatalError("bus: the subscriptions went before the publish; the row measures nothing")
    }
    check(bus.publish(BusBenchEvent(subtype: .tick, value: 1)).handledCount, 0, "bus, gone owners")
    guard bus.mermaidDiagram == empty else {
        fatalError("bus: a publish left subscriptions of gone owners registered")
    }
}

/// Observes `property` once per owner, each observer bound to its owner (held weakly).
func observeOwned(
    _ owners: [StateBenchOwner], _ property: ObservedProperty<Int>
) -> [RegistrationToken] {
    var tokens: [RegistrationToken] = []
    tokens.reserveCapacity(owners.count)
    for owner in owners { tokens.append(property.observe(owner: owner) { _, _ in }) }
    return tokens
}

/// Checks, once, that what the owners-dropped row measures removes the observers.
func checkStateOwnersGone(count: Int) {
    let property = ObservedProperty(0)
    var owners = (0..<count).map { _ in StateBenchOwner() }
    _ = observeOwned(owners, property)
    owners = []
    check(property.observerCount, count, "state, gone owners before the set")
    property.value = 1
    check(property.observerCount, 0, "state, gone owners after the set")
}
