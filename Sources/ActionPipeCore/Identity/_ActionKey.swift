import ActionPipeConcurrency
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
    ///
    /// Passes the identity on as six scalars, so a call site keeps no descriptor in its
    /// frame: a handler that calls an action again adds that frame at every level.
    @inlinable @inline(__always)
    init<Kind, each Argument, Result>(
        _ descriptor: ActionDescriptor<Kind, repeat each Argument, Result>
    ) {
        let file = descriptor._file
        self.init(
            fileAddress: file.hasPointerRepresentation ? UInt(bitPattern: file.utf8Start) : 0,
            fileWord: file.hasPointerRepresentation
                ? UInt(bitPattern: file.utf8CodeUnitCount) : UInt(file.unicodeScalar.value),
            position: UInt64(descriptor._line) &<< 32
                | UInt64(truncatingIfNeeded: descriptor._column),
            type: ObjectIdentifier(ActionDescriptor<Kind, repeat each Argument, Result>.self),
            name: descriptor.name)
    }

    /// The key of the identity made of these scalars (see ``_ActionSite``).
    @usableFromInline @inline(never)
    init(
        fileAddress: UInt, fileWord: UInt, position: UInt64, type: ObjectIdentifier,
        name: __shared String
    ) {
        let hash = _ActionSite.hash(
            fileAddress: fileAddress, fileWord: fileWord, position: position, type: type,
            name: name)
        if let cache = Unretained<_ActionKeyCache>(
            address: _actionKeyCache.load(ordering: .acquiring)),
            let found = cache.with({
                $0.key(
                    hash: hash, fileAddress: fileAddress, fileWord: fileWord, position: position,
                    type: type, name: name)
            })
        {
            rawValue = found
        } else {
            rawValue = _ActionKeyTable.intern(
                _ActionSite(
                    fileAddress: fileAddress, fileWord: fileWord, position: position, type: type,
                    name: name, hash: hash))
        }
    }

    /// The key of `action`, checking that no other key path shares its identity:
    /// registrations come through here, calls through ``init(_:)``. Inlined where the
    /// registration is written, so that the key path's descriptor is folded into constants
    /// as for a call (projecting a key path at run time costs more than the rest).
    @inlinable @inline(__always)
    init<Kind, each Argument, Result>(
        registering action: KeyPath<Actions, ActionDescriptor<Kind, repeat each Argument, Result>>
            & Sendable
    ) {
        self.init(Actions()[keyPath: action])
        _ActionKeyTable.shared.check(action, hasKey: rawValue)
    }

    /// The name of the action, for traces.
    /// The key of a registered action, from its raw value (as a token keeps it).
    init(rawValue: Int) { self.rawValue = rawValue }

    var name: String { _ActionKeyTable.shared.name(of: rawValue) }
}
