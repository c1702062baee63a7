/// What a call starts with besides its arguments.
@usableFromInline
struct _CallOptions: Sendable {
    @usableFromInline var state: ActionState?
    /// `nil` until the caller adds side data, so a plain call neither copies nor destroys
    /// a ``SideData`` value on its way in.
    @usableFromInline var sideData: SideData?
    /// Whether `sideData` is set: testing this flag is cheaper than testing the large
    /// optional, which the compiler does through the type's value witnesses.
    @usableFromInline var hasSideData: Bool

    @inlinable
    init(state: ActionState? = nil, sideData: SideData? = nil) {
        self.state = state
        self.sideData = sideData
        self.hasSideData = sideData != nil
    }

    /// The side data a call starts with.
    @inlinable @inline(__always)
    var initialSideData: SideData {
        hasSideData ? sideData.unsafelyUnwrapped : SideData()
    }

    /// Adds `value` to the side data the call starts with.
    @inlinable
    mutating func add<Value: Sendable>(_ key: SideDataKey<Value>, _ value: Value) {
        var data = sideData ?? SideData()
        data[key] = value
        sideData = data
        hasSideData = true
    }
}
