// The floor under target B2 (publish to one subscriber within 2x a call through an
// existential): stripped-down models of a publish's read path, measured in the same run as
// the baseline. Each has one event type, one subscriber, no subtypes, no counts: only what
// any publish must do to find its subscriber list and call it. They differ only in how the
// list is kept alive while its handler runs, since another thread may unsubscribe meanwhile:
//
// - unprotected: nothing. Not thread-safe (a replaced list could be freed under the call);
//   what a publish would cost if protecting the list were free.
// - pinned: the library's way (the concurrency module's `SnapshotCell`): a reader counter
//   incremented and decremented around the read, and a check for retired tables when done.
// - hazard slot: a per-thread hazard pointer: the thread's slot found with
//   `pthread_getspecific`, an exchange (a store and a fence in one locked instruction), a
//   re-check, a store to clear. Cheaper by one atomic, but bound to the thread, and a second
//   reclamation scheme beside the one the core needs for reads that cross suspensions.
// - lock and retain: a one-word lock, a retain and a release.

import Benchmark
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One subscriber, as the bus keeps it: a cancelled flag and an adapted handler.
final class BusFloorEntry: Sendable {
    let isCancelled = Atomic<Bool>(false)
    let handler: @Sendable (AnyObject?, BusBenchEvent) throws -> Void?

    init(_ handler: @escaping @Sendable (AnyObject?, BusBenchEvent) throws -> Void?) {
        self.handler = handler
    }
}

/// An immutable subscriber list of one event type, read unretained.
final class BusFloorRoutes: @unchecked Sendable {
    // `@unchecked Sendable`: immutable after `init`; `entries` keeps the unretained list valid.
    let entries: [BusFloorEntry]
    let flat: UnsafeMutablePointer<Unmanaged<BusFloorEntry>>
    let count: Int

    init(_ entries: [BusFloorEntry]) {
        self.entries = entries
        count = entries.count
        flat = .allocate(capacity: max(1, entries.count))
        for (index, entry) in entries.enumerated() { flat[index] = .passUnretained(entry) }
    }

    deinit { flat.deallocate() }
}

/// The table of every event type's routes, as a publish reads it.
final class BusFloorTable: Sendable {
    let types: [ObjectIdentifier]
    let routes: [Unmanaged<BusFloorRoutes>]
    private let owned: [BusFloorRoutes]

    init(_ type: ObjectIdentifier, _ routes: BusFloorRoutes) {
        types = [type]
        self.routes = [.passUnretained(routes)]
        owned = [routes]
    }

    /// Calls every live entry of `type`'s list; returns how many ran.
    @inline(__always)
    func deliver(_ event: BusBenchEvent, of type: ObjectIdentifier) -> Int {
        for position in types.indices where types[position] == type {
            return routes[position]._withUnsafeGuaranteedRef { routes in
                var handled = 0
                for index in 0..<routes.count {
                    routes.flat[index]._withUnsafeGuaranteedRef { entry in
                        if entry.isCancelled.load(ordering: .acquiring) { return }
                        if (try? entry.handler(nil, event)) != nil { handled &+= 1 }
                    }
                }
                return handled
            }
        }
        return 0
    }
}

/// A bus reduced to its read path, with the three ways of keeping the table alive.
///
/// `@unchecked Sendable`: benchmarked from one thread; the table never changes.
final class BusFloorBus: @unchecked Sendable {
    let current: Atomic<UInt>
    let lock = Atomic<UInt32>(0)
    let key: pthread_key_t
    let phase = Atomic<Int>(0)
    let readers = Atomic<Int>(0)
    let pending = Atomic<Bool>(false)

    init(_ table: BusFloorTable) {
        current = Atomic(UInt(bitPattern: Unmanaged.passRetained(table).toOpaque()))
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        self.key = key
    }

    @inline(__always)
    func table(_ address: UInt) -> Unmanaged<BusFloorTable> {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: address).unsafelyUnwrapped)
    }

    /// Not thread-safe: the floor if protection were free.
    @inline(never)
    func publishUnprotected(_ event: BusBenchEvent) -> Int {
        table(current.load(ordering: .acquiring))._withUnsafeGuaranteedRef {
            $0.deliver(event, of: ObjectIdentifier(BusBenchEvent.self))
        }
    }

    /// The thread's slot (depth word, then slots), made on first use.
    @inline(__always)
    func record() -> UnsafeMutablePointer<Int> {
        if let record = pthread_getspecific(key) { return record.assumingMemoryBound(to: Int.self) }
        let record = UnsafeMutablePointer<Int>.allocate(capacity: 9)
        record.initialize(repeating: 0, count: 9)
        pthread_setspecific(key, record)
        return record
    }

    /// The library's read path: a hazard slot set by an exchange, a re-check.
    @inline(never)
    func publishHazard(_ event: BusBenchEvent) -> Int {
        let record = record()
        let depth = record.pointee
        let slot = UnsafeMutableRawPointer(record + 1 + depth).assumingMemoryBound(
            to: Atomic<UInt>.self)
        var address = current.load(ordering: .acquiring)
        while true {
            _ = slot.pointee.exchange(address, ordering: .sequentiallyConsistent)
            let now = current.load(ordering: .sequentiallyConsistent)
            if now == address { break }
            address = now
        }
        record.pointee = depth &+ 1
        let handled = table(address)._withUnsafeGuaranteedRef {
            $0.deliver(event, of: ObjectIdentifier(BusBenchEvent.self))
        }
        record.pointee = depth
        slot.pointee.store(0, ordering: .releasing)
        return handled
    }

    /// The library's read path: a reader counter around the read (`SnapshotCell`).
    @inline(never)
    func publishPinned(_ event: BusBenchEvent) -> Int {
        if phase.load(ordering: .relaxed) == 0 {
            readers.wrappingAdd(1, ordering: .sequentiallyConsistent)
        }
        let address = current.load(ordering: .sequentiallyConsistent)
        let handled = table(address)._withUnsafeGuaranteedRef {
            $0.deliver(event, of: ObjectIdentifier(BusBenchEvent.self))
        }
        let left = readers.wrappingSubtract(1, ordering: .sequentiallyConsistent).newValue
        if left == 0, pending.load(ordering: .sequentiallyConsistent) { return -1 }
        return handled
    }

    /// A one-word lock around a retain of the table.
    @inline(never)
    func publishLockAndRetain(_ event: BusBenchEvent) -> Int {
        while !lock.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {}
        let table = table(current.load(ordering: .relaxed)).takeUnretainedValue()
        lock.store(0, ordering: .releasing)
        return table.deliver(event, of: ObjectIdentifier(BusBenchEvent.self))
    }
}

/// Registers the floor models of B2's publish.
func registerEventBusFloorBenchmarks() {
    let sink = BusBenchSink()
    let entry = BusFloorEntry { _, event in sink.add(event.value) }
    let bus = BusFloorBus(
        BusFloorTable(ObjectIdentifier(BusBenchEvent.self), BusFloorRoutes([entry])))
    check(bus.publishUnprotected(BusBenchEvent(subtype: .tick, value: 1)), 1, "floor, unprotected")
    check(bus.publishPinned(BusBenchEvent(subtype: .tick, value: 1)), 1, "floor, pinned")
    check(bus.publishHazard(BusBenchEvent(subtype: .tick, value: 1)), 1, "floor, hazard slot")
    check(bus.publishLockAndRetain(BusBenchEvent(subtype: .tick, value: 1)), 1, "floor, lock")
    check(sink.total, 4, "floor models")

    Benchmark("Bus Floor publish to 1, unprotected (not thread-safe)") { benchmark in
        for i in benchmark.scaledIterations {
            _ = bus.publishUnprotected(BusBenchEvent(subtype: .tick, value: i))
        }
    }
    Benchmark("Bus Floor publish to 1, pinned") { benchmark in
        for i in benchmark.scaledIterations {
            _ = bus.publishPinned(BusBenchEvent(subtype: .tick, value: i))
        }
    }
    Benchmark("Bus Floor publish to 1, hazard slot") { benchmark in
        for i in benchmark.scaledIterations {
            _ = bus.publishHazard(BusBenchEvent(subtype: .tick, value: i))
        }
    }
    Benchmark("Bus Floor publish to 1, lock and retain") { benchmark in
        for i in benchmark.scaledIterations {
            _ = bus.publishLockAndRetain(BusBenchEvent(subtype: .tick, value: i))
        }
    }
}
