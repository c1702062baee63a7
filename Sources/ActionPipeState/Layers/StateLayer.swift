/// One layer of a screen — store, controller or view — built around the screen's state.
///
/// A layer knows only its state type: it reads and writes the state's properties and
/// observes them, and never calls another layer. Any two layers built around the same state
/// type can replace each other in a ``StateScene``. A layer hands each child its sub-state
/// (`TopImageView(state: state.image)`), the way Minya's views pass sub-pipelines down.
///
/// ```swift
/// final class CounterState: ObservableState, @unchecked Sendable {
///     @Observed var taps = 0
///     @Observed var text = ""
/// }
/// final class CounterStore: StateLayer, Sendable {
///     init(state: CounterState) {
///         state.$taps.observe(owner: state) { state, taps in state.text = "\(taps) taps" }
///     }
/// }
/// ```
public protocol StateLayer: AnyObject {
    /// The state the layer depends on.
    ///
    /// ```swift
    /// typealias State = CounterState
    /// ```
    associatedtype State: ObservableState

    /// Builds the layer around `state`: keep it, observe what the layer needs.
    ///
    /// ```swift
    /// let store = CounterStore(state: CounterState())
    /// ```
    init(state: State)
}
