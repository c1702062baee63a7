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
/// - Complexity: Reading and writing are O(1) for a call's first key, and O(k) for k keys
///   after it. One trivial value of up to two machine words (`Int`, `Double`, `Bool`,
///   `Date`, small structs of such) is stored inline, without allocating and without
///   reference counting, so a call that carries it costs no more than one that carries
///   nothing. Other values (`String`, arrays, class references, larger structs) and a
///   second key go to an out-of-line list: one allocation for the call's side data. One
///   slot, not more: the slots are copied into every nested call's stack frame, and each
///   one made nested calls measurably deeper on the stack.
public struct SideData: Sendable, CustomStringConvertible {
    /// A value stored out of line.
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

    /// A value stored inline: the bytes of a trivial value of up to two words, with its
    /// key's id. The id implies the value's type (each key has one), which the key
    /// registry keeps, so a slot is three words: side data lives in every call's frame.
    ///
    /// Why raw bytes instead of `any Sendable`: an existential makes `SideData` a
    /// non-trivial type, and every copy or destruction of it (each call makes several,
    /// even of empty side data) then goes through outlined value-witness code, which cost
    /// about a third of a whole three-handler call. Raw words keep `SideData` trivial except
    /// for one optional reference.
    ///
    /// `@unchecked Sendable`: `words` hold a copy of a trivial `Sendable` value (no
    /// reference).
    @usableFromInline
    struct _InlineSlot: @unchecked Sendable {
        /// The key's id; 0 when the slot is free (key ids start at 1).
        @usableFromInline var id = 0
        @usableFromInline var words: (UInt64, UInt64) = (0, 0)

        @inlinable init() {}

        @inlinable
        init<Value>(id: Int, _ value: Value) {
            self.id = id
            withUnsafeMutableBytes(of: &words) { $0.storeBytes(of: value, as: Value.self) }
        }

        @inlinable
        func load<Value>(_: Value.Type) -> Value {
            withUnsafeBytes(of: words) { $0.load(as: Value.self) }
        }

        /// The value, for `description`.
        var value: Any {
            func open<Value>(_ type: Value.Type) -> Any { load(type) }
            return _openExistential(_SideDataKeyNames.shared.type(of: id), do: open)
        }
    }

    /// Whether values of type `Value` are stored inline: trivial (no references, no
    /// custom copy), at most two words, and no stricter alignment than a word.
    @inlinable @inline(__always)
    static func _isInline<Value>(_: Value.Type) -> Bool {
        _isPOD(Value.self) && MemoryLayout<Value>.size <= MemoryLayout<(UInt64, UInt64)>.size
            && MemoryLayout<Value>.alignment <= MemoryLayout<UInt64>.alignment
    }

    /// The inline slot: a trivial value, so a call can carry it by copy, apart from the
    /// out-of-line values.
    @usableFromInline
    struct _Inline: Sendable {
        @usableFromInline var s0 = _InlineSlot()

        @inlinable init() {}

        /// The slot, if in use.
        var slots: [_InlineSlot] { s0.id == 0 ? [] : [s0] }

        /// Replaces the slot if it holds `slot.id`'s value; `false` when it does not.
        @inlinable @inline(__always)
        mutating func replace(_ slot: _InlineSlot) -> Bool {
            guard s0.id == slot.id else { return false }
            s0 = slot
            return true
        }

        /// Puts `slot` in the slot if it is free; `false` when it is taken.
        @inlinable @inline(__always)
        mutating func insert(_ slot: _InlineSlot) -> Bool {
            guard s0.id == 0 else { return false }
            s0 = slot
            return true
        }
    }

    @usableFromInline var _inline = _Inline()
    /// Values that are not stored inline; `nil` while there are none.
    @usableFromInline var _others: [_Slot]?

    /// Creates empty side data.
    ///
    /// ```swift
    /// var data = SideData()
    /// data[Keys.label] = "hello"
    /// ```
    @inlinable
    public init() {}

    /// Side data made of `inline` slots and `others`.
    @inlinable
    init(_inline inline: _Inline, _others others: [_Slot]?) {
        _inline = inline
        _others = others
    }

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
            let id = key.id
            if Self._isInline(Value.self) {
                if _inline.s0.id == id { return _inline.s0.load(Value.self) }
            }
            guard let others = _others else { return nil }
            for slot in others where slot.id == id { return slot.value as? Value }
            return nil
        }
        set {
            let id = key.id
            guard let newValue else {
                _remove(id)
                return
            }
            // A key never sits in two places: replace it where it is; otherwise an inline
            // value takes the first free slot, and anything else goes out of line.
            if Self._isInline(Value.self) {
                let slot = _InlineSlot(id: id, newValue)
                if _inline.replace(slot) { return }
                if _others?.contains(where: { $0.id == id }) != true, _inline.insert(slot) {
                    return
                }
            }
            _storeOutOfLine(_Slot(id: id, value: newValue))
        }
    }

    /// Stores `slot` in the out-of-line list, replacing the key's earlier value.
    @usableFromInline
    mutating func _storeOutOfLine(_ slot: _Slot) {
        var others = _others ?? []
        _others = nil  // keep the array uniquely referenced while it changes
        if let index = others.firstIndex(where: { $0.id == slot.id }) {
            others[index] = slot
        } else {
            others.append(slot)
        }
        _others = others
    }

    /// Removes the value of the key `id`, wherever it is.
    @usableFromInline
    mutating func _remove(_ id: Int) {
        if _inline.s0.id == id { _inline.s0 = _InlineSlot() }
        if _others != nil {
            _others!.removeAll { $0.id == id }
            if _others!.isEmpty { _others = nil }
        }
    }

    /// Every stored value with its key's id: inline slots first, then the others.
    var _entries: [(id: Int, value: Any)] {
        let inline = _inline.slots.map { ($0.id, $0.value) }
        return inline + (_others ?? []).map { ($0.id, $0.value as Any) }
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
        _inline.slots.count + (_others?.count ?? 0)
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
        let names = _SideDataKeyNames.shared
        return "["
            + _entries.map { "\(names.name(of: $0.id)): \($0.value)" }.joined(separator: ", ")
            + "]"
    }
}
