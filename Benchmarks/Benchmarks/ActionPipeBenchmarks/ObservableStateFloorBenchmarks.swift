// The floor under state target 1 (a set with one observer within 3x a stored closure call):
// why an observed property takes a spin lock (the concurrency module's `SpinLock`) and not the
// package's general lock (`LockedValue`, a pthread mutex). Two stripped-down models of a
// set, measured in the same run as the baseline: store the value under the lock, then call
// the observer. They differ only in the lock. If the mutex model alone is above 3x, the
// property could not meet its target with the mutex.

import Benchmark
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value and one observer behind a pthread mutex.
///
/// `@unchecked Sendable`: `value` is only touched with the mutex held.
final class StateFloorMutexProperty: @unchecked Sendable {
    let mutex: UnsafeMutablePointer<pthread_mutex_t>
    let value: UnsafeMutablePointer<Int>
    let observer: @Sendable (Int) -> Void

    init(_ observer: @escaping @Sendable (Int) -> Void) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        value = .allocate(capacity: 1)
        value.initialize(to: 0)
        self.observer = observer
    }

    @inline(never)
    func set(_ newValue: Int) {
        pthread_mutex_lock(mutex)
        value.pointee = newValue
        pthread_mutex_unlock(mutex)
        observer(newValue)
    }
}

/// The same behind a one-word spin lock (a compare-exchange and a release store).
///
/// `@unchecked Sendable`: `value` is only touched with the lock held.
final class StateFloorSpinProperty: @unchecked Sendable {
    let word = Atomic<UInt32>(0)
    let value: UnsafeMutablePointer<Int>
    let observer: @Sendable (Int) -> Void

    init(_ observer: @escaping @Sendable (Int) -> Void) {
        value = .allocate(capacity: 1)
        value.initialize(to: 0)
        self.observer = observer
    }

    @inline(never)
    func set(_ newValue: Int) {
        while !word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {}
        value.pointee = newValue
        word.store(0, ordering: .releasing)
        observer(newValue)
    }
}

/// Registers the floor models of state target 1.
func registerObservableStateFloorBenchmarks() {
    let mutex = StateFloorMutexProperty { value in blackHole(value) }
    let spin = StateFloorSpinProperty { value in blackHole(value) }
    Benchmark("State Floor set, pthread mutex") { benchmark in
        for i in benchmark.scaledIterations {
            mutex.set(i)
        }
    }
    Benchmark("State Floor set, spin lock") { benchmark in
        for i in benchmark.scaledIterations {
            spin.set(i)
        }
    }
}
