import ActionPipeKernel
import Synchronization

/// The small integer that identifies an action inside the library.
///
/// An action is identified by where its descriptor is created (file, line, column) and its
/// name. Each distinct site is interned once into a dense integer, and the chain's
/// snapshot is an array indexed by that integer, so a call never hashes a key path.
@usableFromInline
struct _ActionKey: Hashable, Sendable {
    @usableFromInline let rawValue: Int

    /// The key of the action `descriptor` describes; lock-free after the first time.
    @inlinable
    init<Kind, each Argument, Result>(
        _ descriptor: ActionDescriptor<Kind, repeat each Argument, Result>
    ) {
        // The fast path reads the cache without building a site (and so without copying
        // the name); only a miss builds one and goes to the table.
        let nameBits = unsafeBitCast(descriptor.name, to: (UInt64, UInt64).self)
        let fast = _FastSiteKey(
            file: UInt(bitPattern: descriptor._file.utf8Start),
            position: descriptor._line << 20 ^ descriptor._column, name0: nameBits.0,
            name1: nameBits.1)
        if let pointer = UnsafeRawPointer(bitPattern: _actionKeyCache.load(ordering: .acquiring)),
            let found = Unmanaged<_KeyCache>.fromOpaque(pointer)._withUnsafeGuaranteedRef({
                $0.value(for: fast)
            })
        {
            rawValue = found
        } else {
            rawValue = _ActionKeyTable.shared.intern(
                _ActionSite(
                    file: descriptor._file, line: descriptor._line, column: descriptor._column,
                    name: descriptor.name), fast)
        }
    }

    /// The key of `action`, checking that no other key path shares its declaration site:
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

/// Where an action's descriptor is created, and its name: the action's identity.
///
/// The cache compares sites by the address of the file name literal and the bits of the
/// name; interning compares them by content, so equal sites seen at different addresses
/// still get one key.
@usableFromInline
struct _ActionSite: Sendable {
    @usableFromInline let file: StaticString
    @usableFromInline let line: UInt
    @usableFromInline let column: UInt
    @usableFromInline let name: String

    @inlinable
    init(file: StaticString, line: UInt, column: UInt, name: String) {
        self.file = file
        self.line = line
        self.column = column
        self.name = name
    }

    /// The identity by content, for interning.
    var structural: String { "\(file):\(line):\(column):\(name)" }
}

/// The cache key of an ``_ActionSite``: the address of its file name, its position, and
/// the raw bits of its name (a string literal always has the same bits).
@usableFromInline
struct _FastSiteKey: Equatable, Sendable {
    @usableFromInline let file: UInt
    @usableFromInline let position: UInt
    @usableFromInline let name0: UInt64
    @usableFromInline let name1: UInt64

    @inlinable
    init(file: UInt, position: UInt, name0: UInt64, name1: UInt64) {
        self.file = file
        self.position = position
        self.name0 = name0
        self.name1 = name1
    }

    @inlinable
    var hash: UInt {
        var h = file &* 0x9E37_79B9_7F4A_7C15
        h = (h ^ position) &* 0x9E37_79B9_7F4A_7C15
        h = (h ^ UInt(truncatingIfNeeded: name0)) &* 0x9E37_79B9_7F4A_7C15
        h = (h ^ UInt(truncatingIfNeeded: name1)) &* 0x9E37_79B9_7F4A_7C15
        return h >> 32
    }
}

/// The address of the current ``_KeyCache``, unretained (the table owns every cache ever
/// published), or 0. A global rather than a member of the table, so a call reads it
/// without first making sure the table is initialised. Stored as an integer because
/// pointers are not `Sendable`.
@usableFromInline let _actionKeyCache = Atomic<UInt>(0)

/// The process-wide table behind ``_ActionKey``.
///
/// Calls look a site up in an immutable, open-addressed cache that is read without a lock.
/// A miss takes the lock, interns the site by content, and publishes a new cache. Caches
/// are never freed, only retired, so a reader may keep using the one it loaded.
@usableFromInline
final class _ActionKeyTable: Sendable {
    @usableFromInline static let shared = _ActionKeyTable()

    /// The cache size beyond which new sites are no longer cached (they are still
    /// interned). Bounds memory if some code creates descriptors with ever new names.
    private static let maximumCached = 4096

    private struct State {
        var keys: [String: Int] = [:]
        var names: [String] = []
        /// For each key, the key path registered with it, to catch two actions sharing a
        /// declaration site.
        var keyPaths: [Int: AnyKeyPath] = [:]
        /// Every cache ever published, kept alive for readers that still hold one.
        var caches: [_KeyCache] = []
        var cachedCount = 0
    }

    private let state = LockedValue(State())

    private init() {}

    @usableFromInline
    func intern(_ site: _ActionSite, _ fast: _FastSiteKey) -> Int {
        let structural = site.structural
        return state.withLock { state in
            let key: Int
            if let existing = state.keys[structural] {
                key = existing
            } else {
                key = state.names.count
                state.keys[structural] = key
                state.names.append(site.name)
            }
            let old = state.caches.last
            if state.cachedCount < Self.maximumCached, old?.value(for: fast) == nil {
                let new = _KeyCache(adding: (fast, key), to: old)
                state.caches.append(new)
                state.cachedCount += 1
                let address = UInt(bitPattern: Unmanaged.passUnretained(new).toOpaque())
                _actionKeyCache.store(address, ordering: .releasing)
            }
            return key
        }
    }

    /// Stops the program when a different key path was registered with `key`: two
    /// properties of ``Actions`` share one declaration site, so they would be one action.
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
                    + "place, so they would be one action. Write `.init()` in each property "
                    + "of Actions (a helper that creates descriptors must forward `name:`).")
        }
    }

    func name(of key: Int) -> String {
        state.withLock { $0.names[key] }
    }
}

/// An immutable open-addressed map from site cache keys to action keys.
@usableFromInline
final class _KeyCache: @unchecked Sendable {
    // `@unchecked Sendable`: the buffers are written once, in `init`, and only read after
    // the cache is published (with release/acquire ordering on `_actionKeyCache`).

    /// Open-addressed slots; a free slot has `file == 0` (no string literal lives at 0).
    /// Plain buffers rather than arrays: a probe then costs no bounds checks and no
    /// optional unwrapping, and the whole lookup inlines into the call.
    @usableFromInline let sites: UnsafeMutablePointer<_FastSiteKey>
    @usableFromInline let keys: UnsafeMutablePointer<Int>
    @usableFromInline let mask: Int
    private let pairs: [(_FastSiteKey, Int)]

    init(adding entry: (site: _FastSiteKey, key: Int), to old: _KeyCache?) {
        var pairs = old?.pairs ?? []
        pairs.append(entry)
        var capacity = 8
        while capacity < pairs.count * 2 { capacity *= 2 }
        sites = .allocate(capacity: capacity)
        sites.initialize(
            repeating: _FastSiteKey(file: 0, position: 0, name0: 0, name1: 0), count: capacity)
        keys = .allocate(capacity: capacity)
        keys.initialize(repeating: -1, count: capacity)
        let mask = capacity - 1
        for (site, key) in pairs {
            var slot = Int(truncatingIfNeeded: site.hash) & mask
            while sites[slot].file != 0 { slot = (slot + 1) & mask }
            sites[slot] = site
            keys[slot] = key
        }
        self.mask = mask
        self.pairs = pairs
    }

    deinit {
        sites.deallocate()
        keys.deallocate()
    }

    @inlinable @inline(__always)
    func value(for site: _FastSiteKey) -> Int? {
        var slot = Int(truncatingIfNeeded: site.hash) & mask
        while true {
            let candidate = sites[slot]
            if candidate == site { return keys[slot] }
            if candidate.file == 0 { return nil }
            slot = (slot + 1) & mask
        }
    }
}
