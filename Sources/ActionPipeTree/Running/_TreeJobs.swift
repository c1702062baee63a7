/// A node's two jobs, as the (non-generic) run calls them.
///
/// Made by `OperationTreeNode`'s `@inlinable` init, so they are specialised where the tree is
/// built: `workOnItem` calls the provider without a cast or a box. Events, timeouts and
/// retries use the erased forms.
@usableFromInline
final class _TreeJobs: Sendable {
    /// Maps a parent's output (or the run's input) to a batch of this node's objects; `nil`
    /// when there are none.
    let objects: _TreeObjectsJob
    /// Does the work on item `index` of a batch made by `objects`; returns the output only
    /// when the flag asks (the node has children).
    let workOnItem: _TreeItemWorkJob
    /// Does the work on one object, erased.
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

/// A node's `objects`, erased. `nonisolated(nonsending)`: runs on its caller's executor,
/// with no hop to the global one.
@usableFromInline
typealias _TreeObjectsJob =
    nonisolated(nonsending) @Sendable (any Sendable) async throws -> _TreeBatch?

/// A node's `work` on an item of one of its batches (see `_TreeJobs.workOnItem`).
@usableFromInline
typealias _TreeItemWorkJob =
    nonisolated(nonsending) @Sendable (_TreeBatch, Int, Bool, OperationTreeWorkContext)
    async throws -> (any Sendable)?

/// A node's `work` on one object, erased.
@usableFromInline
typealias _TreeWorkJob =
    nonisolated(nonsending) @Sendable (any Sendable, OperationTreeWorkContext) async throws
    -> any Sendable
