// Stack bytes per nesting level (issue 18, item 6): how much of the thread's stack one more
// nested call, publish or delivery takes, in this release build. A handler that calls its
// own action 60 deep records the address of a local at each level; the row is the average
// distance between levels, reported under the bytes metric. A plain closure recursion is
// the floor.

import ActionPipe
import Benchmark

extension Actions {
    /// Calls itself one level lower until 0, recording each level's stack address.
    var stackDown: Action<Int, Int> { .init() }
}

/// An event whose handler publishes it one level lower until 0.
struct StackEvent: BusEvent {
    let level: Int
}

/// Stack addresses recorded by one nesting, deepest last.
///
/// `@unchecked Sendable`: written and read by one thread at a time (the benchmark's).
final class StackTrail: @unchecked Sendable {
    var addresses: [Int] = []

    /// Records the current stack address.
    @inline(never)
    func record() {
        var local = 0
        withUnsafeMutablePointer(to: &local) { addresses.append(Int(bitPattern: $0)) }
    }

    /// The average bytes between levels 10 and 50 (away from the edges), and resets.
    func bytesPerLevel() -> Int {
        defer { addresses.removeAll(keepingCapacity: true) }
        guard addresses.count > 50 else { return -1 }
        return (addresses[10] - addresses[50]) / 40
    }
}

/// A closure that calls itself, the floor.
final class StackRecursion: @unchecked Sendable {
    var body: ((Int) -> Int)?
}

/// Registers the stack rows.
func registerStackDepthBenchmarks() {
    let trail = StackTrail()
    let depth = 60

    let recursion = StackRecursion()
    recursion.body = { [unowned recursion] level in
        trail.record()
        return level == 0 ? 0 : (recursion.body?(level - 1) ?? 0) &+ 1
    }
    Benchmark("Stack Baseline closure recursion", configuration: memoryConfiguration) {
        benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(recursion.body?(depth))
            benchmark.measurement(bytesPerObjectMetric, trail.bytesPerLevel())
        }
    }

    let pipe = ActionPipe(name: "stack")
    pipe.on(\.stackDown) { [weak pipe] process in
        trail.record()
        return process.arguments == 0 ? 0 : (pipe?.stackDown(process.arguments - 1) ?? 0) &+ 1
    }
    Benchmark("Stack Core nested call", configuration: memoryConfiguration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(pipe.stackDown(depth))
            benchmark.measurement(bytesPerObjectMetric, trail.bytesPerLevel())
        }
    }

    let bus = EventBus(name: "stack")
    bus.subscribe(BusTopic(StackEvent.self)) { event in
        trail.record()
        if event.level > 0 { bus.publish(StackEvent(level: event.level - 1)) }
    }
    Benchmark("Stack Bus nested publish", configuration: memoryConfiguration) { benchmark in
        for _ in benchmark.scaledIterations {
            bus.publish(StackEvent(level: depth))
            benchmark.measurement(bytesPerObjectMetric, trail.bytesPerLevel())
        }
    }

    let first = ObservedProperty(0, label: "first")
    let second = ObservedProperty(0, label: "second")
    first.observe { value in
        trail.record()
        if value > 0 { second.value = value - 1 }
    }
    second.observe { value in
        trail.record()
        if value > 0 { first.value = value - 1 }
    }
    Benchmark("Stack State nested set", configuration: memoryConfiguration) { benchmark in
        for _ in benchmark.scaledIterations {
            // Below the cycle limit (64): 60 nested deliveries.
            first.value = depth
            benchmark.measurement(bytesPerObjectMetric, trail.bytesPerLevel())
        }
    }
}
