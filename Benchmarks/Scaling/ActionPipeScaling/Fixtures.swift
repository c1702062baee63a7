// What the rows are built from: the action, the event and the state object under test, the
// per-thread memory that handlers write to, and an optimisation barrier.

import ActionPipe
import Synchronization

extension Actions {
    /// (argument) -> upstream + argument: each pipe of a chain adds the argument.
    var scalingAdd: Action<Int, Int> { .init() }
}

/// The size and alignment of every per-thread allocation: two 64-byte lines, so that the
/// adjacent-line prefetcher of x86 CPUs cannot make two threads' memory share a line either.
let cacheLinePair = 128

/// Returns `value` unchanged, through a call the optimiser cannot see into: what it returns
/// is unknown at compile time, so loops over it cannot be folded into constants.
@inline(never)
@_optimize(none)
func opaque<T>(_ value: T) -> T {
    value
}

/// One `Int` alone on its own 128-byte, 128-aligned allocation, which handlers of one thread
/// add to.
///
/// `@unchecked Sendable`: it travels inside an event or a notification, but each instance is
/// written by the thread that made it only.
struct ThreadSink: @unchecked Sendable {
    /// The counter, alone on its allocation.
    let pointer: UnsafeMutablePointer<Int>

    /// Allocates a zeroed counter; `free()` releases it.
    init() {
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: cacheLinePair, alignment: cacheLinePair)
        pointer = raw.initializeMemory(as: Int.self, repeating: 0, count: 1)
    }

    /// Adds `value` to the counter.
    @inline(__always)
    func add(_ value: Int) { pointer.pointee &+= value }

    /// What has been added so far.
    var total: Int { pointer.pointee }

    /// Releases the counter; the sink must not be used afterwards.
    func free() { UnsafeMutableRawPointer(pointer).deallocate() }
}

/// A `ThreadSink` as an object, for `NotificationCenter`, whose notifications carry an
/// object rather than a value.
final class ThreadSinkBox: @unchecked Sendable {
    /// The sink; written only by the thread that made the box.
    let sink = ThreadSink()

    deinit { sink.free() }
}

/// An `Atomic<Int>` alone on its own 128-byte, 128-aligned allocation: the counters of the
/// atomic rows.
///
/// `@unchecked Sendable`: the pointer never changes, and the pointee is an atomic.
final class PaddedCounter: @unchecked Sendable {
    /// The atomic, in memory this object allocated and frees.
    private let pointer: UnsafeMutablePointer<Atomic<Int>>

    /// Allocates the counter, at zero.
    init() {
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: cacheLinePair, alignment: cacheLinePair)
        pointer = raw.bindMemory(to: Atomic<Int>.self, capacity: 1)
        pointer.initialize(to: Atomic(0))
    }

    deinit {
        pointer.deinitialize(count: 1)
        UnsafeMutableRawPointer(pointer).deallocate()
    }

    /// One relaxed wrapping add of one; returns the new value.
    @inline(__always)
    func increment() -> Int {
        pointer.pointee.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// The current value (a relaxed load).
    var value: Int { pointer.pointee.load(ordering: .relaxed) }

    /// Sets the counter back to zero (a relaxed store).
    func reset() { pointer.pointee.store(0, ordering: .relaxed) }
}

/// The published event: its value, and the sink of the publishing thread, which every
/// subscriber adds the value to (so no delivery writes memory another thread writes).
struct ScalingEvent: BusEvent {
    /// The event's one subtype.
    enum Kind: Hashable, Sendable { case tick }
    /// Always `.tick`.
    let subtype: Kind
    /// What each subscriber adds to `sink`.
    let value: Int
    /// The publishing thread's sink.
    let sink: ThreadSink
}

/// The observed state: one `@Observed` Int, read by the `observed read` rows.
final class ScalingState: ObservableState, @unchecked Sendable {
    /// The value every read returns.
    @Observed var value = 0
}

/// The hand-written bus of the `mutex list` peer: a mutex-guarded array of closures.
final class MutexClosureList: Sendable {
    /// The closures, behind the mutex.
    let closures: Mutex<[@Sendable () -> Int]>

    /// A list of `count` closures, each returning one.
    init(count: Int) {
        closures = Mutex(opaque((0..<count).map { _ in { @Sendable () -> Int in 1 } }))
    }

    /// What a typical bus's publish does: copies the array out under the lock (a retain of
    /// its shared buffer), then calls every closure with no lock held; returns the sum of
    /// what they returned.
    @inline(__always)
    func callAll() -> Int {
        let closures = closures.withLock { $0 }
        var sum = 0
        for closure in closures {
            sum &+= closure()
        }
        return sum
    }
}
