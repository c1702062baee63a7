/// One layer of a screen (store, controller or view) built around the screen's state.
///
/// A layer reads, writes and observes its state's properties and never calls another layer;
/// two layers of the same state type can replace each other in a ``StateScene``.
public protocol StateLayer: AnyObject {
    /// The state the layer depends on.
    associatedtype State: ObservableState

    /// Builds the layer around `state`: keep it, observe what the layer needs.
    init(state: State)
}
