/// What a call starts with besides its arguments.
@usableFromInline
struct _CallOptions: Sendable {
    @usableFromInline var state: ActionState?
    @usableFromInline var sideData: SideData

    @inlinable
    init(state: ActionState? = nil, sideData: SideData = SideData()) {
        self.state = state
        self.sideData = sideData
    }
}
