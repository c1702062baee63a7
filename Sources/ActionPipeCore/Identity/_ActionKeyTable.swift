import ActionPipeConcurrency
import Synchronization

/// The process-wide table behind ``_ActionKey``. Calls look identities up in an immutable
/// cache, lock-free; a miss interns by content under the lock and publishes a new cache.
/// Caches are never freed (a reader may hold one), so past ``eagerLimit`` actions one is
/// published only when the actions grew by half; one interned in between is found here.
@usableFromInline
final class _ActionKeyTable: Sendable {
    @usableFromInline static let shared = _ActionKeyTable()

    static let eagerLimit = 256

    private struct State {
        var keys: [_ActionIdentity: Int] = [:]
        /// By key, with the site first seen.
        var sites: [(identity: _ActionIdentity, entry: _ActionCacheEntry)] = []
        /// The key path registered with each key, to catch two actions sharing an identity.
        var keyPaths: [Int: AnyKeyPath] = [:]
        /// Every cache ever published, kept alive for readers.
        var caches: [_ActionKeyCache] = []
        var cachedCount = 0
    }

    private let state = LockedValue(State())

    private init() {}

    /// The path of a call that missed the cache.
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
            state.sites.append((identity, _ActionCacheEntry(site: site, key: key)))
            let count = state.sites.count
            if count <= Self.eagerLimit || count >= state.cachedCount + state.cachedCount / 2 {
                let cache = _ActionKeyCache(state.sites.map(\.entry))
                state.caches.append(cache)
                state.cachedCount = count
                let address = Unretained(cache).address
                _actionKeyCache.store(address, ordering: .releasing)
            }
            return key
        }
    }

    /// Reports another key path registered with `key` (two properties of ``Actions`` with
    /// one identity), and, at its first registration, an action named like a pipe member.
    @usableFromInline
    func check(_ keyPath: AnyKeyPath & Sendable, hasKey key: Int) {
        let (other, isNew) = state.withLock { state -> (AnyKeyPath?, Bool) in
            guard let registered = state.keyPaths[key] else {
                state.keyPaths[key] = keyPath
                return (nil, true)
            }
            return (registered == keyPath ? nil : registered, false)
        }
        if let other {
            Diagnostics.report(
                Diagnostic(
                    .actionIdentityClash,
                    "two properties of Actions (\(other) and \(keyPath)) return descriptors "
                        + "created at the same place with the same name '\(name(of: key))', so "
                        + "they are one action. Write `.init()` in each "
                        + "property of Actions (a helper that creates descriptors must forward "
                        + "`name:`)."))
        }
        if isNew {
            let name = self.name(of: key)
            if ActionPipe._memberNames.contains(name) {
                Diagnostics.report(
                    Diagnostic(
                        .actionShadowed,
                        "the action '\(name)' has the name of a member of ActionPipe, so "
                            + "`pipe.\(name)` is that member, never the action. Call it as "
                            + "`pipe[action: \\.\(name)]`, or rename it."))
            }
        }
    }

    func name(of key: Int) -> String {
        state.withLock { $0.sites[key].identity.name }
    }
}
