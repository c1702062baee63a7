/// The two jobs of a node of an operation tree as one type (the Swift form of
/// `DRBOperationProvider`). A thrown error is retried, then reported as an
/// ``OperationTreeFailure``.
public protocol OperationTreeProvider<Input, Output>: Sendable {
    /// What the node receives: the output of its parent node (or the object sent to the root).
    associatedtype Input: Sendable
    /// One object the node works on.
    associatedtype Item: Sendable
    /// What the work for one object produces; the node's children receive it.
    associatedtype Output: Sendable

    /// Maps an input to the objects to work on, in the order they should start.
    func objects(for input: Input) async throws -> [Item]

    /// Does the work for one object; the children receive its result.
    func work(on item: Item) async throws -> Output

    /// Does the work for one object, knowing which attempt it is; what the run calls.
    func work(on item: Item, context: OperationTreeWorkContext) async throws -> Output
}

extension OperationTreeProvider {
    /// Calls ``work(on:)``, for a provider that does not care which attempt it is.
    ///
    /// - Complexity: that of ``work(on:)``.
    public func work(on item: Item, context: OperationTreeWorkContext) async throws -> Output {
        try await work(on: item)
    }
}
