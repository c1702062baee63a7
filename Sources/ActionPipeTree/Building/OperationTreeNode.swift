import ActionPipeConcurrency

/// A node of an operation tree: the Swift form of `DRBOperationTree`.
///
/// A node maps what it receives (`Input`: its parent's output, or the object sent to the
/// root) to objects, does the work for each object, and sends each output (`Output`) to
/// its children. A child must take the parent's `Output` as its `Input`, so a tree whose
/// steps do not fit together does not compile, and a node cannot exist without its two jobs.
///
/// ```swift
/// let cookbook = OperationTreeNode("cookbook",
///     objects: { (id: String) in [id] }, work: { id in try await api.cookbook(id) })
/// let recipe = OperationTreeNode("recipe",
///     objects: { (book: Cookbook) in book.recipeIDs }, work: { id in try await api.recipe(id) })
/// try cookbook.addChild(recipe)
/// let report = await cookbook.run("a-cookbook")  // every recipe fetched; report.failures lists misses
/// ```
///
/// Nodes are `Sendable`; adding children while a run is going on affects later runs only
/// (a run works on the tree as it was when it started).
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
    /// ```swift
    /// let recipe = OperationTreeNode("recipe",
    ///     objects: { (book: Cookbook) in book.recipeIDs },
    ///     work: { (id: Int) in try await api.recipe(id) })
    /// ```
    ///
    /// - Parameters:
    ///   - name: how events and reports name the node.
    ///   - concurrencyLimit: the most of this node's calls at once (values below 1 count
    ///     as 1); `nil` for the run's limit only.
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
        // `@inlinable`: these closures are compiled where the tree is built, specialised for
        // its types (see `_TreeJobs`). The casts cannot fail: `addChild` only accepts children
        // whose `Input` is this node's `Output`, and the run gives `workOnItem` only batches
        // that this node's `objects` made.
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
    ///         try await api.recipe(id, fresh: context.attempt > 1)  // skip a cache on retries
    ///     })
    /// ```
    ///
    /// - Parameters:
    ///   - name: how events and reports name the node.
    ///   - concurrencyLimit: the most of this node's calls at once (values below 1 count
    ///     as 1); `nil` for the run's limit only.
    ///   - retry: a policy for this node instead of the run's.
    ///   - objects: maps an input to the objects to work on, in the order they start.
    ///   - work: does the work for one object, given the attempt (1 for the first call, 2
    ///     for the first retry, …); its result goes to the children.
    /// - Complexity: O(1).
    @inlinable
    public convenience init<Item: Sendable>(
        _ name: String, concurrencyLimit: Int? = nil, retry: OperationTreeRetryPolicy? = nil,
        objects: nonisolated(nonsending) @escaping @Sendable (Input) async throws -> [Item],
        work:
            nonisolated(nonsending) @escaping @Sendable (Item, OperationTreeWorkContext)
            async throws -> Output
    ) {
        // As the init above; the context is made by the run, one per attempt.
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

    /// A node whose jobs are a provider's, like `node.provider = …` in DRBOperationTree.
    ///
    /// ```swift
    /// let ingredient = OperationTreeNode("ingredient", provider: IngredientProvider())
    /// ```
    ///
    /// The run calls the provider's ``OperationTreeProvider/work(on:context:)``, which by
    /// default calls its `work(on:)`.
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
    /// ```swift
    /// try recipe.addChild(recipeImage)
    /// try recipe.addChild(ingredient)  // siblings start in the order they were added
    /// ```
    ///
    /// A node may be the child of several nodes (it runs under each). Returns `child`, so
    /// calls can be nested: `try a.addChild(b).addChild(c)` makes `a → b → c`.
    ///
    /// - Throws: ``OperationTreeError/cycle(parent:child:)`` when this node is `child` or
    ///   one of its descendants; the tree is then unchanged.
    @discardableResult
    public func addChild<ChildOutput>(_ child: OperationTreeNode<Output, ChildOutput>)
        throws(OperationTreeError) -> OperationTreeNode<Output, ChildOutput>
    {
        // One structural change at a time, so two concurrent calls cannot each pass the
        // check and together make a cycle (a → b and b → a). No user code runs inside.
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
    /// ```swift
    /// #expect(recipe.childNames == ["recipe image", "ingredient"])
    /// ```
    public var childNames: [String] { childNodes.map(\.name) }
}

extension OperationTreeNode: _TreeNodeErased {
    var id: ObjectIdentifier { ObjectIdentifier(self) }

    var childNodes: [any _TreeNodeErased] { children.withLock { $0 } }
}

/// A node with its types erased: what the plan and the cycle check need.
protocol _TreeNodeErased: AnyObject, Sendable {
    var id: ObjectIdentifier { get }
    var name: String { get }
    var concurrencyLimit: Int? { get }
    var retry: OperationTreeRetryPolicy? { get }
    var jobs: _TreeJobs { get }
    var childNodes: [any _TreeNodeErased] { get }
}

extension _TreeNodeErased {
    /// Whether `id` is this node or one of its descendants. Reads each node's children
    /// under its own lock, one node at a time, so concurrent `addChild` calls cannot
    /// deadlock.
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

/// Serialises `addChild` calls of every tree (they are rare, and a cycle can span trees).
/// The value counts the children added; it is an `Int`, not `Void`, because ThreadSanitizer
/// reports a zero-sized guarded value as racing with the lock's own pointer.
let _treeStructureLock = LockedValue<Int>(0)
