import ActionPipe
import Testing

// MARK: - A screen's layers, built around one state by type

final class ObservGreetingState: ObservableState, @unchecked Sendable {
    @Observed var name = ""
    @Observed var greeting = ""
}

final class ObservGreetingStore: StateLayer, Sendable {
    init(state: ObservGreetingState) {
        state.$name.observe(owner: state) { state, name in state.greeting = "Hello, \(name)" }
    }
}

final class ObservGreetingController: StateLayer, Sendable {
    let built = Log()
    init(state: ObservGreetingState) {
        built.append("controller sees store's observer: \(state.$name.isObserved)")
    }
}

final class ObservGreetingView: StateLayer, Sendable {
    let state: ObservGreetingState
    let shown = Log()
    init(state: ObservGreetingState) {
        self.state = state
        state.$greeting.observe(owner: self) { view, text in view.shown.append(text) }
    }
    func type(_ name: String) { state.name = name }
}

/// Another view of the same state: swapping it in needs no other change.
final class ObservShoutingView: StateLayer, Sendable {
    let state: ObservGreetingState
    let shown = Log()
    init(state: ObservGreetingState) {
        self.state = state
        state.$greeting.observe(owner: self) { view, text in view.shown.append(text.uppercased()) }
    }
}

/// A layer isolated to the main actor, the way a UIKit controller would conform.
@MainActor
final class ObservMainActorView: @MainActor StateLayer {
    let state: ObservGreetingState
    var text = ""
    init(state: ObservGreetingState) {
        self.state = state
    }
}

@Suite("ObservableState: scenes of layers")
struct ObservSceneTests {
    @Test(
        "A scene builds store, controller and view around one state; layers never call each other")
    func buildsLayers() {
        let scene = StateScene(
            state: ObservGreetingState(),
            store: ObservGreetingStore.self, controller: ObservGreetingController.self,
            view: ObservGreetingView.self)
        #expect(scene.controller.built.all == ["controller sees store's observer: true"])
        scene.view.type("Ada")
        #expect(scene.state.greeting == "Hello, Ada")
        #expect(scene.view.shown.all == ["Hello, Ada"])
    }

    @Test("Another view of the same state type swaps in")
    func swapView() {
        let scene = StateScene(
            state: ObservGreetingState(),
            store: ObservGreetingStore.self, controller: ObservGreetingController.self,
            view: ObservShoutingView.self)
        scene.state.name = "Bo"
        #expect(scene.view.shown.all == ["HELLO, BO"])
    }

    @Test("Dropping the scene releases the state and every layer")
    func sceneReleased() {
        weak var weakState: ObservGreetingState?
        weak var weakStore: ObservGreetingStore?
        weak var weakView: ObservGreetingView?
        do {
            let scene = StateScene<
                ObservGreetingStore, ObservGreetingController, ObservGreetingView
            >(state: ObservGreetingState())
            weakState = scene.state
            weakStore = scene.store
            weakView = scene.view
            scene.view.type("x")
        }
        #expect(weakState == nil)
        #expect(weakStore == nil)
        #expect(weakView == nil)
    }

    @Test("A main-actor layer conforms with an isolated conformance")
    @MainActor
    func mainActorLayer() {
        let scene = StateScene(
            state: ObservGreetingState(),
            store: ObservGreetingStore.self, controller: ObservGreetingController.self,
            view: ObservMainActorView.self)
        scene.state.name = "Cy"
        scene.view.text = scene.state.greeting
        #expect(scene.view.text == "Hello, Cy")
    }
}
