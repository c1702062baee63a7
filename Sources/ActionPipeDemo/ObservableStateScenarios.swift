import ActionPipe
import Foundation

/// The scenarios of the observable state (seed 001, Minya).
let observableStateScenarios: [Scenario] = [
    Scenario(
        number: 50, name: "photo-flow",
        title: "State: the photo flow, four layers that share state and never call each other",
        original: "MIObserve(self.pipeline, url) changed:^(id newValue) { ... }",
        library: "Minya", run: photoFlow),
    Scenario(
        number: 51, name: "pulses",
        title: "State: every assignment is delivered, even an equal one; .initial, .skipEqual",
        original: "MIObserve(...) changed: fires on every set (KVO), the 'data arrived' pulse",
        library: "Minya", run: pulses),
    Scenario(
        number: 52, name: "path-replacement",
        title: "State: fixed, a path through sub-states follows a replaced sub-state",
        original: "MIObserve(self.pipeline.imagePipeline, url) keeps the old imagePipeline",
        library: "Minya", run: pathReplacement),
    Scenario(
        number: 53, name: "state-lifetimes",
        title: "State: observations end with their observer, their state, or a token",
        original: "@weakify(self) / @strongify(self) in every observer block",
        library: "Minya", run: stateLifetimes),
    Scenario(
        number: 54, name: "state-cycle",
        title: "State: observers that write each other in a loop are reported, not run forever",
        original: "two KVO observers that set each other's key loop until the stack overflows",
        library: "Minya", run: stateCycle),
    Scenario(
        number: 55, name: "scene",
        title: "State: a scene built by type, and a view swapped for another of the same state",
        original: "[MIScene sceneWithView:@\"SearchView\" controller:@\"...\" store:@\"...\"]",
        library: "Minya", run: sceneByType),
]

// MARK: - The Interestingness screen of the seed

private final class DemoImageState: ObservableState, @unchecked Sendable {
    @Observed("image.photoID") var photoID = ""
    @Observed("image.url") var url: String? = nil
}

private final class DemoPhotoListState: ObservableState, @unchecked Sendable {
    @Observed("list.photos") var photos: [String] = []
    @Observed("list.selectedIndex") var selectedIndex = -1
}

private final class DemoScreenState: ObservableState, @unchecked Sendable {
    @Observed("screen.image") var image = DemoImageState()
    let photoList = DemoPhotoListState()
}

/// PhotoListView: a tap writes the selection; nothing else.
private final class DemoPhotoListView: Sendable {
    let state: DemoPhotoListState
    init(state: DemoPhotoListState) { self.state = state }
    func didSelectRow(_ row: Int) {
        say("[PhotoListView]         tap row \(row): writes list.selectedIndex = \(row)")
        state.selectedIndex = row
    }
}

/// InterestingnessStore: the selection becomes the image's photo ID.
private final class DemoInterestingnessStore: StateLayer, Sendable {
    let imageStore: DemoTopImageStore
    init(state: DemoScreenState) {
        imageStore = DemoTopImageStore(state: state.image)
        state.photoList.$selectedIndex.observe(owner: state) { state, index in
            let photoID = state.photoList.photos[index]
            say(
                "[InterestingnessStore]  saw list.selectedIndex = \(index): "
                    + "writes image.photoID = \(photoID)")
            state.image.photoID = photoID
        }
    }
}

/// TopImageStore: fetches the URL of a photo ID (faked, async), writes it.
private final class DemoTopImageStore: Sendable {
    let fetched: AsyncStream<Void>
    private let done: AsyncStream<Void>.Continuation
    init(state: DemoImageState) {
        (fetched, done) = AsyncStream.makeStream()
        let done = self.done
        state.$photoID.observe { [weak state] photoID in
            say(
                "[TopImageStore]         saw image.photoID = \(photoID): "
                    + "fetches flickr.photos.getSizes (async)")
            Task {
                try? await Task.sleep(for: .milliseconds(20))
                let url = "https://live.staticflickr.com/\(photoID)_b.jpg"
                say("[TopImageStore]         fetched: writes image.url = \(url)")
                state?.url = url
                done.yield()
            }
        }
    }
}

/// TopImageView: shows whatever URL the state holds; nobody calls it.
private final class DemoTopImageView: Sendable {
    init(state: DemoImageState) {
        state.$url.observe { url in
            say("[TopImageView]          saw image.url: shows \(url ?? "nothing")")
        }
    }
}

/// InterestingnessView: hands each child view its sub-state.
private final class DemoInterestingnessView: StateLayer, Sendable {
    let list: DemoPhotoListView
    let topImage: DemoTopImageView
    init(state: DemoScreenState) {
        list = DemoPhotoListView(state: state.photoList)
        topImage = DemoTopImageView(state: state.image)
    }
}

private final class DemoInterestingnessController: StateLayer, Sendable {
    init(state: DemoScreenState) {}
}

private func photoFlow() async {
    let state = DemoScreenState()
    state.photoList.photos = ["53871234", "53870011", "53869977"]
    let scene = StateScene(
        state: state, store: DemoInterestingnessStore.self,
        controller: DemoInterestingnessController.self, view: DemoInterestingnessView.self)
    say("scene: store, controller, view built around one DemoScreenState (by type)")
    var fetched = scene.store.imageStore.fetched.makeAsyncIterator()
    scene.view.list.didSelectRow(1)
    say("(the tap returned; the fetch is in flight)")
    await fetched.next()
    say("no layer called another: each only wrote and observed the state")
}

// MARK: - 51. pulses

private func pulses() {
    let list = DemoPhotoListState()
    list.$selectedIndex.observe { say("plain observer:        \($0)") }
    list.$selectedIndex.observe([.initial, .skipEqual]) { say("[.initial, .skipEqual]: \($0)") }
    for index in [2, 2, 3] {
        say("set selectedIndex = \(index)")
        list.selectedIndex = index
    }
}

// MARK: - 52. path replacement

private func pathReplacement() {
    let screen = DemoScreenState()
    let oldImage = screen.image
    oldImage.$url.observe { say("direct observer of the first image: \($0 ?? "nil")") }
    screen.$image.then(\.$url).observe { say("path screen.image.url:              \($0 ?? "nil")") }
    say("set image.url = a.jpg")
    screen.image.url = "a.jpg"
    say("replace screen.image with a new image state (url nil)")
    screen.image = DemoImageState()
    say("set the OLD image's url = stale.jpg (the path no longer sees it)")
    oldImage.url = "stale.jpg"
    say("set the new image's url = b.jpg")
    screen.image.url = "b.jpg"
}

// MARK: - 53. lifetimes

private final class DemoObserver: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
    deinit { say("(\(name) released)") }
}

private func stateLifetimes() {
    let image = DemoImageState()
    var view: DemoObserver? = DemoObserver("view")
    image.$url.observe(owner: view!) { view, url in say("\(view.name) saw \(url ?? "nil")") }
    let token = image.$url.observe { say("token observer saw \($0 ?? "nil")") }
    image.url = "1.jpg"
    say("drop the view; cancel the token")
    view = nil
    token.cancel()
    image.url = "2.jpg"
    say("observers left: \(image.$url.observerCount) (nothing was delivered)")

    var screen: DemoScreenState? = DemoScreenState()
    let urlToken = screen!.image.$url.observe { say("saw \($0 ?? "nil")") }
    say("drop the state: token active before: \(urlToken.isActive)")
    screen = nil
    say("token active after: \(urlToken.isActive)")
}

// MARK: - 54. cycles

private func stateCycle() {
    let a = ObservedProperty(0, label: "a")
    let b = ObservedProperty(0, label: "b")
    a.observe { b.value = $0 + 1 }
    b.observe { a.value = $0 + 1 }
    say("a's observer sets b, b's observer sets a; set a = 1")
    for diagnostic in Diagnostics.record({ a.value = 1 }) { say("reported: \(diagnostic)") }
    say(
        "stopped at a = \(a.value), b = \(b.value) (depth limit \(ObservationCycleError.depthLimit))"
    )
}

// MARK: - 55. scenes

private final class DemoGreetingState: ObservableState, @unchecked Sendable {
    @Observed var name = ""
    @Observed var greeting = ""
}

private final class DemoGreetingStore: StateLayer, Sendable {
    init(state: DemoGreetingState) {
        state.$name.observe(owner: state) { state, name in state.greeting = "Hello, \(name)" }
    }
}

private final class DemoGreetingController: StateLayer, Sendable {
    init(state: DemoGreetingState) {}
}

private final class DemoPlainView: StateLayer, Sendable {
    init(state: DemoGreetingState) {
        state.$greeting.observe { say("[PlainView]    \($0)") }
    }
}

private final class DemoBannerView: StateLayer, Sendable {
    init(state: DemoGreetingState) {
        state.$greeting.observe { say("[BannerView]   *** \($0.uppercased()) ***") }
    }
}

private func sceneByType() {
    let plain = StateScene(
        state: DemoGreetingState(), store: DemoGreetingStore.self,
        controller: DemoGreetingController.self, view: DemoPlainView.self)
    plain.state.name = "Ada"
    say("same store and controller, another view of the same state type:")
    let banner = StateScene(
        state: DemoGreetingState(), store: DemoGreetingStore.self,
        controller: DemoGreetingController.self, view: DemoBannerView.self)
    banner.state.name = "Ada"
}
