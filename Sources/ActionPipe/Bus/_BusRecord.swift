import ActionPipeKernel

/// One subscription: what it listens to and who owns it, to remove it later.
struct _BusRecord {
    let keys: [BusEventKey]
    let owner: _BusOwner?
    let name: String
}
