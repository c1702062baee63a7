/// The stages of a plumber, append-only, shared by every snapshot.
///
/// A snapshot of `count` stages reads slots `0..<count`; adding a stage initialises the
/// next slot and then publishes a snapshot that counts it (the atomic store releases the
/// write, the packet's load acquires it). Slots are never changed once initialised, so
/// packets read them without a lock while stages are added. When the storage is full, the
/// stages move to a storage twice the size; snapshots still running keep the old one
/// alive. Total memory stays linear in the number of stages.
///
/// `@unchecked Sendable`: `initialized` and the slots at and after it are touched only
/// under the owning plumber's lock; the slots before it are immutable.
@usableFromInline
final class _PlumbingStageStorage<Payload: Sendable>: @unchecked Sendable {
    @usableFromInline let bodies: UnsafeMutablePointer<_PlumbingStageBody<Payload>>
    let names: UnsafeMutablePointer<String>
    let capacity: Int
    private(set) var initialized = 0

    init(capacity: Int) {
        self.capacity = capacity
        bodies = .allocate(capacity: capacity)
        names = .allocate(capacity: capacity)
    }

    /// A storage of twice the capacity with the same stages. Under the plumber's lock.
    func grown() -> _PlumbingStageStorage {
        let bigger = _PlumbingStageStorage(capacity: Swift.max(4, capacity * 2))
        for index in 0..<initialized {
            bigger.append(name: names[index], body: bodies[index])
        }
        return bigger
    }

    /// Initialises the next slot. Under the plumber's lock, with `initialized < capacity`.
    func append(name: String, body: _PlumbingStageBody<Payload>) {
        precondition(initialized < capacity, "plumbing stage storage is full")
        (names + initialized).initialize(to: name)
        (bodies + initialized).initialize(to: body)
        initialized += 1
    }

    deinit {
        names.deinitialize(count: initialized)
        bodies.deinitialize(count: initialized)
        names.deallocate()
        bodies.deallocate()
    }
}
