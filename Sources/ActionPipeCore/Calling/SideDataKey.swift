import ActionPipeConcurrency

/// The typed name of one kind of side data that handlers pass down a call. Declare each key
/// once, as a `static let`: two keys created separately are different even with one name.
///
/// ```swift
/// enum Keys {
///     static let birthday = SideDataKey<Date>("birthday")
/// }
/// process.sideData[Keys.birthday] = Date()
/// ```
public struct SideDataKey<Value: Sendable>: Sendable, Hashable, CustomStringConvertible {
    @usableFromInline let id: Int

    /// A readable name, used in descriptions and traces.
    public let name: String

    /// Creates a new, distinct key.
    public init(_ name: String) {
        self.name = name
        self.id = Int(_sideDataKeyCounter.next())
        _SideDataKeyNames.shared.record(name, type: Value.self, for: id)
    }

    /// The key's name and value type: `birthday: Date`.
    public var description: String { "\(name): \(Value.self)" }
}

private let _sideDataKeyCounter = IDSource()

/// Names and value types of keys by identity, so stored values carry neither.
final class _SideDataKeyNames: Sendable {
    static let shared = _SideDataKeyNames()
    private let keys = LockedValue<[Int: (name: String, type: Any.Type)]>([:])

    func record(_ name: String, type: Any.Type, for id: Int) {
        keys.withLock { $0[id] = (name, type) }
    }
    func name(of id: Int) -> String { keys.withLock { $0[id]?.name } ?? "#\(id)" }
    /// Every stored id comes from a key, so it is known.
    func type(of id: Int) -> Any.Type { keys.withLock { $0[id]?.type } ?? Void.self }
}
