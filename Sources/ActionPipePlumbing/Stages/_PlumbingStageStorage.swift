/// The stages of a plumber, append-only, shared by every snapshot; removing a stage makes
/// a new storage.
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
        copy(capacity: Swift.max(4, capacity * 2), skipping: nil)
    }

    /// A new storage with the stages but the one at `index`: a removal cannot change
    /// slots that running snapshots read. Under the plumber's lock.
    ///
    /// - Complexity: O(s) for s stages.
    func removing(at index: Int) -> _PlumbingStageStorage {
        // Room for as many appends as stages remain, so appends stay amortised O(1).
        copy(capacity: Swift.max(4, 2 * (initialized - 1)), skipping: index)
    }

    private func copy(capacity: Int, skipping skipped: Int?) -> _PlumbingStageStorage {
        let copy = _PlumbingStageStorage(capacity: capacity)
        for index in 0..<initialized where index != skipped {
            copy.append(name: names[index], body: bodies[index])
        }
        return copy
    }

    /// The index of the first async stage, if any. Under the plumber's lock.
    ///
    /// - Complexity: O(s) for s stages.
    func firstAsync() -> Int? {
        (0..<initialized).first { index in
            if case .async = bodies[index] { return true }
            return false
        }
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
