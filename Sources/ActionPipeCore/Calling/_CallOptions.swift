import ActionPipeConcurrency

/// What a call starts with besides its arguments: a state, and side data.
///
/// Trivial: the side data's inline slot is stored here, its out-of-line values reached
/// through `box`, unowned (the ``_CallSetup`` holding these options keeps it alive).
///
/// `@unchecked Sendable`: `box` refers to an immutable, `Sendable` object.
@usableFromInline
struct _CallOptions: @unchecked Sendable {
    @usableFromInline var state: ActionState?
    /// A plain call tests this and starts with empty side data.
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

    @inlinable @inline(__always)
    var sideData: SideData {
        SideData(_inline: inline, _others: box?.with { $0.others })
    }
}

/// A pipe with the options of calls made through it: what ``BoundAction`` and ``PipeCall``
/// hold.
///
/// One reference for the pipe and the out-of-line side data (`owner` is the pipe, or a box
/// of both): a value holding two is destroyed by an outlined (pack-generic: metadata-driven)
/// function; with one, in place. Options packed, not a ``_CallOptions``: a value of more
/// than eight scalars is kept in the caller's memory for the call, and destroyed through
/// its metadata.
@usableFromInline
struct _CallSetup: Sendable {
    @usableFromInline var owner: AnyObject & Sendable
    /// Meaningful when `flags` has ``hasState``.
    @usableFromInline var stateBits: UInt64
    @usableFromInline var flags: UInt8
    @usableFromInline var inline: SideData._Inline

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

    @inlinable @inline(__always)
    var pipe: ActionPipe { unretainedPipe.object }

    /// Unretained: the call holds this setup (and so the pipe) for its whole duration.
    @inlinable @inline(__always)
    var unretainedPipe: Unretained<ActionPipe> {
        // By address: a cast of `owner` copies it, which the compiler retains.
        let object = Unretained<AnyObject>(owner)
        if flags & Self.ownerIsBox == 0 { return object.as(ActionPipe.self) }
        return object.as(_CallSideDataBox.self).with {
            Unretained($0.pipe)
        }
    }

    /// The setup without its reference counted, for the instrumented path, so the plain
    /// path sharing the frame never copies the setup (a retain hoisted above the branch).
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

    /// Retains the reference.
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

    @inlinable @inline(__always)
    var state: ActionState? {
        get { flags & Self.hasState == 0 ? nil : ActionState(rawValue: stateBits) }
        set {
            stateBits = newValue?.rawValue ?? 0
            flags = newValue == nil ? flags & ~Self.hasState : flags | Self.hasState
        }
    }

    /// A value inline or out of line.
    @inlinable @inline(__always)
    var hasSideData: Bool { inline.s0.id != 0 || flags & Self.ownerIsBox != 0 }

    @inlinable @inline(__always)
    var sideData: SideData {
        guard hasSideData else { return SideData() }
        let others =
            flags & Self.ownerIsBox == 0
            ? nil : knownCast(owner, to: _CallSideDataBox.self).others
        return SideData(_inline: inline, _others: others)
    }

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

    @inlinable
    mutating func add<Value: Sendable>(_ key: SideDataKey<Value>, _ value: Value) {
        // A small trivial value and no out-of-line values yet: change the slot in place.
        if SideData._isInline(Value.self), flags & Self.ownerIsBox == 0 {
            let slot = SideData._InlineSlot(id: key.id, value)
            if inline.replace(slot) || inline.insert(slot) { return }
        }
        var data = sideData
        data[key] = value
        set(data)
    }
}

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
