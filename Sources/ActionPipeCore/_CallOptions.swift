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
    @usableFromInline var box: Unmanaged<_CallSideDataBox>?

    @inlinable
    init(state: ActionState? = nil) {
        self.state = state
        self.hasSideData = false
        self.inline = SideData._Inline()
        self.box = nil
    }

    /// The side data the call starts with.
    @inlinable
    var sideData: SideData {
        SideData(_inline: inline, _others: box?._withUnsafeGuaranteedRef { $0.others })
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
@usableFromInline
struct _CallSetup: Sendable {
    @usableFromInline var owner: AnyObject & Sendable
    @usableFromInline var options: _CallOptions

    @inlinable
    init(pipe: ActionPipe, options: _CallOptions = _CallOptions()) {
        owner = pipe
        self.options = options
    }

    /// The pipe calls are made on.
    @inlinable
    var pipe: ActionPipe {
        if options.box == nil { return unsafeDowncast(owner, to: ActionPipe.self) }
        return unsafeDowncast(owner, to: _CallSideDataBox.self).pipe
    }

    /// Replaces the side data calls start with.
    @inlinable
    mutating func set(_ sideData: SideData) {
        let pipe = self.pipe
        options.inline = sideData._inline
        options.hasSideData = true
        if let others = sideData._others {
            let box = _CallSideDataBox(pipe: pipe, others: others)
            owner = box
            options.box = .passUnretained(box)
        } else {
            owner = pipe
            options.box = nil
        }
    }

    /// Adds `value` to the side data calls start with.
    @inlinable
    mutating func add<Value: Sendable>(_ key: SideDataKey<Value>, _ value: Value) {
        // The common case, a small trivial value and no out-of-line values yet, changes
        // the inline slots in place: no side data is built, copied or destroyed.
        if SideData._isInline(Value.self), options.box == nil {
            let slot = SideData._InlineSlot(id: key.id, value)
            if options.inline.replace(slot) || options.inline.insert(slot) {
                options.hasSideData = true
                return
            }
        }
        var data = options.sideData
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
