/// What a call starts with besides its arguments.
@usableFromInline
struct _CallOptions: Sendable {
    @usableFromInline var state: ActionState?
    /// Empty until the caller adds side data.
    @usableFromInline var sideData: SideData
    /// Whether the caller added side data: a plain call tests this flag and starts its
    /// process with empty side data instead of copying `sideData`.
    @usableFromInline var hasSideData: Bool

    @inlinable
    init(state: ActionState? = nil, sideData: SideData? = nil) {
        self.state = state
        self.sideData = sideData ?? SideData()
        self.hasSideData = sideData != nil
    }

    /// Adds `value` to the side data the call starts with.
    @inlinable
    mutating func add<Value: Sendable>(_ key: SideDataKey<Value>, _ value: Value) {
        sideData[key] = value
        hasSideData = true
    }
}
