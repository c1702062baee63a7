import ActionPipeConcurrency

/// One subscription: which tables it is in and who owns it, to remove it later.
///
/// Kept small, since a bus holds one per subscription: a plain subscription stores one
/// event type and no array; only a union over several types stores the others, and only a
/// union with a subscriber keeps its keys (``EventBus/unsubscribe(_:from:)`` matches them;
/// a subscription to one key is matched by its entry's key).
struct _BusRecord {
    /// The event type whose table holds it (a union's first).
    let type: ObjectIdentifier
    /// A union's other event types, each once; empty otherwise.
    let otherTypes: [ObjectIdentifier]
    /// A union's keys, when it has a subscriber; empty otherwise.
    let keys: [BusEventKey]
    let owner: _BusOwner?

    /// The record of a subscription to `keys` (at least one), owned by `owner` if any.
    init(keys: [BusEventKey], owner: _BusOwner?) {
        type = keys[0].type
        var others: [ObjectIdentifier] = []
        for key in keys.dropFirst() where key.type != type && !others.contains(key.type) {
            others.append(key.type)
        }
        otherTypes = others
        self.keys = owner == nil ? [] : keys
        self.owner = owner
    }

    /// The record of a subscription to one key of event type `type`, owned by `owner` if
    /// any.
    init(type: ObjectIdentifier, owner: _BusOwner?) {
        self.type = type
        otherTypes = []
        keys = []
        self.owner = owner
    }
}
