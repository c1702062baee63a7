import ActionPipeConcurrency

/// One subscription: which tables it is in and who owns it, to remove it later. Small (one
/// per subscription): only a union stores other types, and only an owned union its keys
/// (for `unsubscribe(_:from:)`; a one-key subscription is matched by its entry's key).
struct _BusRecord {
    /// A union's first.
    let type: ObjectIdentifier
    /// A union's other event types, each once.
    var otherTypes: [ObjectIdentifier] = []
    /// A union's keys, when it has a subscriber.
    var keys: [BusEventKey] = []
    let owner: _BusOwner?
}

extension _BusRecord {
    /// `keys` has at least one key.
    init(keys: [BusEventKey], owner: _BusOwner?) {
        let type = keys[0].type
        var others: [ObjectIdentifier] = []
        for key in keys.dropFirst() where key.type != type && !others.contains(key.type) {
            others.append(key.type)
        }
        self.init(type: type, otherTypes: others, keys: owner == nil ? [] : keys, owner: owner)
    }
}
