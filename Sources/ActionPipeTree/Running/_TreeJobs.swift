/// A node's two jobs, as the (non-generic) run calls them.
///
/// The closures are made by `OperationTreeNode`'s `@inlinable` init, so they are compiled in
/// the module that builds the tree, specialised for its types: the common call, `work` on an
/// item of a typed batch, reads the object and calls the provider without a cast, an
/// existential box or a generic value witness, and the compiler may inline the provider's
/// closure into it (one async frame per item instead of two). Everything else (events,
/// timeouts, retries, reports) goes through the erased forms.
@usableFromInline
final class _TreeJobs: Sendable {
    /// Maps a parent's output (or the run's input) to a batch of this node's objects; `nil`
    /// when there are none.
    let objects: _TreeObjectsJob
    /// Does the work on item `index` of a batch made by `objects`; returns the output when
    /// the flag asks for it (the node has children to pass it to), `nil` otherwise.
    let workOnItem: _TreeItemWorkJob
    /// Does the work on one object, erased: for retries, events and timeouts.
    let work: _TreeWorkJob

    @usableFromInline
    init(
        objects: @escaping _TreeObjectsJob, workOnItem: @escaping _TreeItemWorkJob,
        work: @escaping _TreeWorkJob
    ) {
        self.objects = objects
        self.workOnItem = workOnItem
        self.work = work
    }
}

/// A node's `objects`, erased. `nonisolated(nonsending)`: the wrapper runs on its caller's
/// executor instead of hopping to the global one first; a hop per call is a measurable share
/// of a trivial item's cost.
@usableFromInline
typealias _TreeObjectsJob =
    nonisolated(nonsending) @Sendable (any Sendable) async throws -> _TreeBatch?

/// A node's `work` on an item of one of its batches (see `_TreeJobs.workOnItem`).
@usableFromInline
typealias _TreeItemWorkJob =
    nonisolated(nonsending) @Sendable (_TreeBatch, Int, Bool, OperationTreeWorkContext)
    async throws -> (any Sendable)?

/// A node's `work` on one object, erased (see `_TreeObjectsJob`).
@usableFromInline
typealias _TreeWorkJob =
    nonisolated(nonsending) @Sendable (any Sendable, OperationTreeWorkContext) async throws
    -> any Sendable
