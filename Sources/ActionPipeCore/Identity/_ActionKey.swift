import ActionPipeConcurrency
import Synchronization

/// The small integer that identifies an action: its descriptor's site (file, line, column),
/// name and type (so a generic helper's site gives one action per type), interned by content.
@usableFromInline
struct _ActionKey: Hashable, Sendable {
    @usableFromInline let rawValue: Int

    /// Lock-free after its first use. Passes the identity on as scalars, so a call site
    /// keeps no descriptor in its frame.
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

    /// For registrations: also checks that no other key path shares the identity. Inlined
    /// so the descriptor folds into constants, as for a call.
    @inlinable @inline(__always)
    init<Kind, each Argument, Result>(
        registering action: KeyPath<Actions, ActionDescriptor<Kind, repeat each Argument, Result>>
            & Sendable
    ) {
        self.init(Actions()[keyPath: action])
        _ActionKeyTable.shared.check(action, hasKey: rawValue)
    }

    /// The key of a registered action, from its raw value (as a token keeps it).
    init(rawValue: Int) { self.rawValue = rawValue }

    /// The name of the action, for traces.
    var name: String { _ActionKeyTable.shared.name(of: rawValue) }

    var _nestingError: NestingLimitError {
        NestingLimitError(refused: .call(action: name), depth: NestingLimitError.depthLimit + 1)
    }

    @usableFromInline @inline(never)
    func _reportTooDeep() { NestingLimitError._report(_nestingError) }
}
