import ActionPipeConcurrency

/// What a call starts with besides its arguments: a state, and side data.
///
/// A trivial value (no reference counting to copy or destroy it): the side data's inline
/// slots are stored here, and its out-of-line values are reached through `box`, unowned,
/// which the ``_CallSetup`` holding these options keeps alive. Calls pass it by value
/// into the dispatch loop, so a plain call pays nothing for options it does not use.
///
/// `@unchecked Sendable`: `box` refers to an immutable, `Sendable` object.
@usableFromInline
struct _CallOptions: @unchecked Sendable {
    @usableFromInline var state: ActionState?
    /// Whether the caller added side data: a plain call tests this flag and starts its
    /// process with empty side data.
    @usableFromInline var hasSideData: Bool
    @usableFromInline var inline: SideData._Inline
    @usableFromInline var box: Unretained<_CallSideDataBox>?

    @inlinable
    init(state: ActionState? = nil) {
        self.state = state
        self.hasSideData = false
        self.inline = SideData._Inline()
        self.box = nil
    }

    /// The side data the call starts with.
    @inlinable @inline(__always)
    var sideData: SideData {
        SideData(_inline: inline, _others: box?.with { $0.others })
    }
}

/// A pipe with the options of calls made through it: what ``BoundAction`` and
/// ``PipeCall`` hold.
///
/// Why one reference for both the pipe and the out-of-line side data: a value holding
/// two references is destroyed by an outlined function (and a pack-generic one through
/// its runtime metadata), which cost as much as the rest of a call; with one, the compiler
/// releases it in place. So `owner` is the pipe, or, once out-of-line side data is added,
/// a box holding both.
///
/// Why the options are packed here instead of stored as a ``_CallOptions``: a bound action
/// of more than eight scalars is a "large" value to the compiler, which then keeps it in
/// memory, in the caller's frame, for the whole call, and destroys it through its runtime
/// metadata. The state's presence and whether `owner` is a box share one byte of flags, and
/// whether the call has side data is read off the inline slot and the box.
@usableFromInline
struct _CallSetup: Sendable {
    @usableFromInline var owner: AnyObject & Sendable
    /// The state's bits; meaningful when `flags` has ``hasState``.
    @usableFromInline var stateBits: UInt64
    @usableFromInline var flags: UInt8
    /// The side data's inline slot.
    @usableFromInline var inline: SideData._Inline

    /// In `flags`: the call has a state.
    @inlinable static var hasState: UInt8 { 1 }
    /// In `flags`: `owner` is a ``_CallSideDataBox``.
    @inlinable static var ownerIsBox: UInt8 { 2 }

    @inlinable
    init(pipe: ActionPipe, state: ActionState? = nil) {
        owner = pipe
        stateBits = state?.rawValue ?? 0
        flags = state == nil ? 0 : Self.hasState
        inline = SideData._Inline()
    }

    /// The pipe calls are made on.
    @inlinable @inline(__always)
    var pipe: ActionPipe { unretainedPipe.object }

    /// The pipe calls are made on, unretained: for the call itself, which holds this setup
    /// (and so the pipe) for its whole duration, and would otherwise retain the pipe again.
    @inlinable @inline(__always)
    var unretainedPipe: Unretained<ActionPipe> {
        // By address: a cast of `owner` is a copy of it, which the compiler retains.
        let object = Unretained<AnyObject>(owner)
        if flags & Self.ownerIsBox == 0 { return object.as(ActionPipe.self) }
        return object.as(_CallSideDataBox.self).with {
            Unretained($0.pipe)
        }
    }

    /// The setup without its reference counted: what the instrumented path is handed, so
    /// that the plain path, which shares the call's frame with it, never copies the setup
    /// (a copy is a retain, which the compiler hoists above the branch).
    @usableFromInline
    struct _Unretained {
        @usableFromInline let owner: Unretained<AnyObject>
        @usableFromInline let stateBits: UInt64
        @usableFromInline let flags: UInt8
        @usableFromInline let inline: SideData._Inline

        @inlinable
        init(_ setup: borrowing _CallSetup) {
            owner = Unretained(setup.owner)
            stateBits = setup.stateBits
            flags = setup.flags
            inline = setup.inline
        }
    }

    /// The setup `unretained` describes, with its reference retained.
    @inlinable
    init(_ unretained: _Unretained) {
        let object = unretained.owner.object
        owner =
            unretained.flags & Self.ownerIsBox == 0
            ? knownCast(object, to: ActionPipe.self)
            : knownCast(object, to: _CallSideDataBox.self)
        stateBits = unretained.stateBits
        flags = unretained.flags
        inline = unretained.inline
    }

    /// The state calls are made with, if any.
    @inlinable @inline(__always)
    var state: ActionState? {
        get { flags & Self.hasState == 0 ? nil : ActionState(rawValue: stateBits) }
        set {
            stateBits = newValue?.rawValue ?? 0
            flags = newValue == nil ? flags & ~Self.hasState : flags | Self.hasState
        }
    }

    /// Whether calls start with side data (a value inline or out of line).
    @inlinable @inline(__always)
    var hasSideData: Bool { inline.s0.id != 0 || flags & Self.ownerIsBox != 0 }

    /// The side data calls start with.
    @inlinable @inline(__always)
    var sideData: SideData {
        guard hasSideData else { return SideData() }
        let others =
            flags & Self.ownerIsBox == 0
            ? nil : knownCast(owner, to: _CallSideDataBox.self).others
        return SideData(_inline: inline, _others: others)
    }

    /// The options calls are made with, unpacked.
    @inlinable
    var options: _CallOptions {
        var options = _CallOptions(state: state)
        if hasSideData {
            options.hasSideData = true
            options.inline = inline
            if flags & Self.ownerIsBox != 0 {
                options.box = Unretained(knownCast(owner, to: _CallSideDataBox.self))
            }
        }
        return options
    }

    /// Replaces the side data calls start with.
    @inlinable
    mutating func set(_ sideData: SideData) {
        let pipe = self.pipe
        inline = sideData._inline
        if let others = sideData._others {
            owner = _CallSideDataBox(pipe: pipe, others: others)
            flags |= Self.ownerIsBox
        } else {
            owner = pipe
            flags &= ~Self.ownerIsBox
        }
    }

    /// Adds `value` to the side data calls start with.
    @inlinable
    mutating func add<Value: Sendable>(_ key: SideDataKey<Value>, _ value: Value) {
        // The common case, a small trivial value and no out-of-line values yet, changes
        // the inline slot in place: no side data is built, copied or destroyed.
        if SideData._isInline(Value.self), flags & Self.ownerIsBox == 0 {
            let slot = SideData._InlineSlot(id: key.id, value)
            if inline.replace(slot) || inline.insert(slot) { return }
        }
        var data = sideData
        data[key] = value
        set(data)
    }
}

/// The pipe and the out-of-line side data values of a ``_CallSetup``.
@usableFromInline
final class _CallSideDataBox: Sendable {
    @usableFromInline let pipe: ActionPipe
    @usableFromInline let others: [SideData._Slot]

    @usableFromInline
    init(pipe: ActionPipe, others: [SideData._Slot]) {
        self.pipe = pipe
        self.others = others
    }
}
