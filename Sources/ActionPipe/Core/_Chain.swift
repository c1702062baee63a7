import ActionPipeKernel
import Synchronization

/// Serialises every change of registrations and composition, process-wide.
///
/// Changes are rare and cheap next to calls, and one lock makes joining two chains
/// atomic without lock ordering. No handler ever runs while it is held: calls only read
/// the immutable ``_Snapshot`` that each change publishes.
///
/// The guarded value counts how often the lock was taken, instead of being `()`:
/// ThreadSanitizer reports a false race on the zero-sized value of a `LockedValue<Void>`.
let _topologyLock = LockedValue(0)

/// Objects whose last reference a change dropped while holding ``_topologyLock``.
///
/// Releasing a handler can run user code (the `deinit` of an object its closure captured,
/// or of a strongly held target), and that code may use pipes. So a change never releases
/// such objects under the lock: it buries them here, and ``_withTopology(_:)`` releases
/// them after unlocking.
///
/// `nonisolated(unsafe)`: read and written only with ``_topologyLock`` held.
nonisolated(unsafe) private var _graveyard: [AnyObject] = []

/// Keeps `object` alive until the current change has released the topology lock. Call
/// with the lock held.
func _bury(_ object: AnyObject?) {
    if let object { _graveyard.append(object) }
}

/// Runs `body` with the topology lock held, then releases what it buried, unlocked.
func _withTopology<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    var buried: [AnyObject] = []
    defer { buried.removeAll() }  // the last references go here, after the lock is released
    return try _topologyLock.withLock { entries throws(E) in
        entries &+= 1
        defer {
            buried = _graveyard
            _graveyard = []
        }
        return try body()
    }
}

/// The registrations of one pipe. Outlives its ``ActionPipe`` handle while its chain lives, so a
/// pipe whose handle was dropped keeps answering in the chain it belongs to.
///
/// `@unchecked Sendable`: the mutable properties are read and written only with
/// ``_topologyLock`` held.
@usableFromInline
final class _Member: @unchecked Sendable {
    let name: String
    /// One handler per action: registering again replaces.
    var handlers: [_ActionKey: _AnyHandler] = [:]
    /// Registration order of the actions, so traces and snapshots are deterministic.
    var order: [_ActionKey] = []
    /// Where the pipe handle reads its chain's snapshot. Owned here, not reached through
    /// the handle, so publishing needs no (weak) reference to the handle.
    let cell: _SnapshotCell
    /// The chain this member is in. Weak: the chain holds its members, and the pipe
    /// handles hold the chain.
    weak var chain: _Chain?

    init(name: String) {
        self.name = name
        self.cell = _SnapshotCell(_Snapshot([]))
    }

    func set(_ handler: _AnyHandler, for key: _ActionKey) {
        if let old = handlers.updateValue(handler, forKey: key) {
            _bury(old)
        } else {
            order.append(key)
        }
    }

    @discardableResult
    func remove(_ key: _ActionKey, ifID id: UInt64? = nil) -> Bool {
        guard let current = handlers[key], id == nil || current.id == id else { return false }
        _bury(current)
        handlers[key] = nil
        order.removeAll { $0 == key }
        return true
    }
}

/// An ordered list of members: the chain that a call walks.
///
/// `@unchecked Sendable`: `members` is read and written only with ``_topologyLock`` held.
final class _Chain: @unchecked Sendable {
    var members: [_Member]
    /// The chain this one was appended to, kept alive for pipes that still hold this one.
    var mergedInto: _Chain?

    init(_ members: [_Member]) {
        self.members = members
        self.snapshot = _Snapshot(members)
        for member in members { member.chain = self }
    }

    /// Builds the snapshot of the current members and hands it to every live pipe, so the
    /// very next call on any member sees the change. Call with the topology lock held.
    func publish() {
        let snapshot = _Snapshot(members)
        _bury(self.snapshot)
        self.snapshot = snapshot
        for member in members {
            for released in member.cell.store(snapshot) { _bury(released) }
        }
    }

    /// The latest published snapshot, for calls that do not go through a pipe handle
    /// (``ActionTrigger``). Guarded by ``_topologyLock``.
    private(set) var snapshot: _Snapshot
}

/// An immutable view of a chain that calls read without any lock held while handlers run.
///
/// Laid out for the call path: the entries of every action sit in one flat buffer,
/// grouped by action key, and refer to their handlers unretained (``handlers`` owns them).
/// A call reads the entries of its action through a pointer, so walking them costs no
/// reference counting at all.
///
/// `@unchecked Sendable`: immutable after `init`; the buffers are only read.
@usableFromInline
final class _Snapshot: @unchecked Sendable {
    /// A handler and the index of its member in ``names``.
    @usableFromInline
    struct Entry {
        @usableFromInline let handler: Unmanaged<_AnyHandler>
        @usableFromInline let member: Int
    }

    /// The members' names, in chain order, for traces.
    @usableFromInline let names: [String]
    /// Keeps every handler of ``entries`` alive.
    private let handlers: [_AnyHandler]
    /// Every entry, grouped by action key, each group in chain order.
    @usableFromInline let entries: UnsafeMutablePointer<Entry>
    /// `offsets[k] ..< offsets[k + 1]` are the entries of the action with key `k`.
    @usableFromInline let offsets: UnsafeMutablePointer<Int>
    /// How many keys ``offsets`` covers; larger keys have no entries.
    @usableFromInline let keyCount: Int

    init(_ members: [_Member]) {
        names = members.map(\.name)
        var byKey: [[(_AnyHandler, Int)]] = []
        var handlers: [_AnyHandler] = []
        for (index, member) in members.enumerated() {
            for key in member.order {
                guard let handler = member.handlers[key] else { continue }
                if key.rawValue >= byKey.count {
                    byKey.append(
                        contentsOf: repeatElement([], count: key.rawValue + 1 - byKey.count))
                }
                byKey[key.rawValue].append((handler, index))
                handlers.append(handler)
            }
        }
        self.handlers = handlers
        keyCount = byKey.count
        offsets = .allocate(capacity: byKey.count + 1)
        entries = .allocate(capacity: max(handlers.count, 1))
        var next = 0
        for (key, group) in byKey.enumerated() {
            offsets[key] = next
            for (handler, member) in group {
                (entries + next).initialize(
                    to: Entry(handler: .passUnretained(handler), member: member))
                next += 1
            }
        }
        offsets[byKey.count] = next
    }

    deinit {
        entries.deallocate()
        offsets.deallocate()
    }

    /// The positions in ``entries`` of the handlers of `key`; empty when none.
    @inlinable
    func range(for key: _ActionKey) -> Range<Int> {
        let raw = key.rawValue
        guard raw < keyCount else { return 0..<0 }
        return offsets[raw]..<offsets[raw + 1]
    }

    /// Whether any member registered `key`.
    @inlinable
    func handles(_ key: _ActionKey) -> Bool { !range(for: key).isEmpty }
}
