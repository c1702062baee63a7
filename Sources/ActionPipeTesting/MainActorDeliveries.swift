import ActionPipeShared

/// Waits for the queued deliveries to the main actor (`on: .mainActor` observers,
/// subscribers and handlers): a UI test awaits this instead of sleeping or polling.
///
/// ```swift
/// @Test @MainActor func showsTheLastAlbum() async {
///     let model = AlbumsViewModel(store: store)
///     await store.load()                      // writes from a background task
///     await MainActorDeliveries.drain()
///     #expect(model.titles == ["Holidays", "Cats"])
/// }
/// ```
public enum MainActorDeliveries {
    /// Returns once every delivery to the main actor queued before the call has run,
    /// including those they queue in turn.
    ///
    /// - Complexity: O(1) to wait; the wait lasts as long as the queued deliveries.
    public static func drain() async {
        await _MainActorQueue.shared.idle()
    }
}
