/// Typed values that travel down one call, from the caller and earlier handlers to later
/// handlers (the original's `tmpTuple`, with names and types instead of positions).
///
/// ```swift
/// enum Keys {
///     static let birthday = SideDataKey<Date>("birthday")
///     static let label = SideDataKey<String>("label")
/// }
/// pipe1.on(\.someFunc) { process in
///     process.sideData[Keys.birthday] = Date()
///     process.sideData[Keys.label] = "Robot No.999 birth day"
///     return nil
/// }
/// pipe2.on(\.someFunc) { process in
///     print(process.sideData[Keys.label] ?? "")
///     return process.sideData[Keys.birthday]
/// }
/// ```
///
/// - Complexity: Reading and writing are O(1) for the first four keys of a call, which are
///   stored inline without allocating (values of up to three machine words, such as `Int`,
///   `Date`, `String` and class references, are stored without any allocation); further
///   keys go to a dictionary.
public struct SideData: Sendable, CustomStringConvertible {
    /// One stored value; `name` is kept for descriptions.
    @usableFromInline
    struct _Slot: Sendable {
        @usableFromInline var id: Int
        @usableFromInline var name: String
        @usableFromInline var value: any Sendable
    }

    @usableFromInline var _s0: _Slot?
    @usableFromInline var _s1: _Slot?
    @usableFromInline var _s2: _Slot?
    @usableFromInline var _s3: _Slot?
    @usableFromInline var _overflow: [Int: _Slot]?

    /// Creates empty side data.
    ///
    /// ```swift
    /// var data = SideData()
    /// data[Keys.label] = "hello"
    /// ```
    public init() {}

    /// Creates side data holding one value.
    ///
    /// ```swift
    /// let data = SideData(Keys.label, "hello")
    /// ```
    public init<Value: Sendable>(_ key: SideDataKey<Value>, _ value: Value) {
        self[key] = value
    }

    /// The value stored for `key`, or `nil`. Assigning `nil` removes it.
    ///
    /// ```swift
    /// process.sideData[Keys.label] = "hello"
    /// let label: String? = process.sideData[Keys.label]
    /// ```
    public subscript<Value: Sendable>(key: SideDataKey<Value>) -> Value? {
        get {
            if let slot = _s0, slot.id == key.id { return slot.value as? Value }
            if let slot = _s1, slot.id == key.id { return slot.value as? Value }
            if let slot = _s2, slot.id == key.id { return slot.value as? Value }
            if let slot = _s3, slot.id == key.id { return slot.value as? Value }
            return _overflow?[key.id]?.value as? Value
        }
        set {
            guard let newValue else {
                _remove(key.id)
                return
            }
            let slot = _Slot(id: key.id, name: key.name, value: newValue)
            // Replace in place when the key is already stored, so a key never sits in two
            // slots; otherwise take the first free inline slot, then the dictionary.
            if _s0?.id == key.id {
                _s0 = slot
            } else if _s1?.id == key.id {
                _s1 = slot
            } else if _s2?.id == key.id {
                _s2 = slot
            } else if _s3?.id == key.id {
                _s3 = slot
            } else if _overflow?[key.id] != nil {
                _overflow?[key.id] = slot
            } else if _s0 == nil {
                _s0 = slot
            } else if _s1 == nil {
                _s1 = slot
            } else if _s2 == nil {
                _s2 = slot
            } else if _s3 == nil {
                _s3 = slot
            } else {
                _overflow = _overflow ?? [:]
                _overflow?[key.id] = slot
            }
        }
    }

    /// Returns a copy with `value` stored for `key`.
    ///
    /// ```swift
    /// let data = SideData().with(Keys.label, "a").with(Keys.birthday, Date())
    /// ```
    public func with<Value: Sendable>(_ key: SideDataKey<Value>, _ value: Value) -> SideData {
        var copy = self
        copy[key] = value
        return copy
    }

    /// How many values are stored.
    ///
    /// ```swift
    /// SideData(Keys.label, "a").count   // 1
    /// ```
    public var count: Int {
        [_s0, _s1, _s2, _s3].count { $0 != nil } + (_overflow?.count ?? 0)
    }

    /// Whether no value is stored.
    ///
    /// ```swift
    /// SideData().isEmpty   // true
    /// ```
    public var isEmpty: Bool { count == 0 }

    /// The stored keys' names and values, for debugging: `[label: a]`.
    ///
    /// ```swift
    /// print(SideData(Keys.label, "a"))   // [label: a]
    /// ```
    public var description: String {
        let slots =
            [_s0, _s1, _s2, _s3].compactMap { $0 } + (_overflow.map { Array($0.values) } ?? [])
        return "[" + slots.map { "\($0.name): \($0.value)" }.joined(separator: ", ") + "]"
    }

    private mutating func _remove(_ id: Int) {
        if _s0?.id == id { _s0 = nil }
        if _s1?.id == id { _s1 = nil }
        if _s2?.id == id { _s2 = nil }
        if _s3?.id == id { _s3 = nil }
        _overflow?[id] = nil
    }
}
