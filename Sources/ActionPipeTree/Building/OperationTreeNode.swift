import ActionPipeConcurrency

/// A node of an operation tree (the Swift form of `DRBOperationTree`): maps its input to
/// objects, works on each, and sends each output to its children.
///
/// A child's `Input` is its parent's `Output`, so steps that do not fit together do not
/// compile.
///
/// ```swift
/// let cookbook = OperationTreeNode("cookbook",
///     objects: { (id: String) in [id] }, work: { id in try await api.cookbook(id) })
/// let recipe = OperationTreeNode("recipe",
///     objects: { (book: Cookbook) in book.recipeIDs }, work: { id in try await api.recipe(id) })
/// try cookbook.addChild(recipe)
/// let report = await cookbook.run("a-cookbook")  // report.failures lists the misses
/// ```
///
/// A run works on the tree as it was when it started: children added meanwhile reach later
/// runs only.
public final class OperationTreeNode<Input: Sendable, Output: Sendable>: Sendable {
    /// The node's name, as events, failures and reports show it.
    public let name: String
    /// The most calls of this node's provider running at once, within the run's limit;
    /// `nil`: only the run's limit applies.
    public let concurrencyLimit: Int?
    /// This node's retry policy; `nil`: the run's ``OperationTreeOptions/retry``.
    public let retry: OperationTreeRetryPolicy?

    let jobs: _TreeJobs
    let children = LockedValue<[any _TreeNodeErased]>([])

    /// A node from its two jobs as closures.
    ///
    /// - Parameters:
    ///   - name: how events and reports name the node.
    ///   - concurrencyLimit: the most of this node's calls at once (at least 1), or `nil`.
    ///   - retry: a policy for this node instead of the run's.
    ///   - objects: maps an input to the objects to work on, in the order they start.
    ///   - work: does the work for one object; its result goes to the children.
    /// - Complexity: O(1).
    @inlinable
    public convenience init<Item: Sendable>(
        _ name: String, concurrencyLimit: Int? = nil, retry: OperationTreeRetryPolicy? = nil,
        objects: nonisolated(nonsending) @escaping @Sendable (Input) async throws -> [Item],
        work: nonisolated(nonsending) @escaping @Sendable (Item) async throws -> Output
    ) {
        // The casts cannot fail: `addChild` only accepts children whose `Input` is this
        // node's `Output`, and `workOnItem` gets only batches this node's `objects` made.
        let jobs = _TreeJobs(
            objects: { input in
                let items = try await objects(input as! Input)
                return items.isEmpty ? nil : _TreeTypedBatch(items)
            },
            workOnItem: { batch, index, keepOutput, _ in
                let item = (batch as! _TreeTypedBatch<Item>).items[index]
                let output = try await work(item)
                return keepOutput ? output : nil
            },
            work: { object, _ in try await work(object as! Item) })
        self.init(name, concurrencyLimit: concurrencyLimit, retry: retry, jobs: jobs)
    }

    /// A node from its two jobs as closures, whose work is told which attempt it is.
    ///
    /// ```swift
    /// let recipe = OperationTreeNode("recipe",
    ///     objects: { (book: Cookbook) in book.recipeIDs },
    ///     work: { (id: Int, context: OperationTreeWorkContext) in
    ///         try await api.recipe(id, fresh: context.attempt > 1)
    ///     })
    /// ```
    ///
    /// - Parameters:
    ///   - name: how events and reports name the node.
    ///   - concurrencyLimit: the most of this node's calls at once (at least 1), or `nil`.
    ///   - retry: a policy for this node instead of the run's.
    ///   - objects: maps an input to the objects to work on, in the order they start.
    ///   - work: does the work for one object, given its attempt; the children get the result.
    /// - Complexity: O(1).
    @inlinable
    public convenience init<Item: Sendable>(
        _ name: String, concurrencyLimit: Int? = nil, retry: OperationTreeRetryPolicy? = nil,
        objects: nonisolated(nonsending) @escaping @Sendable (Input) async throws -> [Item],
        work:
            nonisolated(nonsending) @escaping @Sendable (Item, OperationTreeWorkContext)
            async throws -> Output
    ) {
        let jobs = _TreeJobs(
            objects: { input in
                let items = try await objects(input as! Input)
                return items.isEmpty ? nil : _TreeTypedBatch(items)
            },
            workOnItem: { batch, index, keepOutput, context in
                let item = (batch as! _TreeTypedBatch<Item>).items[index]
                let output = try await work(item, context)
                return keepOutput ? output : nil
            },
            work: { object, context in try await work(object as! Item, context) })
        self.init(name, concurrencyLimit: concurrencyLimit, retry: retry, jobs: jobs)
    }

    @usableFromInline
    init(
        _ name: String, concurrencyLimit: Int?, retry: OperationTreeRetryPolicy?, jobs: _TreeJobs
    ) {
        self.name = name
        self.concurrencyLimit = concurrencyLimit.map { max(1, $0) }
        self.retry = retry
        self.jobs = jobs
    }

    /// A node whose jobs are a provider's; the run calls its
    /// ``OperationTreeProvider/work(on:context:)``.
    ///
    /// ```swift
    /// let ingredient = OperationTreeNode("ingredient", provider: IngredientProvider())
    /// ```
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
    ///
    /// A node may have several parents (it runs under each). Returns `child`, so
    /// `try a.addChild(b).addChild(c)` makes `a → b → c`.
    ///
    /// - Throws: ``OperationTreeError/cycle(parent:child:)`` when this node is `child` or
    ///   one of its descendants; the tree is then unchanged.
    /// - Complexity: O(n) for the n nodes below `child` (the cycle check).
    @discardableResult
    public func addChild<ChildOutput>(_ child: OperationTreeNode<Output, ChildOutput>)
        throws(OperationTreeError) -> OperationTreeNode<Output, ChildOutput>
    {
        // One structural change at a time: two concurrent calls cannot each pass the check
        // and together make a cycle (a → b, b → a).
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

extension OperationTreeNode: _TreeNodeErased {
    var id: ObjectIdentifier { ObjectIdentifier(self) }

    var childNodes: [any _TreeNodeErased] { children.withLock { $0 } }
}

protocol _TreeNodeErased: AnyObject, Sendable {
    var id: ObjectIdentifier { get }
    var name: String { get }
    var concurrencyLimit: Int? { get }
    var retry: OperationTreeRetryPolicy? { get }
    var jobs: _TreeJobs { get }
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
