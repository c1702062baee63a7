import ActionPipeConcurrency
import Synchronization

/// The typed name of one kind of side data that handlers pass down a call.
///
/// Declare each key once, as a `static let` (its identity is fixed when it is created, so
/// two keys created separately are different keys even with the same name):
///
/// ```swift
/// extension SideDataKey where Value == Date {
///     static var birthday: SideDataKey<Date> { Keys.birthday }
/// }
/// enum Keys {
///     static let birthday = SideDataKey<Date>("birthday")
/// }
/// process.sideData[Keys.birthday] = Date()
/// ```
///
/// Values must be `Sendable`, so side data can travel with calls that cross isolation
/// domains (async actions, actor-isolated handlers).
public struct SideDataKey<Value: Sendable>: Sendable, Hashable, CustomStringConvertible {
    @usableFromInline let id: Int

    /// A readable name, used in descriptions and traces.
    ///
    /// ```swift
    /// print(Keys.birthday.name)   // "birthday"
    /// ```
    public let name: String

    /// Creates a new, distinct key.
    ///
    /// ```swift
    /// static let userID = SideDataKey<Int>("userID")
    /// ```
    public init(_ name: String) {
        self.name = name
        self.id = Int(_sideDataKeyCounter.next())
        _SideDataKeyNames.shared.record(name, type: Value.self, for: id)
    }

    /// The key's name and value type: `birthday: Date`.
    ///
    /// ```swift
    /// print(Keys.birthday)   // "birthday: Date"
    /// ```
    public var description: String { "\(name): \(Value.self)" }

    /// Keys are equal when they are the same key, whatever their names.
    ///
    /// ```swift
    /// Keys.birthday == Keys.birthday   // true
    /// ```
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }

    /// Hashes the key's identity.
    ///
    /// ```swift
    /// var seen: Set<SideDataKey<Date>> = [Keys.birthday]
    /// ```
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// Gives every key a distinct identity without a lock.
private let _sideDataKeyCounter = IDSource()

/// The names and value types of side data keys by identity, so stored values need not
/// carry their key's name (which would make every copy of side data retain a string) or
/// their type (a word in every call's frame).
final class _SideDataKeyNames: Sendable {
    static let shared = _SideDataKeyNames()
    private let keys = LockedValue<[Int: (name: String, type: Any.Type)]>([:])

    /// - Complexity: Amortized O(1).
    func record(_ name: String, type: Any.Type, for id: Int) {
        keys.withLock { $0[id] = (name, type) }
    }
    func name(of id: Int) -> String { keys.withLock { $0[id]?.name } ?? "#\(id)" }
    /// The value type of the key `id`; every stored id comes from a key, so it is known.
    func type(of id: Int) -> Any.Type { keys.withLock { $0[id]?.type } ?? Void.self }
}
