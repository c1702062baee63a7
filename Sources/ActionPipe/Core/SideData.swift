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
    /// One stored value.
    @usableFromInline
    struct _Slot: Sendable {
        @usableFromInline var id: Int
        @usableFromInline var value: any Sendable

        @inlinable
        init(id: Int, value: any Sendable) {
            self.id = id
            self.value = value
        }
    }

    /// The first four values of a call, stored inline.
    @usableFromInline
    struct _Inline: Sendable {
        @usableFromInline var s0: _Slot?
        @usableFromInline var s1: _Slot?
        @usableFromInline var s2: _Slot?
        @usableFromInline var s3: _Slot?

        @inlinable init() {}

        @inlinable
        func value(for id: Int) -> (any Sendable)? {
            if let slot = s0, slot.id == id { return slot.value }
            if let slot = s1, slot.id == id { return slot.value }
            if let slot = s2, slot.id == id { return slot.value }
            if let slot = s3, slot.id == id { return slot.value }
            return nil
        }

        /// Replaces the value of `slot.id`, or takes the first free slot; `false` when
        /// every slot holds another key.
        @inlinable
        mutating func store(_ slot: _Slot) -> Bool {
            if s0?.id == slot.id {
                s0 = slot
            } else if s1?.id == slot.id {
                s1 = slot
            } else if s2?.id == slot.id {
                s2 = slot
            } else if s3?.id == slot.id {
                s3 = slot
            } else if s0 == nil {
                s0 = slot
            } else if s1 == nil {
                s1 = slot
            } else if s2 == nil {
                s2 = slot
            } else if s3 == nil {
                s3 = slot
            } else {
                return false
            }
            return true
        }

        @inlinable
        mutating func remove(_ id: Int) {
            if s0?.id == id { s0 = nil }
            if s1?.id == id { s1 = nil }
            if s2?.id == id { s2 = nil }
            if s3?.id == id { s3 = nil }
        }

        var slots: [_Slot] { [s0, s1, s2, s3].compactMap { $0 } }
    }

    /// `nil` while empty, so copying and destroying empty side data (every plain call
    /// does) costs a tag check instead of four.
    @usableFromInline var _inline: _Inline?
    @usableFromInline var _overflow: [Int: _Slot]?

    /// Creates empty side data.
    ///
    /// ```swift
    /// var data = SideData()
    /// data[Keys.label] = "hello"
    /// ```
    @inlinable
    public init() {}

    /// Creates side data holding one value.
    ///
    /// ```swift
    /// let data = SideData(Keys.label, "hello")
    /// ```
    @inlinable
    public init<Value: Sendable>(_ key: SideDataKey<Value>, _ value: Value) {
        self[key] = value
    }

    /// The value stored for `key`, or `nil`. Assigning `nil` removes it.
    ///
    /// ```swift
    /// process.sideData[Keys.label] = "hello"
    /// let label: String? = process.sideData[Keys.label]
    /// ```
    @inlinable
    public subscript<Value: Sendable>(key: SideDataKey<Value>) -> Value? {
        get {
            if let value = _inline?.value(for: key.id) { return value as? Value }
            guard let overflow = _overflow else { return nil }
            return overflow[key.id]?.value as? Value
        }
        set {
            guard let newValue else {
                _inline?.remove(key.id)
                _overflow?[key.id] = nil
                return
            }
            let slot = _Slot(id: key.id, value: newValue)
            // A key never sits in two places: replace it in the dictionary if it went
            // there; otherwise the inline slots take it, and the dictionary the rest.
            if _overflow?[key.id] != nil {
                _overflow?[key.id] = slot
                return
            }
            if _inline == nil { _inline = _Inline() }
            if !_inline!.store(slot) {
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
    public var count: Int { (_inline?.slots.count ?? 0) + (_overflow?.count ?? 0) }

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
        let slots = (_inline?.slots ?? []) + (_overflow.map { Array($0.values) } ?? [])
        let names = _SideDataKeyNames.shared
        return "[" + slots.map { "\(names.name(of: $0.id)): \($0.value)" }.joined(separator: ", ")
            + "]"
    }
}
