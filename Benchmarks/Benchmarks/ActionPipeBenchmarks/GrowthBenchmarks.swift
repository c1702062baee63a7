// Growth and memory: what writes cost as the number of registrations grows, and how many
// bytes one registration keeps alive. The peer for every growth row is NotificationCenter
// adding, then removing, the same number of observers, in the same run. Each part registers
// its own growth and memory rows in its own file, with these helpers;
// Scripts/targets/5-growth.json holds the rows `./run` prints.

import Benchmark
import CHeapStats
import Foundation

/// The registration counts of the growth rows: a row at the larger count costs at most
/// 2.5× the smaller (linear growth gives 2×; quadratic, 4×).
let growthCounts = [8_000, 16_000]

/// The metric memory rows report: heap bytes kept alive per object, averaged over many.
var bytesPerObjectMetric: BenchmarkMetric {
    BenchmarkMetric.custom(
        "Bytes per object", polarity: .prefersSmaller, useScalingFactor: false)
}

/// The configuration of a growth benchmark: each iteration makes the whole batch of writes,
/// so its figure is the batch's time (the targets file gives 1 call per iteration).
var growthConfiguration: Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput], scalingFactor: .one,
        maxDuration: .seconds(3), maxIterations: 20)
}

/// The configuration of a memory benchmark: one iteration reports its measured bytes.
var memoryConfiguration: Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .throughput, bytesPerObjectMetric], scalingFactor: .one,
        maxDuration: .seconds(2), maxIterations: 3)
}

/// The bytes the allocator has handed out and not yet taken back.
func heapBytesInUse() -> Int { Int(cheapstats_bytes_in_use()) }

/// The average heap bytes that each of `count` objects made by `make` keeps alive (all of
/// them are alive when the heap is measured), reported under `bytesPerObjectMetric`.
func measureBytesPerObject<Object>(
    _ benchmark: Benchmark, count: Int = 10_000, _ make: (Int) -> Object
) {
    var objects: [Object] = []
    objects.reserveCapacity(count)
    let before = heapBytesInUse()
    for index in 0..<count { objects.append(make(index)) }
    let after = heapBytesInUse()
    benchmark.measurement(bytesPerObjectMetric, (after - before) / count)
    withExtendedLifetime(objects) {}
}

/// Registers the NotificationCenter peer of every growth row.
func registerGrowthBenchmarks() {
    for count in growthCounts {
        Benchmark(
            "Growth Peer NotificationCenter \(count) adds and removes",
            configuration: growthConfiguration
        ) { benchmark in
            let name = Notification.Name("growth")
            for _ in benchmark.scaledIterations {
                let center = NotificationCenter()
                var tokens: [any NSObjectProtocol] = []
                tokens.reserveCapacity(count)
                for _ in 0..<count {
                    tokens.append(
                        center.addObserver(forName: name, object: nil, queue: nil) { _ in })
                }
                for token in tokens { center.removeObserver(token) }
                blackHole(center)
            }
        }
    }
}
