import ActionPipeShared

/// Waits for the queued deliveries to the main actor (`on: .mainActor` observers,
/// subscribers and handlers), instead of sleeping or polling.
public enum MainActorDeliveries {
    /// Returns once every delivery to the main actor queued before the call has run,
    /// including those they queue in turn.
    ///
    /// - Complexity: O(1) to wait; the wait lasts as long as the queued deliveries.
    public static func drain() async {
        await _MainActorQueue.shared.idle()
    }
}
