import Synchronization

/// The small integer that identifies an action inside the library.
///
/// Actions are named by key paths into ``Actions``. Hashing a key path on every call is
/// slow, so each distinct key path is interned once into a dense integer, and the chain's
/// snapshot is an array indexed by that integer.
@usableFromInline
struct _ActionKey: Hashable, Sendable {
    @usableFromInline let rawValue: Int

    /// Interns `action`, returning the same key for equal key paths.
    @inlinable
    init<Kind, each Argument, Result>(
        _ action: KeyPath<Actions, ActionDescriptor<Kind, repeat each Argument, Result>> & Sendable
    ) {
        rawValue = _ActionKeyTable.shared.key(for: action)
    }

    /// The name of the action, for traces.
    var name: String { _ActionKeyTable.shared.name(of: rawValue) }
}

/// The process-wide table behind ``_ActionKey``.
///
/// Calls look a key path up by the address of its object in an immutable, open-addressed
/// cache that is read without a lock (a key path literal is one object per pattern, so the
/// address is stable). A miss takes the lock, interns the key path structurally, and
/// publishes a new cache. Caches are never freed, only retired, so a reader may keep using
/// the one it loaded.
@usableFromInline
final class _ActionKeyTable: Sendable {
    @usableFromInline static let shared = _ActionKeyTable()

    /// The cache size beyond which new key path objects are no longer cached by address
    /// (they are still interned). Bounds memory if some code creates key path objects
    /// dynamically instead of writing literals.
    private static let maximumCachedObjects = 4096

    private struct State {
        var keys: [AnyKeyPath: Int] = [:]
        var names: [String] = []
        /// Every cache ever published, kept alive for readers that still hold one; also
        /// keeps each cached key path object alive, so its address is never reused.
        var caches: [_KeyCache] = []
        var cachedObjects: [AnyKeyPath] = []
    }

    private let state = _Locked(State())
    /// The address of the current cache, unretained (`state.caches` owns it), or 0.
    /// Stored as an integer because pointers are not `Sendable`.
    private let current = Atomic<UInt>(0)

    private init() {}

    /// The key of `action`: lock-free when its key path object was seen before.
    @usableFromInline
    func key<Kind, each Argument, Result>(
        for action: KeyPath<Actions, ActionDescriptor<Kind, repeat each Argument, Result>>
            & Sendable
    ) -> Int {
        let address = UInt(bitPattern: ObjectIdentifier(action))
        if let pointer = UnsafeRawPointer(bitPattern: current.load(ordering: .acquiring)) {
            let found = Unmanaged<_KeyCache>.fromOpaque(pointer)._withUnsafeGuaranteedRef {
                $0.value(for: address)
            }
            if let found { return found }
        }
        return intern(action, address: address) { Actions()[keyPath: action].name }
    }

    private func intern(_ keyPath: AnyKeyPath & Sendable, address: UInt, name: () -> String) -> Int
    {
        if let key = state.withLock({ $0.keys[keyPath] }) {
            cache(keyPath, address: address, key: key)
            return key
        }
        // Evaluate the declaring property outside the lock: it is user code.
        let name = name()
        let key = state.withLock { state in
            if let key = state.keys[keyPath] { return key }
            let key = state.names.count
            state.keys[keyPath] = key
            state.names.append(name)
            return key
        }
        cache(keyPath, address: address, key: key)
        return key
    }

    private func cache(_ keyPath: AnyKeyPath & Sendable, address: UInt, key: Int) {
        state.withLock { state in
            guard state.cachedObjects.count < Self.maximumCachedObjects else { return }
            let old = state.caches.last
            if old?.value(for: address) != nil { return }
            state.cachedObjects.append(keyPath)
            let new = _KeyCache(adding: (address, key), to: old)
            state.caches.append(new)
            let newAddress = UInt(bitPattern: Unmanaged.passUnretained(new).toOpaque())
            current.store(newAddress, ordering: .releasing)
        }
    }

    func name(of key: Int) -> String {
        state.withLock { $0.names[key] }
    }
}

/// An immutable open-addressed map from key path object addresses to action keys.
@usableFromInline
final class _KeyCache: Sendable {
    private let addresses: [UInt]
    private let keys: [Int]
    private let mask: Int

    init(adding entry: (address: UInt, key: Int), to old: _KeyCache?) {
        var pairs = old?.pairs ?? []
        pairs.append(entry)
        var capacity = 8
        while capacity < pairs.count * 2 { capacity *= 2 }
        var addresses = [UInt](repeating: 0, count: capacity)
        var keys = [Int](repeating: -1, count: capacity)
        let mask = capacity - 1
        for (address, key) in pairs {
            var slot = Self.slot(address, mask)
            while addresses[slot] != 0 { slot = (slot + 1) & mask }
            addresses[slot] = address
            keys[slot] = key
        }
        self.addresses = addresses
        self.keys = keys
        self.mask = mask
    }

    private var pairs: [(UInt, Int)] {
        zip(addresses, keys).filter { $0.0 != 0 }
    }

    @usableFromInline
    func value(for address: UInt) -> Int? {
        var slot = Self.slot(address, mask)
        while true {
            let candidate = addresses[slot]
            if candidate == address { return keys[slot] }
            if candidate == 0 { return nil }
            slot = (slot + 1) & mask
        }
    }

    /// Fibonacci hashing of the address; objects are 16-byte aligned, so drop 4 bits.
    private static func slot(_ address: UInt, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: ((address >> 4) &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
    }
}
