import ActionPipeConcurrency

/// A node of an operation tree (the Swift form of `DRBOperationTree`): maps its input to
/// objects, works on each, and sends each output to its children (the OperationTree guide).
///
/// A child's `Input` is its parent's `Output`, so steps that do not fit together do not
/// compile. A run works on the tree as it was when it started.
public final class OperationTreeNode<Input: Sendable, Output: Sendable>: Sendable {
    /// The node's name, as events, failures and reports show it.
    public let name: String
    /// The most calls of this node's provider running at once, within the run's limit;
    /// `nil`: only the run's limit applies.
    public let concurrencyLimit: Int?
    /// This node's retry policy; `nil`: the run's ``OperationTreeOptions/retry``.
    public let retry: OperationTreeRetryPolicy?

    @usableFromInline let objects: _TreeObjectsJob
    @usableFromInline let work: _TreeWorkJob
    let children = LockedValue<[any _TreeNodeErased]>([])

    /// A node from its two jobs as closures: `objects` maps an input to the objects to work
    /// on, in the order they start; `work`'s result goes to the children. A
    /// `concurrencyLimit` (at least 1) or `retry` policy of its own applies to this node only.
    ///
    /// - Complexity: O(1).
    @inlinable
    public convenience init<Item: Sendable>(
        _ name: String, concurrencyLimit: Int? = nil, retry: OperationTreeRetryPolicy? = nil,
        objects: nonisolated(nonsending) @escaping @Sendable (Input) async throws -> [Item],
        work: nonisolated(nonsending) @escaping @Sendable (Item) async throws -> Output
    ) {
        self.init(
            name, concurrencyLimit: concurrencyLimit, retry: retry, objects: objects,
            work: { item, _ in try await work(item) })
    }

    /// A node from its two jobs as closures, whose work is told which attempt it is.
    ///
    /// - Complexity: O(1).
    @inlinable
    public init<Item: Sendable>(
        _ name: String, concurrencyLimit: Int? = nil, retry: OperationTreeRetryPolicy? = nil,
        objects: nonisolated(nonsending) @escaping @Sendable (Input) async throws -> [Item],
        work:
            nonisolated(nonsending) @escaping @Sendable (Item, OperationTreeWorkContext)
            async throws -> Output
    ) {
        self.name = name
        self.concurrencyLimit = concurrencyLimit.map { max(1, $0) }
        self.retry = retry
        // The casts cannot fail: `addChild` types the child's `Input`, and `work` gets only
        // batches this node's `objects` made.
        self.objects = { input in
            let items = try await objects(input as! Input)
            return items.isEmpty ? nil : _TreeTypedBatch(items)
        }
        self.work = { batch, index, context, keepOutput in
            let output = try await work((batch as! _TreeTypedBatch<Item>).items[index], context)
            return keepOutput ? output : nil
        }
    }

    /// A node whose jobs are a provider's; the run calls its
    /// ``OperationTreeProvider/work(on:context:)``.
    ///
    /// - Complexity: O(1).
    @inlinable
    public convenience init<Provider: OperationTreeProvider>(
        _ name: String, concurrencyLimit: Int? = nil, retry: OperationTreeRetryPolicy? = nil,
        provider: Provider
    ) where Provider.Input == Input, Provider.Output == Output {
        self.init(
            name, concurrencyLimit: concurrencyLimit, retry: retry,
            objects: { try await provider.objects(for: $0) },
            work: { try await provider.work(on: $0, context: $1) })
    }

    /// Adds `child` after the children added before; it receives every output of this node.
    /// A node may have several parents (it runs under each).
    ///
    /// - Returns: `child`, so `try a.addChild(b).addChild(c)` makes `a → b → c`.
    /// - Throws: ``OperationTreeError/cycle(parent:child:)`` when this node is `child` or
    ///   one of its descendants; the tree is then unchanged.
    /// - Complexity: O(n) for the n nodes below `child` (the cycle check).
    @discardableResult
    public func addChild<ChildOutput>(_ child: OperationTreeNode<Output, ChildOutput>)
        throws(OperationTreeError) -> OperationTreeNode<Output, ChildOutput>
    {
        // One at a time: two concurrent calls could each pass the check and make a cycle.
        let added = _treeStructureLock.withLock { changes -> Bool in
            if child.contains(ObjectIdentifier(self)) { return false }
            children.withLock { $0.append(child) }
            changes += 1
            return true
        }
        guard added else { throw .cycle(parent: name, child: child.name) }
        return child
    }

    /// The names of the children, in the order they were added.
    ///
    /// - Complexity: O(c) for c children.
    public var childNames: [String] { childNodes.map(\.name) }
}

/// A node's `objects`: a batch of the node's objects for a parent's output (or the run's
/// input), `nil` when there are none.
@usableFromInline
typealias _TreeObjectsJob =
    nonisolated(nonsending) @Sendable (any Sendable) async throws -> _TreeBatch?

/// A node's `work` on item `index` of a batch its `objects` made; returns the output only
/// when the last flag asks (a leaf's is never boxed).
@usableFromInline
typealias _TreeWorkJob =
    nonisolated(nonsending) @Sendable (_TreeBatch, Int, OperationTreeWorkContext, Bool)
    async throws -> (any Sendable)?

extension OperationTreeNode: _TreeNodeErased {
    var id: ObjectIdentifier { ObjectIdentifier(self) }

    var childNodes: [any _TreeNodeErased] { children.withLock { $0 } }
}

protocol _TreeNodeErased: AnyObject, Sendable {
    var id: ObjectIdentifier { get }
    var name: String { get }
    var concurrencyLimit: Int? { get }
    var retry: OperationTreeRetryPolicy? { get }
    var objects: _TreeObjectsJob { get }
    var work: _TreeWorkJob { get }
    var childNodes: [any _TreeNodeErased] { get }
}

extension _TreeNodeErased {
    /// Whether `id` is this node or one of its descendants. Takes one node's lock at a
    /// time, so concurrent `addChild` calls cannot deadlock.
    func contains(_ id: ObjectIdentifier) -> Bool {
        var stack: [any _TreeNodeErased] = [self]
        var seen: Set<ObjectIdentifier> = []
        while let node = stack.popLast() {
            if node.id == id { return true }
            if seen.insert(node.id).inserted { stack.append(contentsOf: node.childNodes) }
        }
        return false
    }
}

/// Serialises `addChild` of every tree (a cycle can span trees). An `Int`, not `Void`:
/// ThreadSanitizer reports a zero-sized guarded value as racing with the lock's pointer.
let _treeStructureLock = LockedValue<Int>(0)
