@usableFromInline
enum _PlumbingStageBody<Payload: Sendable>: Sendable {
    case sync(@Sendable (inout PlumbingPacket<Payload>) throws -> PlumbingVerdict)
    case async(_PlumbingAsyncStageBody<Payload>)
}

/// `nonisolated(nonsending)`: runs on its caller's actor, so a packet processed from the main
/// actor does not hop to the global executor around each stage.
@usableFromInline
typealias _PlumbingAsyncStageBody<Payload: Sendable> =
    nonisolated(nonsending) @Sendable (inout PlumbingPacket<Payload>) async throws
    -> PlumbingVerdict

/// The stages of a plumber, append-only, shared by its snapshots. A snapshot of `count`
/// stages reads slots `0..<count`, never changed once initialised, so packets read them
/// unlocked while stages are added (the snapshot's atomic store publishes the slot). A
/// removal or growth copies; running snapshots keep the old storage alive.
///
/// `@unchecked Sendable`: `initialized` and the slots from it on are touched only under the
/// owning plumber's lock; the slots before it are immutable.
@usableFromInline
final class _PlumbingStageStorage<Payload: Sendable>: @unchecked Sendable {
    @usableFromInline let bodies: UnsafeMutablePointer<_PlumbingStageBody<Payload>>
    let names: UnsafeMutablePointer<String>
    let capacity: Int
    private(set) var initialized = 0
    /// The index of the first async stage, if any.
    private(set) var firstAsync: Int?

    init(capacity: Int) {
        self.capacity = capacity
        bodies = .allocate(capacity: capacity)
        names = .allocate(capacity: capacity)
    }

    /// Under the plumber's lock.
    func grown() -> _PlumbingStageStorage {
        copy(capacity: Swift.max(4, capacity * 2), skipping: nil)
    }

    /// Without the stage at `index`: a removal cannot change slots running snapshots read.
    /// Under the plumber's lock.
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

    /// Under the plumber's lock, with `initialized < capacity`.
    func append(name: String, body: _PlumbingStageBody<Payload>) {
        precondition(initialized < capacity, "plumbing stage storage is full")
        if case .async = body, firstAsync == nil { firstAsync = initialized }
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
