import ActionPipe
import Testing

@Suite("ObservableState: how observations end, and leaks")
struct ObservLifetimeTests {
    @Test("Cancelling the token ends the observation and releases the handler")
    func tokenCancel() {
        let property = ObservedProperty(0)
        let log = Log()
        weak var weakCaptured: Tracked?
        var token: RegistrationToken?
        do {
            let captured = Tracked("captured")
            weakCaptured = captured
            token = property.observe { log.append("\(captured.name) \($0)") }
        }
        property.value = 1
        #expect(token?.isActive == true)
        #expect(token?.cancel() == true)
        #expect(token?.cancel() == false)
        #expect(token?.isActive == false)
        property.value = 2
        #expect(log.take() == ["captured 1"])
        #expect(weakCaptured == nil)
        #expect(!property.isObserved)
    }

    @Test("An observer held by owner ends when the owner goes away, and never keeps it alive")
    func ownerGoesAway() {
        let list = ObservPhotoListState()
        let log = Log()
        weak var weakOwner: ObservOwner?
        var token: RegistrationToken?
        do {
            let owner = ObservOwner("store")
            weakOwner = owner
            token = list.$selectedIndex.observe(owner: owner) { owner, index in
                log.append("\(owner.name) \(index)")
            }
            list.selectedIndex = 1
        }
        #expect(weakOwner == nil)  // observing did not keep it alive
        list.selectedIndex = 2  // not delivered; the observer removes itself
        #expect(log.take() == ["store 1"])
        #expect(token?.isActive == false)
        #expect(list.$selectedIndex.observerCount == 0)
    }

    @Test("A strongly held owner lives until the token is cancelled; options keep the owner")
    func strongOwnerAndOptions() {
        let list = ObservPhotoListState()
        let log = Log()
        weak var weakOwner: ObservOwner?
        var token: RegistrationToken?
        var optionsToken: RegistrationToken?
        do {
            let owner = ObservOwner("strong")
            weakOwner = owner
            token = list.$selectedIndex.observe(owner: owner, retention: .strong) { owner, index in
                log.append("\(owner.name) \(index)")
            }
            optionsToken = list.$selectedIndex.observe([.initial, .skipEqual], owner: owner) {
                owner, index in log.append("\(owner.name) skipEqual \(index)")
            }
        }
        #expect(log.take() == ["strong skipEqual -1"])  // .initial, with the owner
        #expect(weakOwner != nil)  // kept by the strong observation
        list.selectedIndex = 1
        list.selectedIndex = 1
        #expect(
            log.take() == ["strong 1", "strong skipEqual 1", "strong 1"])  // equal skipped once
        #expect(token?.cancel() == true)
        #expect(weakOwner == nil)  // the weak observation never kept it
        list.selectedIndex = 2
        #expect(log.take() == [])
        #expect(optionsToken?.isActive == false)
        #expect(list.$selectedIndex.observerCount == 0)
    }

    @Test("An observation ends when the observed state goes away; the token outlives it")
    func stateGoesAway() {
        weak var weakState: ObservImageState?
        weak var weakCaptured: Tracked?
        var token: RegistrationToken?
        do {
            let state = ObservImageState()
            weakState = state
            let captured = Tracked("captured")
            weakCaptured = captured
            token = state.$url.observe { _ in _ = captured }
            state.url = "x"
        }
        #expect(weakState == nil)
        #expect(weakCaptured == nil)
        #expect(token?.isActive == false)
        #expect(token?.cancel() == false)
    }

    @Test("Layers that observe each other's state by owner leave no cycle")
    func layersAndStateFreed() {
        final class Store: Sendable {
            let state: ObservScreenState
            init(state: ObservScreenState) {
                self.state = state
                state.photoList.$selectedIndex.observe(owner: self) { store, index in
                    store.state.image.photoID = "photo-\(index)"
                }
            }
        }
        weak var weakState: ObservScreenState?
        weak var weakStore: Store?
        do {
            let state = ObservScreenState()
            let store = Store(state: state)
            weakState = state
            weakStore = store
            state.photoList.selectedIndex = 1
            #expect(state.image.photoID == "photo-1")
        }
        #expect(weakStore == nil)
        #expect(weakState == nil)
    }

    @Test("A stream finishes when its property goes away")
    func streamFinishes() async {
        var property: ObservedProperty<Int>? = ObservedProperty(0)
        let stream = property!.values()
        property?.value = 1
        property = nil
        var received: [Int] = []
        for await value in stream { received.append(value) }
        #expect(received == [1])
    }
}
