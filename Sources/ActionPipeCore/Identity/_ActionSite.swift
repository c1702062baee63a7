/// An action's identity as a call sees it: its file name literal's address, position, type
/// and name, with their hash. Equal identities may differ in address (one literal in two
/// modules) or name storage: the cache misses, and the table, by content, finds the key.
@usableFromInline
struct _ActionSite {
    /// The literal's UTF-8 address, or 0 for a one-scalar literal (told apart by content).
    @usableFromInline let fileAddress: UInt
    /// The literal's byte count, or its one scalar when `fileAddress` is 0.
    @usableFromInline let fileWord: UInt
    /// The line in the high 32 bits, the column in the low 32.
    @usableFromInline let position: UInt64
    @usableFromInline let type: ObjectIdentifier
    @usableFromInline let name: String
    @usableFromInline let hash: UInt

    @inlinable @inline(__always)
    func matches(
        hash: UInt, fileAddress: UInt, fileWord: UInt, position: UInt64, type: ObjectIdentifier,
        name: borrowing String
    ) -> Bool {
        self.hash == hash && self.fileAddress == fileAddress && self.fileWord == fileWord
            && self.position == position && self.type == type && self.name == name
    }

    /// The scalars folded into one word, mixed once with the name's hash.
    @inlinable @inline(__always)
    static func hash(
        fileAddress: UInt, fileWord: UInt, position: UInt64, type: ObjectIdentifier,
        name: borrowing String
    ) -> UInt {
        let scalars =
            fileAddress &* 0x9E37_79B9_7F4A_7C15 ^ fileWord
            ^ UInt(truncatingIfNeeded: position &* 0xC2B2_AE3D_27D4_EB4F)
            ^ UInt(bitPattern: type)
        return _mix(scalars, hashName(name))
    }

    /// Eight bytes at a time, the tail read with overlapping loads.
    @inlinable @inline(__always)
    static func hashName(_ name: borrowing String) -> UInt {
        let hashed = name.utf8.withContiguousStorageIfAvailable { bytes -> UInt in
            let raw = UnsafeRawBufferPointer(bytes)
            let count = raw.count
            var hash = UInt(count)
            if count >= 8 {
                var index = 0
                while index &+ 8 < count {
                    hash = _mix(
                        hash, UInt(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
                    index &+= 8
                }
                if count > 8, count < 16 {
                    // 9 to 15 bytes: a load across the two stores that just copied a small
                    // string stalls (no store forwarding), so go bytewise.
                    var tail = UInt(count)
                    while index < count {
                        tail = tail &<< 8 | UInt(raw[index])
                        index &+= 1
                    }
                    return _mix(hash, tail)
                }
                return _mix(
                    hash, UInt(raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)))
            }
            if count >= 4 {
                let first = UInt(raw.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
                let last = UInt(raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
                return _mix(hash, first &<< 32 | last)
            }
            if count > 0 {
                let bytes =
                    UInt(raw[0]) &<< 16 | UInt(raw[count &>> 1]) &<< 8 | UInt(raw[count &- 1])
                return _mix(hash, bytes)
            }
            return hash
        }
        return hashed ?? UInt(bitPattern: name.hashValue)
    }

    /// By content, for interning.
    var identity: _ActionIdentity {
        let file =
            fileAddress == 0
            ? String(Unicode.Scalar(UInt32(truncatingIfNeeded: fileWord)) ?? "?")
            : String(
                decoding: UnsafeRawBufferPointer(
                    start: UnsafeRawPointer(bitPattern: fileAddress), count: Int(fileWord)),
                as: UTF8.self)
        return _ActionIdentity(
            file: file, line: UInt(truncatingIfNeeded: position &>> 32),
            column: UInt(truncatingIfNeeded: position & 0xFFFF_FFFF), type: type, name: name)
    }
}

/// By content: what the table interns.
struct _ActionIdentity: Hashable {
    let file: String
    let line: UInt
    let column: UInt
    let type: ObjectIdentifier
    let name: String
}

/// One round of a multiplicative hash.
@inlinable @inline(__always)
func _mix(_ hash: UInt, _ value: UInt) -> UInt {
    let mixed = (hash ^ value) &* 0x9E37_79B9_7F4A_7C15
    return mixed ^ (mixed &>> 29)
}
