@usableFromInline
enum _PlumbingStageBody<Payload: Sendable>: Sendable {
    case sync(@Sendable (inout PlumbingPacket<Payload>) throws -> PlumbingVerdict)
    case async(_PlumbingAsyncStageBody<Payload>)
}

/// `nonisolated(nonsending)`: runs on its caller's actor, with no hop around each stage.
@usableFromInline
typealias _PlumbingAsyncStageBody<Payload: Sendable> =
    nonisolated(nonsending) @Sendable (inout PlumbingPacket<Payload>) async throws
    -> PlumbingVerdict

/// The stages of a plumber, append-only, shared by its snapshots: a snapshot of `count`
/// stages reads slots `0..<count`, never changed once initialised; a removal or growth copies.
/// `@unchecked Sendable`: `initialized` and the slots from it on change only under the
/// plumber's lock.
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

    /// Without the stage at `index`, in O(s) for s stages: a removal cannot change slots
    /// running snapshots read. Under the plumber's lock.
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
