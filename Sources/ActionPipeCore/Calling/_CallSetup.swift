import ActionPipeConcurrency

/// A pipe with the options of calls made through it (a state, side data): what
/// ``BoundAction`` and ``PipeCall`` hold.
///
/// One reference, `owner` (the pipe, or a box of the pipe and the out-of-line side data):
/// a value holding two is destroyed by an outlined, metadata-driven function; with one, in
/// place. Packed, at most eight scalars: a larger value is kept in the caller's memory.
@usableFromInline
struct _CallSetup: Sendable {
    @usableFromInline var owner: AnyObject & Sendable
    /// Meaningful when `flags` has ``hasState``.
    @usableFromInline var stateBits: UInt64
    @usableFromInline var flags: UInt8
    @usableFromInline var inline: SideData._InlineSlot

    @inlinable static var hasState: UInt8 { 1 }
    /// In `flags`: `owner` is a ``_CallSideDataBox``.
    @inlinable static var ownerIsBox: UInt8 { 2 }

    @inlinable
    init(pipe: ActionPipe, state: ActionState? = nil) {
        owner = pipe
        stateBits = state?.rawValue ?? 0
        flags = state == nil ? 0 : Self.hasState
        inline = SideData._InlineSlot()
    }

    @inlinable @inline(__always)
    var pipe: ActionPipe { unretainedPipe.object }

    /// Unretained: the bound action holding this setup holds the pipe while it is read.
    @inlinable @inline(__always)
    var unretainedPipe: Unretained<ActionPipe> {
        // By address: a cast of `owner` copies it, which the compiler retains.
        let object = Unretained<AnyObject>(owner)
        if flags & Self.ownerIsBox == 0 { return object.as(ActionPipe.self) }
        return object.as(_CallSideDataBox.self).with { Unretained($0.pipe) }
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
    var hasSideData: Bool { inline.id != 0 || flags & Self.ownerIsBox != 0 }

    @inlinable @inline(__always)
    var sideData: SideData {
        guard hasSideData else { return SideData() }
        let others =
            flags & Self.ownerIsBox == 0
            ? nil : knownCast(owner, to: _CallSideDataBox.self).others
        return SideData(_inline: inline, _others: others)
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
            if inline.id == key.id || inline.id == 0 {
                inline = SideData._InlineSlot(id: key.id, value)
                return
            }
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
