import ActionPipeKernel
import Synchronization

/// The small integer that identifies an action inside the library.
///
/// An action's identity is where its descriptor is created (file, line, column), its
/// name, and its type (kind, arguments and result). The type is part of it so that two
/// descriptors made at one place with one name but different types (a generic helper, a
/// subscript building `Action(name: "item-\(n)")`) are two actions: a handler is only ever
/// called with the argument types it was registered for. Each identity is interned once
/// into a dense integer, by content, so the name may be built at run time.
@usableFromInline
struct _ActionKey: Hashable, Sendable {
    @usableFromInline let rawValue: Int

    /// The key of the action `descriptor` describes; lock-free after its first use.
    @inlinable
    init<Kind, each Argument, Result>(
        _ descriptor: ActionDescriptor<Kind, repeat each Argument, Result>
    ) {
        let site = _ActionSite(
            file: descriptor._file, line: descriptor._line, column: descriptor._column,
            type: ObjectIdentifier(ActionDescriptor<Kind, repeat each Argument, Result>.self),
            name: descriptor.name)
        if let pointer = UnsafeRawPointer(bitPattern: _actionKeyCache.load(ordering: .acquiring)),
            let found = Unmanaged<_ActionKeyCache>.fromOpaque(pointer)._withUnsafeGuaranteedRef({
                $0.key(for: site)
            })
        {
            rawValue = found
        } else {
            rawValue = _ActionKeyTable.intern(site)
        }
    }

    /// The key of `action`, checking that no other key path shares its identity:
    /// registrations come through here, calls through ``init(_:)``.
    init<Kind, each Argument, Result>(
        registering action: KeyPath<Actions, ActionDescriptor<Kind, repeat each Argument, Result>>
            & Sendable
    ) {
        self.init(Actions()[keyPath: action])
        _ActionKeyTable.shared.check(action, hasKey: rawValue)
    }

    /// The name of the action, for traces.
    var name: String { _ActionKeyTable.shared.name(of: rawValue) }
}

/// An action's identity as a call sees it: the address of its file name literal, its
/// position, its type and its name, with a hash of all four.
///
/// Equal identities may come with different file addresses (the same file name literal
/// in two modules) or different string storage for the name; the cache then misses and
/// the table, which compares by content, still returns the one key.
@usableFromInline
struct _ActionSite {
    @usableFromInline let file: StaticString
    @usableFromInline let fileAddress: UInt
    @usableFromInline let line: UInt
    @usableFromInline let column: UInt
    @usableFromInline let type: ObjectIdentifier
    @usableFromInline let name: String
    @usableFromInline let hash: UInt

    @inlinable @inline(__always)
    init(file: StaticString, line: UInt, column: UInt, type: ObjectIdentifier, name: String) {
        self.file = file
        // A `StaticString` made from a single scalar has no address; its content still
        // tells it apart in the table.
        fileAddress = file.hasPointerRepresentation ? UInt(bitPattern: file.utf8Start) : 0
        self.line = line
        self.column = column
        self.type = type
        self.name = name
        var hash = _mix(fileAddress, line &<< 20 ^ column)
        hash = _mix(hash, UInt(bitPattern: type))
        hash = _mix(hash, _ActionSite.hashName(name))
        self.hash = hash
    }

    /// A hash of the name's UTF-8 bytes, eight at a time (names are short).
    @inlinable @inline(__always)
    static func hashName(_ name: String) -> UInt {
        let hashed = name.utf8.withContiguousStorageIfAvailable { bytes -> UInt in
            var hash = UInt(bytes.count)
            var index = 0
            let raw = UnsafeRawBufferPointer(bytes)
            while index &+ 8 <= raw.count {
                hash = _mix(hash, UInt(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
                index &+= 8
            }
            var tail: UInt = 0
            while index < raw.count {
                tail = tail &<< 8 | UInt(raw[index])
                index &+= 1
            }
            return _mix(hash, tail)
        }
        return hashed ?? UInt(bitPattern: name.hashValue)
    }

    /// The identity by content, for interning.
    var identity: _ActionIdentity {
        _ActionIdentity(
            file: file.description, line: line, column: column, type: type, name: name)
    }
}

/// One round of a multiplicative hash.
@inlinable @inline(__always)
func _mix(_ hash: UInt, _ value: UInt) -> UInt {
    let mixed = (hash ^ value) &* 0x9E37_79B9_7F4A_7C15
    return mixed ^ (mixed &>> 29)
}

/// An action's identity by content: what the table interns.
struct _ActionIdentity: Hashable {
    let file: String
    let line: UInt
    let column: UInt
    let type: ObjectIdentifier
    let name: String
}

/// The address of the current ``_ActionKeyCache``, unretained (the table keeps every cache
/// it published), or 0. A global rather than a member of the table, so a call reads it
/// without first making sure the table is initialised.
@usableFromInline let _actionKeyCache = Atomic<UInt>(0)

/// The process-wide table behind ``_ActionKey``.
///
/// Calls look an identity up in an immutable cache read without a lock. A miss takes the
/// lock and interns the identity by content; the table then publishes a new cache holding
/// every key so far. Published caches are never freed (a reader may still be using the one
/// it loaded), so the table bounds their total size: it republishes on every new action up
/// to ``eagerLimit`` actions, then only when the actions have grown by half since the last
/// cache, which keeps all caches together within a few times the last one. An action
/// interned between two caches is found by the table, under its lock, until the next.
@usableFromInline
final class _ActionKeyTable: Sendable {
    @usableFromInline static let shared = _ActionKeyTable()

    /// Up to this many actions, every new action is cached at once.
    static let eagerLimit = 256

    private struct State {
        var keys: [_ActionIdentity: Int] = [:]
        /// Every identity, by key, with the cache hash and file address first seen.
        var sites: [(identity: _ActionIdentity, site: _ActionCacheEntry)] = []
        /// For each key, the key path registered with it, to catch two actions sharing an
        /// identity.
        var keyPaths: [Int: AnyKeyPath] = [:]
        /// Every cache ever published, kept alive for readers that still hold one.
        var caches: [_ActionKeyCache] = []
        var cachedCount = 0
    }

    private let state = LockedValue(State())

    private init() {}

    /// The key of `site`, interned if new: the path of a call that missed the cache.
    @usableFromInline @inline(never)
    static func intern(_ site: _ActionSite) -> Int {
        shared.intern(site)
    }

    func intern(_ site: _ActionSite) -> Int {
        let identity = site.identity
        return state.withLock { state in
            if let existing = state.keys[identity] { return existing }
            let key = state.sites.count
            state.keys[identity] = key
            state.sites.append(
                (
                    identity,
                    _ActionCacheEntry(
                        hash: site.hash, fileAddress: site.fileAddress,
                        position: site.line &<< 20 ^ site.column, type: site.type,
                        name: site.name, key: key)
                ))
            let count = state.sites.count
            if count <= Self.eagerLimit || count >= state.cachedCount + state.cachedCount / 2 {
                let cache = _ActionKeyCache(state.sites.map(\.site))
                state.caches.append(cache)
                state.cachedCount = count
                let address = UInt(bitPattern: Unmanaged.passUnretained(cache).toOpaque())
                _actionKeyCache.store(address, ordering: .releasing)
            }
            return key
        }
    }

    /// Stops the program when a different key path was registered with `key`: two
    /// properties of ``Actions`` share one identity, so they would be one action.
    func check(_ keyPath: AnyKeyPath & Sendable, hasKey key: Int) {
        let other: AnyKeyPath? = state.withLock { state in
            guard let registered = state.keyPaths[key] else {
                state.keyPaths[key] = keyPath
                return nil
            }
            return registered == keyPath ? nil : registered
        }
        if let other {
            preconditionFailure(
                "ActionPipe: \(keyPath) and \(other) return descriptors created at the same "
                    + "place with the same name, so they would be one action. Write `.init()` "
                    + "in each property of Actions (a helper that creates descriptors must "
                    + "forward `name:`).")
        }
    }

    func name(of key: Int) -> String {
        state.withLock { $0.sites[key].identity.name }
    }
}

/// One action in an ``_ActionKeyCache``.
@usableFromInline
struct _ActionCacheEntry {
    @usableFromInline let hash: UInt
    @usableFromInline let fileAddress: UInt
    @usableFromInline let position: UInt
    @usableFromInline let type: ObjectIdentifier
    @usableFromInline let name: String
    @usableFromInline let key: Int

    @inlinable @inline(__always)
    func matches(_ site: _ActionSite) -> Bool {
        hash == site.hash && fileAddress == site.fileAddress
            && position == site.line &<< 20 ^ site.column && type == site.type
            && name == site.name
    }
}

/// An immutable open-addressed map from identities to keys.
///
/// `@unchecked Sendable`: the slots are written once, in `init`, and only read after the
/// cache is published (release/acquire on `_actionKeyCache`).
@usableFromInline
final class _ActionKeyCache: @unchecked Sendable {
    /// The entries; `slots` index into them.
    @usableFromInline let entries: ContiguousArray<_ActionCacheEntry>
    /// Open-addressed slots holding an index into `entries`, or -1 when free.
    @usableFromInline let slots: UnsafeMutablePointer<Int>
    @usableFromInline let mask: Int

    init(_ entries: [_ActionCacheEntry]) {
        self.entries = ContiguousArray(entries)
        var capacity = 8
        while capacity < entries.count * 2 { capacity *= 2 }
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: -1, count: capacity)
        mask = capacity - 1
        for (index, entry) in entries.enumerated() {
            var slot = Int(truncatingIfNeeded: entry.hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = index
        }
    }

    deinit {
        slots.deallocate()
    }

    /// The key of `site`, or `nil` when this cache does not hold it.
    @inlinable @inline(__always)
    func key(for site: _ActionSite) -> Int? {
        var slot = Int(truncatingIfNeeded: site.hash) & mask
        while true {
            let index = slots[slot]
            if index < 0 { return nil }
            let key = entries.withUnsafeBufferPointer { entries in
                entries[index].matches(site) ? entries[index].key : nil
            }
            if let key { return key }
            slot = (slot &+ 1) & mask
        }
    }
}
