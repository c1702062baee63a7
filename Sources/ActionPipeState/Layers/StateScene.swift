/// A screen: a store, a controller and a view built around one shared state, chosen by type.
///
/// Built store first, then controller, then view, so every observer is in place before the
/// view's first write. The scene keeps the layers and the state alive; dropping it ends
/// their observations.
public struct StateScene<Store: StateLayer, Controller: StateLayer, View: StateLayer>
where Controller.State == Store.State, View.State == Store.State {
    /// The shared state.
    public let state: Store.State
    /// The store layer: does the work.
    public let store: Store
    /// The controller layer.
    public let controller: Controller
    /// The view layer: only reads and writes state.
    public let view: View

    /// Builds the three layers around `state`: store, then controller, then view.
    ///
    /// - Complexity: O(1), plus the layers' initialisers.
    public init(
        state: Store.State,
        store: Store.Type = Store.self,
        controller: Controller.Type = Controller.self,
        view: View.Type = View.self
    ) {
        self.state = state
        self.store = store.init(state: state)
        self.controller = controller.init(state: state)
        self.view = view.init(state: state)
    }
}

extension StateScene: Sendable where Store: Sendable, Controller: Sendable, View: Sendable {}
