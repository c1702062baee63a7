import ActionPipeConcurrency

/// An object that answers actions, and the unit from which chains are composed.
///
/// Register handlers with `on(_:_:)`, compose pipes with ``append(_:)``, and call an action
/// on any pipe of the chain like a method: every pipe that registered it runs, in chain
/// order from the head, and the call returns the last handler's result (`nil` if none ran).
///
/// ```swift
/// pipe1.on(\.someFunc2) { process in print("pipe1", process.arguments) }
/// pipe3.on(\.someFunc2) { process in print("pipe3", process.arguments) }
/// try pipe1.append(pipe2).append(pipe3)
/// pipe3.someFunc2(Size(width: 10, height: 20), "hello")   // pipe1, then pipe3, run
/// ```
///
/// A chain lives as long as any of its pipes is referenced (so a handler should not capture
/// its pipe); a pipe whose handle is dropped keeps running in it until the chain goes or
/// ``removeFromChain()``. A pipe may be used from any thread, and no handler runs under a
/// library lock, so handlers may call, register and compose.
@dynamicMemberLookup
public final class ActionPipe: @unchecked Sendable, CustomStringConvertible {
    // `@unchecked Sendable`: `_chain` is read and written only with `_topologyLock` held;
    // `_member` is immutable.

    /// The pipe's name, shown in traces.
    public var name: String { _member.name }

    @usableFromInline let _member: _Member
    /// `nil` while alone; strong, so the chain lives while any of its pipes does.
    var _chain: _Chain?

    /// Creates a pipe that is a chain of its own.
    ///
    /// - Parameter name: The name shown in traces; by default `pipe#N` with a unique `N`.
    public init(name: String? = nil) {
        _member = _Member(name: name ?? "pipe#\(_pipeNumbers.next())")
    }

    deinit {
        // The cached snapshot refers to the member and is read only through this pipe.
        _withTopology {
            _member.hasHandle = false
            _member.dropCache()
        }
    }

    /// Call with the topology lock held. An appended chain forwards (`mergedInto`) to the
    /// one it joined; the pipe catches up here (only its own `removeFromChain` moves it out).
    var _currentChain: _Chain? {
        guard let chain = _chain, let next = chain.mergedInto else { return _chain }
        var current = next
        while let further = current.mergedInto { current = further }
        _bury(chain)
        _chain = current
        return current
    }

    /// Ends `pin`, which found the cache empty, and pins the current snapshot (out of line).
    @usableFromInline @inline(never)
    func _repin(_ pin: SnapshotSlot<_Snapshot>.Pin) -> SnapshotSlot<_Snapshot>.Pin {
        _member.unpin(pin)
        _refreshSnapshot()
        return _pinSnapshot()
    }

    /// The snapshot this pipe's calls read, pinned (cached first if needed); unpin it with
    /// `_member.unpin`. After a change the first call takes the topology lock.
    @inlinable @inline(__always)
    func _pinSnapshot() -> SnapshotSlot<_Snapshot>.Pin {
        while true {
            let pin = _member.cache.pin()
            if pin.snapshot != nil { return pin }
            _member.unpin(pin)
            _refreshSnapshot()
        }
    }

    /// Retained: for async calls (a pin may not cross a suspension) and non-call paths.
    @usableFromInline
    func _currentSnapshot() -> _Snapshot {
        let pin = _pinSnapshot()
        defer { _member.unpin(pin) }
        return pin.snapshot.unsafelyUnwrapped.object
    }

    /// Caches the current snapshot in the member, under the lock; the next change clears it.
    @usableFromInline @inline(never)
    func _refreshSnapshot() {
        _withTopology {
            _ = _currentChain
            _member.refreshCache()
        }
    }

    /// The pipe's name.
    public var description: String { name }

    /// The action named by `action`, bound to this pipe: `pipe.someFunc(1, "a")` is
    /// `pipe[dynamicMember: \.someFunc](1, "a")`.
    @inlinable @inline(__always)
    public subscript<Kind, each Argument, Result>(
        dynamicMember action: KeyPath<Actions, ActionDescriptor<Kind, repeat each Argument, Result>>
            & Sendable
    ) -> BoundAction<Kind, repeat each Argument, Result> {
        // The key first: `self` held across the lookup is a retain the compiler keeps.
        let key = _ActionKey(Actions()[keyPath: action])
        return BoundAction(setup: _CallSetup(pipe: self), key: key)
    }
}

extension ActionPipe {
    /// The action named by `action`, bound to this pipe, for an action whose name is also
    /// a member of the pipe (`name`, `on`, `append`, ...).
    ///
    /// ```swift
    /// pipe[action: \.append]("line")   // `pipe.append` is the chaining method
    /// ```
    @inlinable @inline(__always)
    public subscript<Kind, each Argument, Result>(
        action action: KeyPath<Actions, ActionDescriptor<Kind, repeat each Argument, Result>>
            & Sendable
    ) -> BoundAction<Kind, repeat each Argument, Result> {
        self[dynamicMember: action]
    }

    /// The names a dynamic member never reaches; `DiagnosticsTests.memberNamesAreTheAPI`.
    package static let _memberNames: Set<String> = [
        "name", "description", "on", "handles", "chainHandles", "removeHandler", "append",
        "removeFromChain", "isInSameChain", "chainNames", "register", "with",
    ]
}

private let _pipeNumbers = IDSource()
