// The harness: a team of new threads per pass, started together behind a barrier, each
// timing its own fixed number of operations; and the sizing of rows before the first pass.

import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What one thread measured in one repetition of a row.
struct ThreadRun: Sendable, Codable {
    /// The thread's time from the barrier's release to its last operation's end.
    let nanoseconds: Int
    /// The CPU time the thread used meanwhile: less than `nanoseconds` when it was off its
    /// CPU (preempted by another task, or waiting for a lock).
    let cpuNanoseconds: Int
    /// What the thread's body returned (checked against the row's expectation).
    let sink: Int
}

/// One row measured on one pass: every repetition, of every thread.
struct Measurement: Sendable {
    /// How many threads ran the row.
    let threads: Int
    /// How many operations each thread made per repetition.
    let iterations: Int
    /// Per repetition, per thread.
    let repetitions: [[ThreadRun]]

    /// A repetition's wall time: that of its slowest thread.
    static func wallNanoseconds(_ runs: [ThreadRun]) -> Int {
        runs.map(\.nanoseconds).max() ?? 0
    }

    /// The repetition kept: the one with the shortest wall time.
    var best: [ThreadRun] {
        repetitions.min { Self.wallNanoseconds($0) < Self.wallNanoseconds($1) } ?? []
    }

    /// The best repetition's aggregate throughput, in operations per second: all threads'
    /// operations over the slowest thread's time.
    var operationsPerSecond: Double {
        let wall = Self.wallNanoseconds(best)
        guard wall > 0 else { return 0 }
        return Double(threads * iterations) / (Double(wall) / 1e9)
    }

    /// In the best repetition, the smallest share of its time a thread spent on its CPU
    /// (CPU time over wall time, at most 1).
    var cpuShare: Double {
        best.map { min(1, Double($0.cpuNanoseconds) / Double(max(1, $0.nanoseconds))) }
            .min() ?? 0
    }

    /// Whether a thread of the best repetition was off its CPU for more than a tenth of its
    /// time: the machine was busy, or (for rows that take a blocking lock) it waited.
    var wasOffCPU: Bool { cpuShare < minimumCPUShare }
}

/// The CPU share below which a measurement counts as off its CPU.
let minimumCPUShare = 0.9

/// A barrier for a fixed number of threads, reusable: every thread that calls `wait()`
/// returns once all of them have called it. Waiting threads spin, so they leave together,
/// then yield their CPU after a while (for more threads than CPUs, or a busy machine).
///
/// `@unchecked Sendable`: the pointer never changes, and the pointees are atomics.
final class SpinBarrier: @unchecked Sendable {
    /// How many threads meet at the barrier.
    private let parties: Int
    /// Two atomics, 128 bytes apart: how many threads have arrived in the current round,
    /// and the round, bumped by the last thread to arrive, which waiters watch.
    private let words: UnsafeMutablePointer<Atomic<Int>>
    /// How far apart the two atomics are, in `Atomic<Int>` strides.
    private static let stride = cacheLinePair / MemoryLayout<Atomic<Int>>.stride

    /// The arrivals counter.
    private var arrived: UnsafeMutablePointer<Atomic<Int>> { words }
    /// The round counter.
    private var round: UnsafeMutablePointer<Atomic<Int>> { words + Self.stride }

    /// A barrier for `parties` threads.
    init(parties: Int) {
        self.parties = parties
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: 2 * cacheLinePair, alignment: cacheLinePair)
        words = raw.bindMemory(to: Atomic<Int>.self, capacity: 2 * Self.stride)
        words.initialize(to: Atomic(0))
        (words + Self.stride).initialize(to: Atomic(0))
    }

    deinit {
        words.deinitialize(count: 1)
        (words + Self.stride).deinitialize(count: 1)
        UnsafeMutableRawPointer(words).deallocate()
    }

    /// Returns once all `parties` threads have called `wait()` in this round.
    func wait() {
        let current = round.pointee.load(ordering: .acquiring)
        if arrived.pointee.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue == parties {
            arrived.pointee.store(0, ordering: .relaxed)
            round.pointee.wrappingAdd(1, ordering: .releasing)
            return
        }
        var spins = 0
        while round.pointee.load(ordering: .acquiring) == current {
            spins &+= 1
            if spins > 20_000 { sched_yield() }
        }
    }
}

/// Nanoseconds since an arbitrary point, from the monotonic clock.
@inline(__always)
func monotonicNanoseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Int(time.tv_sec) &* 1_000_000_000 &+ Int(time.tv_nsec)
}

/// The CPU time the calling thread has used, in nanoseconds.
func threadCPUNanoseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Int(time.tv_sec) &* 1_000_000_000 &+ Int(time.tv_nsec)
}

/// One thread of a pass's team: runs every row, repetition after repetition, meeting the
/// other threads at the barrier before and after each timed run.
///
/// `@unchecked Sendable`: `runs` is written by the worker's thread only, and read by the main
/// thread after joining it.
private final class Worker: @unchecked Sendable {
    /// The thread's number in its team, from 0.
    let index: Int
    /// The rows to run, in order.
    let rows: [Row]
    /// Each row's operations per thread.
    let iterations: [Int]
    /// How many times each row is run.
    let repetitions: Int
    /// The team's barrier.
    let barrier: SpinBarrier
    /// Per row, per repetition: what this thread measured.
    var runs: [[ThreadRun]] = []

    /// A worker; its thread is started by `Team`.
    init(index: Int, rows: [Row], iterations: [Int], repetitions: Int, barrier: SpinBarrier) {
        self.index = index
        self.rows = rows
        self.iterations = iterations
        self.repetitions = repetitions
        self.barrier = barrier
    }

    /// The thread's whole life: every row in turn.
    func run() {
        for (row, iterations) in zip(rows, iterations) {
            // Built on this thread, before the start barrier; released after the last
            // repetition's end barrier, when no thread is timing.
            let body = row.makeBody(index)
            var rowRuns: [ThreadRun] = []
            rowRuns.reserveCapacity(repetitions)
            for _ in 0..<repetitions {
                if index == 0 { row.beforeRepetition?() }
                barrier.wait()
                let cpuStart = threadCPUNanoseconds()
                let start = monotonicNanoseconds()
                let sink = body(iterations)
                let end = monotonicNanoseconds()
                let cpuEnd = threadCPUNanoseconds()
                barrier.wait()
                rowRuns.append(
                    ThreadRun(
                        nanoseconds: end - start, cpuNanoseconds: cpuEnd - cpuStart, sink: sink))
            }
            runs.append(rowRuns)
        }
    }
}

/// Runs every row of `rows` on `threadCount` new threads (one pass), each thread making
/// `iterations[i]` operations of row i per repetition; returns one measurement per row.
/// The threads are created for this pass and joined at its end.
func runPass(rows: [Row], iterations: [Int], threadCount: Int, repetitions: Int)
    -> [Measurement]
{
    let barrier = SpinBarrier(parties: threadCount)
    let workers = (0..<threadCount).map { index in
        Worker(
            index: index, rows: rows, iterations: iterations, repetitions: repetitions,
            barrier: barrier)
    }
    let threads = workers.map(startThread)
    threads.forEach(joinThread)

    return rows.indices.map { rowIndex in
        let perRepetition = (0..<repetitions).map { repetition in
            workers.map { $0.runs[rowIndex][repetition] }
        }
        for runs in perRepetition {
            rows[rowIndex].check(runs.map(\.sink), iterations: iterations[rowIndex])
        }
        return Measurement(
            threads: threadCount, iterations: iterations[rowIndex], repetitions: perRepetition)
    }
}

/// The operations per thread of each row, sized on the calling thread (the main thread, so
/// the passes' threads are the first the process starts): about `milliseconds` for one
/// thread, rounded to two significant digits. Also checks every row's result once.
func sizeRows(_ rows: [Row], milliseconds: Int) -> [Int] {
    let target = Double(milliseconds) * 1e6
    return rows.map { row in
        let body = row.makeBody(0)
        var iterations = 1_000
        while true {
            row.beforeRepetition?()
            let start = monotonicNanoseconds()
            let sink = body(iterations)
            let elapsed = Double(max(1, monotonicNanoseconds() - start))
            row.check([sink], iterations: iterations)
            if elapsed >= target / 6 || iterations >= 1 << 40 {
                return roundToTwoDigits(Double(iterations) * target / elapsed)
            }
            iterations *= elapsed < target / 100 ? 16 : 4
        }
    }
}

/// `value` rounded to two significant digits, at least 1.
private func roundToTwoDigits(_ value: Double) -> Int {
    guard value >= 100 else { return max(1, Int(value.rounded())) }
    var scale = 1.0
    while value / scale >= 100 { scale *= 10 }
    return Int((value / scale).rounded() * scale)
}

/// A started thread, for `joinThread`.
private typealias ThreadHandle = pthread_t

/// Starts a new thread (a plain pthread, default attributes) running `worker.run()`.
private func startThread(_ worker: Worker) -> ThreadHandle {
    let context = Unmanaged.passRetained(worker).toOpaque()
    #if canImport(Darwin)
        var handle: pthread_t?
    #else
        var handle = pthread_t()
    #endif
    let status = pthread_create(
        &handle, nil,
        { raw in
            let worker = Unmanaged<Worker>.fromOpaque(nonOptional(raw)).takeRetainedValue()
            worker.run()
            return nil
        }, context)
    guard status == 0 else { fatalError("pthread_create failed: \(status)") }
    #if canImport(Darwin)
        return handle!
    #else
        return handle
    #endif
}

/// Waits for `thread` to end.
private func joinThread(_ thread: ThreadHandle) {
    let status = pthread_join(thread, nil)
    guard status == 0 else { fatalError("pthread_join failed: \(status)") }
}

/// `pointer`, which pthread_create's start routine receives as optional on Linux and as
/// non-optional on Darwin.
private func nonOptional(_ pointer: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer {
    pointer!
}
