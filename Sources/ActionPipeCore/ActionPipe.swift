import ActionPipeConcurrency
import Synchronization

/// An object that answers actions, and the unit from which chains are composed.
///
/// Register handlers for actions with `on(_:_:)`; compose pipes into a chain with
/// ``append(_:)``; call an action on any pipe of the chain like a method. A call runs, in
/// chain order from the head, every pipe that registered the action, and returns the
/// result of the last handler that ran (`nil` when none ran).
///
/// ```swift
/// extension Actions {
///     var someFunc2: Action<Size, String, Void> { .init() }
/// }
/// let pipe1 = ActionPipe(name: "pipe1"), pipe2 = ActionPipe(name: "pipe2"), pipe3 = ActionPipe(name: "pipe3")
/// for (pipe, name) in [(pipe1, "pipe1"), (pipe2, "pipe2"), (pipe3, "pipe3")] {
///     // Capture the name, not the pipe: a handler that holds its own pipe keeps the
///     // chain alive forever.
///     pipe.on(\.someFunc2) { process in print(name, "called", process.arguments) }
/// }
/// try pipe1.append(pipe2).append(pipe3)
/// pipe3.someFunc2(Size(width: 10, height: 20), "hello")   // pipe1, pipe2, pipe3 run
/// ```
///
/// ## Lifetime
/// A chain lives as long as any of its pipes is referenced. A pipe whose handle is dropped
/// stays in its chain, and its handlers keep running, until the whole chain goes away or
/// the pipe is removed with ``removeFromChain()``.
///
/// ## Threads
/// A pipe may be used from any thread. Calls read an immutable snapshot of the chain;
/// registrations and compositions publish a new one, seen by the next call. No handler
/// runs while the library holds a lock, so handlers may call, register and compose.
@dynamicMemberLookup
public final class ActionPipe: @unchecked Sendable, CustomStringConvertible {
    // `@unchecked Sendable`: `_chain` is read and written only with `_topologyLock` held;
    // `_member` is immutable.

    /// The pipe's name, shown in traces.
    ///
    /// ```swift
    /// ActionPipe(name: "login").name   // "login"
    /// ```
    public var name: String { _member.name }

    @usableFromInline let _member: _Member
    /// The chain this pipe belongs to, `nil` while it is alone (most pipes never need a
    /// chain object); a strong reference, so the chain lives while any of its pipes does.
    /// Guarded by `_topologyLock`.
    var _chain: _Chain?

    /// Creates a pipe that is a chain of its own.
    ///
    /// - Parameter name: The name shown in traces; by default `pipe#N` with a unique `N`.
    ///
    /// ```swift
    /// let pipe = ActionPipe(name: "store")
    /// ```
    public init(name: String? = nil) {
        _member = _Member(name: name ?? "pipe#\(_pipeNumbers.next())")
    }

    deinit {
        // The snapshot cached in the member refers to the member: nothing reads the cache
        // once its pipe is gone, so it is emptied here (and the snapshot released unlocked).
        _withTopology {
            _member.hasHandle = false
            _member.dropCache()
        }
    }

    /// The chain this pipe is in now, `nil` while it is alone. Call with the topology lock
    /// held.
    ///
    /// When a chain is appended to another, its members move and the old chain object
    /// forwards to the new one (keeping it alive for the pipes that still hold the old
    /// one); the pipe catches up here. Members never refer to their pipe handle, so the
    /// handle has no weak references and retaining it on the call path stays cheap.
    var _currentChain: _Chain? {
        // Only this pipe's `removeFromChain` moves its member out of its chain, and it sets
        // `_chain` itself; any other move is its chain being appended, which leaves a
        // forward in `mergedInto`. Following the forwards needs no weak reference.
        guard let chain = _chain, let next = chain.mergedInto else { return _chain }
        var current = next
        while let further = current.mergedInto { current = further }
        _bury(chain)
        _chain = current
        return current
    }

    /// Ends `pin`, which found the cache empty, and pins the current snapshot: the rare
    /// path of a call, out of line.
    @usableFromInline @inline(never)
    func _repin(_ pin: SnapshotSlot<_Snapshot>.Pin) -> SnapshotSlot<_Snapshot>.Pin {
        _member.unpin(pin)
        _refreshSnapshot()
        return _pinSnapshot()
    }

    /// The snapshot this pipe's calls read, pinned: the one cached in its member, else the
    /// current one, fetched and cached first. The caller unpins it with `_member.unpin`.
    ///
    /// - Complexity: O(1): a store to a hazard slot of the calling thread. After a change, the
    ///   pipe's first call also takes the topology lock, and the first call on any of the
    ///   chain's pipes builds the chain's snapshot, O(handlers + pipes).
    @inlinable @inline(__always)
    func _pinSnapshot() -> SnapshotSlot<_Snapshot>.Pin {
        while true {
            let pin = _member.cache.pin()
            if pin.snapshot != nil { return pin }
            _member.unpin(pin)
            _refreshSnapshot()
        }
    }

    /// The snapshot calls read now, retained: for async calls (a pin may not cross a
    /// suspension) and paths that are not calls.
    @usableFromInline
    func _currentSnapshot() -> _Snapshot {
        let pin = _pinSnapshot()
        defer { _member.unpin(pin) }
        return pin.snapshot.unsafelyUnwrapped.object
    }

    /// Fetches the current snapshot and caches it in the member, under the topology lock,
    /// so no change can slip in between: the next change clears it.
    @usableFromInline @inline(never)
    func _refreshSnapshot() {
        _withTopology {
            _ = _currentChain
            _member.refreshCache()
        }
    }

    /// The pipe's name.
    ///
    /// ```swift
    /// print(ActionPipe(name: "p1"))   // "p1"
    /// ```
    public var description: String { name }

    /// The action named by `action`, bound to this pipe, ready to be called like a method.
    ///
    /// You do not call this subscript yourself: `pipe.someFunc(1, "a")` is
    /// `pipe[dynamicMember: \.someFunc](1, "a")`.
    ///
    /// ```swift
    /// let result = pipe.someFunc(999, "hello")
    /// ```
    @inlinable @inline(__always)
    public subscript<Kind, each Argument, Result>(
        dynamicMember action: KeyPath<Actions, ActionDescriptor<Kind, repeat each Argument, Result>>
            & Sendable
    ) -> BoundAction<Kind, repeat each Argument, Result> {
        // The key first: a reference to `self` taken before the lookup's call would be a
        // retain the compiler keeps, a write to this pipe's reference count on every call.
        let key = _ActionKey(Actions()[keyPath: action])
        return BoundAction(setup: _CallSetup(pipe: self), key: key)
    }
}

extension ActionPipe {
    /// The action named by `action`, bound to this pipe: the same as `pipe.someFunc`, for an
    /// action whose name is also a member of the pipe (`name`, `on`, `append`, ...), which
    /// `pipe.name` would reach instead.
    ///
    /// ```swift
    /// extension Actions { var append: Action<String, Void> { .init() } }
    /// pipe[action: \.append]("line")   // `pipe.append` is the chaining method
    /// ```
    @inlinable @inline(__always)
    public subscript<Kind, each Argument, Result>(
        action action: KeyPath<Actions, ActionDescriptor<Kind, repeat each Argument, Result>>
            & Sendable
    ) -> BoundAction<Kind, repeat each Argument, Result> {
        // The key first, for the reason given in the other subscript.
        let key = _ActionKey(Actions()[keyPath: action])
        return BoundAction(setup: _CallSetup(pipe: self), key: key)
    }

    /// The names of the pipe's own members (and those of ``PipeCall``), which a dynamic
    /// member of the same name never reaches. Kept in step with the API by
    /// `DiagnosticsTests.memberNamesAreTheAPI`.
    package static let _memberNames: Set<String> = [
        "name", "description", "on", "handles", "chainHandles", "removeHandler", "append",
        "removeFromChain", "isInSameChain", "chainNames", "register", "with",
    ]
}

private let _pipeNumbers = IDSource()
