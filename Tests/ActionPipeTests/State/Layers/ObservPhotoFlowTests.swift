import ActionPipe
import Testing

// The seed's Interestingness screen: a photo list and a top image, four layers that share
// the screen's state and never call each other.

/// The list view: on a tap, writes the selected index. That is all it does.
final class ObservPhotoListView: Sendable {
    let state: ObservPhotoListState
    init(state: ObservPhotoListState) { self.state = state }
    func didSelectRow(_ row: Int) { state.selectedIndex = row }
}

/// The screen's store: observes the list's selection, writes the image's photo ID.
final class ObservInterestingnessStore: StateLayer, Sendable {
    let imageStore: ObservTopImageStore
    init(state: ObservScreenState) {
        imageStore = ObservTopImageStore(state: state.image)
        state.photoList.$selectedIndex.observe(owner: state) { state, index in
            state.image.photoID = state.photoList.photos[index]
        }
    }
}

/// The image store: observes the photo ID, "fetches" the URL (async, faked), writes it.
final class ObservTopImageStore: Sendable {
    let fetches = Log()
    init(state: ObservImageState) {
        state.$photoID.observe(owner: self) { [weak state] store, photoID in
            store.fetches.append(photoID)
            Task {
                try? await Task.sleep(for: .milliseconds(10))  // the network
                state?.url = "https://live.example/\(photoID).jpg"
            }
        }
    }
}

/// The top-image view: observes the URL, shows it. Nobody calls it.
final class ObservTopImageView: Sendable {
    let shown = Log()
    init(state: ObservImageState) {
        state.$url.observe(owner: self) { view, url in view.shown.append(url ?? "nil") }
    }
}

/// The screen's view: hands each child view its sub-state.
final class ObservInterestingnessView: StateLayer, Sendable {
    let list: ObservPhotoListView
    let topImage: ObservTopImageView
    init(state: ObservScreenState) {
        list = ObservPhotoListView(state: state.photoList)
        topImage = ObservTopImageView(state: state.image)
    }
}

final class ObservInterestingnessController: StateLayer, Sendable {
    init(state: ObservScreenState) {}
}

@Suite("ObservableState: the seed's photo flow")
struct ObservPhotoFlowTests {
    @Test("list → store → image store (async fetch) → top image view", .hangBound)
    func photoFlow() async {
        let state = ObservScreenState()
        state.photoList.photos = ["p0", "p1", "p2"]
        let scene = StateScene(
            state: state, store: ObservInterestingnessStore.self,
            controller: ObservInterestingnessController.self,
            view: ObservInterestingnessView.self)

        scene.view.list.didSelectRow(1)
        #expect(state.image.photoID == "p1")  // the store wrote it synchronously
        #expect(scene.store.imageStore.fetches.all == ["p1"])
        #expect(await observEventually { scene.view.topImage.shown.all.count == 1 })
        #expect(scene.view.topImage.shown.all == ["https://live.example/p1.jpg"])
        #expect(state.image.url == "https://live.example/p1.jpg")

        // Selecting the same row again is a pulse: the store fetches again.
        scene.view.list.didSelectRow(1)
        #expect(await observEventually { scene.view.topImage.shown.all.count == 2 })
        #expect(scene.store.imageStore.fetches.all == ["p1", "p1"])
    }
}
