/// A screen: a store, a controller and a view built around one shared state, chosen by type
/// (Minya's `MIScene` + `MIMediator`, without class-name strings: a layer for another
/// state type does not compile).
///
/// The layers are built store first (it does the work: observes the inputs, fetches, writes
/// the outputs), then the controller, then the view (which only reads and writes state),
/// so every observer is in place before the view's first write. The scene keeps the three
/// layers and the state alive; dropping it releases them, which ends their observations.
///
/// ```swift
/// final class GreetingState: ObservableState, @unchecked Sendable {
///     @Observed var name = ""
///     @Observed var greeting = ""
/// }
/// final class GreetingStore: StateLayer, Sendable {
///     init(state: GreetingState) {
///         state.$name.observe(owner: state) { state, name in state.greeting = "Hello, \(name)" }
///     }
/// }
/// final class GreetingController: StateLayer, Sendable {
///     init(state: GreetingState) {}
/// }
/// final class GreetingView: StateLayer, Sendable {
///     let state: GreetingState
///     init(state: GreetingState) { self.state = state }
///     func type(_ name: String) { state.name = name }
/// }
/// let scene = StateScene(
///     state: GreetingState(),
///     store: GreetingStore.self, controller: GreetingController.self, view: GreetingView.self)
/// scene.view.type("Ada")
/// scene.state.greeting   // "Hello, Ada"
/// ```
public struct StateScene<Store: StateLayer, Controller: StateLayer, View: StateLayer>
where Controller.State == Store.State, View.State == Store.State {
    /// The shared state.
    ///
    /// ```swift
    /// scene.state.name = "Ada"
    /// ```
    public let state: Store.State
    /// The store layer: does the work.
    ///
    /// ```swift
    /// let store = scene.store
    /// ```
    public let store: Store
    /// The controller layer.
    ///
    /// ```swift
    /// let controller = scene.controller
    /// ```
    public let controller: Controller
    /// The view layer: only reads and writes state.
    ///
    /// ```swift
    /// scene.view.type("Ada")
    /// ```
    public let view: View

    /// Builds the three layers around `state`: store, then controller, then view.
    ///
    /// ```swift
    /// let scene = StateScene(
    ///     state: GreetingState(),
    ///     store: GreetingStore.self, controller: GreetingController.self,
    ///     view: OtherGreetingView.self)   // another view of the same state: a swap
    /// ```
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
