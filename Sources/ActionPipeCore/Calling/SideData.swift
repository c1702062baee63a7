/// Typed values that travel down one call, from the caller and earlier handlers to later
/// handlers (the original's `tmpTuple`, with names and types).
///
/// ```swift
/// pipe1.on(\.someFunc) { process in
///     process.sideData[Keys.birthday] = Date()   // Keys.birthday: SideDataKey<Date>
///     return nil
/// }
/// pipe2.on(\.someFunc) { process in process.sideData[Keys.birthday] }
/// ```
///
/// - Complexity: Reads and writes are O(1) for a call's first key, O(k) for k keys after
///   it. One trivial value of up to two words (`Int`, `Double`, `Date`, ...) is stored
///   inline, with no allocation or reference counting; other values and a second key go to
///   one out-of-line list. One inline slot only: slots are copied into every nested frame.
public struct SideData: Sendable, CustomStringConvertible {
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

    /// A trivial value's bytes with its key's id, which implies the type. Raw words, not
    /// `any Sendable`: an existential sends its every copy through value-witness code.
    /// `@unchecked Sendable`: `words` hold a copy of a trivial `Sendable` value.
    @usableFromInline
    struct _InlineSlot: @unchecked Sendable {
        /// 0 when the slot is free (key ids start at 1).
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

        var value: Any {
            func open<Value>(_ type: Value.Type) -> Any { load(type) }
            return _openExistential(_SideDataKeyNames.shared.type(of: id), do: open)
        }
    }

    /// Trivial, at most two words, and no stricter alignment than a word.
    @inlinable @inline(__always)
    static func _isInline<Value>(_: Value.Type) -> Bool {
        _isPOD(Value.self) && MemoryLayout<Value>.size <= MemoryLayout<(UInt64, UInt64)>.size
            && MemoryLayout<Value>.alignment <= MemoryLayout<UInt64>.alignment
    }

    @usableFromInline var _inline = _InlineSlot()
    @usableFromInline var _others: [_Slot]?

    /// Creates empty side data.
    @inlinable
    public init() {}

    @inlinable
    init(_inline inline: _InlineSlot, _others others: [_Slot]?) {
        _inline = inline
        _others = others
    }

    /// Creates side data holding one value.
    @inlinable
    public init<Value: Sendable>(_ key: SideDataKey<Value>, _ value: Value) {
        self[key] = value
    }

    /// The value stored for `key`, or `nil`. Assigning `nil` removes it.
    @inlinable
    public subscript<Value: Sendable>(key: SideDataKey<Value>) -> Value? {
        get {
            let id = key.id
            if Self._isInline(Value.self), _inline.id == id { return _inline.load(Value.self) }
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
            // A key never sits in two places: replace it where it is, else inline if it
            // fits and is free, else out of line.
            if Self._isInline(Value.self),
                _inline.id == id
                    || (_inline.id == 0 && _others?.contains(where: { $0.id == id }) != true)
            {
                _inline = _InlineSlot(id: id, newValue)
                return
            }
            _storeOutOfLine(_Slot(id: id, value: newValue))
        }
    }

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

    @usableFromInline
    mutating func _remove(_ id: Int) {
        if _inline.id == id { _inline = _InlineSlot() }
        if _others != nil {
            _others!.removeAll { $0.id == id }
            if _others!.isEmpty { _others = nil }
        }
    }

    /// Returns a copy with `value` stored for `key`.
    public func with<Value: Sendable>(_ key: SideDataKey<Value>, _ value: Value) -> SideData {
        var copy = self
        copy[key] = value
        return copy
    }

    /// How many values are stored.
    public var count: Int {
        (_inline.id == 0 ? 0 : 1) + (_others?.count ?? 0)
    }

    /// Whether no value is stored.
    public var isEmpty: Bool { count == 0 }

    /// The stored keys' names and values, for debugging: `[label: a]`.
    public var description: String {
        let names = _SideDataKeyNames.shared
        let inline = _inline.id == 0 ? [] : [(_inline.id, _inline.value)]
        let entries = inline + (_others ?? []).map { ($0.id, $0.value as Any) }
        return "[" + entries.map { "\(names.name(of: $0)): \($1)" }.joined(separator: ", ") + "]"
    }
}
