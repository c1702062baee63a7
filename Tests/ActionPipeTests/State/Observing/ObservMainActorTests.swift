import ActionPipe
import Dispatch
import Synchronization
import Testing

@testable import ActionPipeShared

/// Observing state on the main actor (`observe(on: .mainActor)`): handlers that touch a
/// `@MainActor` view model with no `MainActor.assumeIsolated`, in write order across
/// properties, and nothing delivered after a cancel on the main actor.
@Suite("Main actor: observing state")
struct ObservMainActorTests {
    /// An album screen's state: three properties written by a loader in the background.
    final class AlbumsState: ObservableState, @unchecked Sendable {
        @Observed("albums.isLoading") var isLoading = false
        @Observed("albums.albums") var albums: [String] = []
        @Observed("albums.error") var error: String? = nil
    }

    /// What a screen shows: main-actor state, mutated by the handlers directly.
    @MainActor
    final class ViewModel {
        var log: [String] = []
        var count = 0
        var tokens: [RegistrationToken] = []

        func bind(to state: AlbumsState) {
            tokens = [
                state.$isLoading.observe(on: .mainActor) { isLoading in
                    self.log.append("isLoading \(isLoading)")
                },
                state.$albums.observe(on: .mainActor) { albums in
                    self.log.append("albums \(albums.count)")
                },
                state.$error.observe(on: .mainActor) { error in
                    self.log.append("error \(error ?? "nil")")
                },
            ]
        }
    }

    /// A main-actor owner whose end the owner tests watch; it reports to `seen`, which
    /// outlives it.
    @MainActor
    final class OwnerViewModel {
        let seen: ViewModel
        init(seen: ViewModel) { self.seen = seen }
    }

    @Test("deliveries of different properties keep the write order (1,000 runs)")
    @MainActor
    func crossPropertyOrder() async {
        let expected = ["isLoading true", "albums 1", "albums 2", "albums 3", "isLoading false"]
        var inOrder = 0
        for _ in 0..<1_000 {
            let state = AlbumsState()
            let model = ViewModel()
            model.bind(to: state)
            await Task.detached {
                state.isLoading = true
                state.albums = ["a"]
                state.albums = ["a", "b"]
                state.albums = ["a", "b", "c"]
                state.isLoading = false
            }.value
            await _MainActorQueue.shared.idle()
            if model.log == expected { inOrder += 1 }
            for token in model.tokens { token.cancel() }
        }
        #expect(inOrder == 1_000)
    }

    @Test("a background write reaches the handler on the main actor")
    @MainActor
    func backgroundWriteOnMainActor() async {
        let state = AlbumsState()
        let model = ViewModel()
        let token = state.$albums.observe(on: .mainActor) { albums in
            MainActor.assertIsolated()
            dispatchPrecondition(condition: .onQueue(.main))
            model.log.append("albums \(albums.count)")
        }
        await Task.detached { state.albums = ["a", "b"] }.value
        await _MainActorQueue.shared.idle()
        #expect(model.log == ["albums 2"])
        token.cancel()
    }

    /// Other suites run beside this one and may use the queue at any moment, so one try
    /// can find it busy (then the delivery is queued, which is right). The test retries
    /// until it sets with the queue idle, and always checks the delivery after `idle()`.
    @Test("a write on the main actor, with nothing queued, delivers before set returns")
    @MainActor
    func mainActorWriteDeliversAtOnce() async {
        let state = AlbumsState()
        let model = ViewModel()
        let token = state.$albums.observe(on: .mainActor) { albums in
            model.log.append("albums \(albums.count)")
        }
        var deliveredAtOnce = false
        for attempt in 1...200 {
            await _MainActorQueue.shared.idle()
            model.log = []
            state.albums = Array(repeating: "x", count: attempt)
            if model.log == ["albums \(attempt)"] {
                deliveredAtOnce = true
                break
            }
            await _MainActorQueue.shared.idle()
            #expect(model.log == ["albums \(attempt)"])
        }
        #expect(deliveredAtOnce)
        token.cancel()
    }

    @Test("after cancel() on the main actor, no queued delivery reaches the handler")
    @MainActor
    func cancelDropsQueued() async {
        for _ in 0..<20 {
            let state = AlbumsState()
            let model = ViewModel()
            let token = state.$albums.observe(on: .mainActor) { _ in model.count += 1 }
            let writers = (0..<2).map { writer in
                Task.detached {
                    for value in 0..<2_000 { state.albums = ["\(writer)-\(value)"] }
                }
            }
            // Let some deliveries through, then cancel while writes are still queued.
            while model.count == 0 { await Task.yield() }
            token.cancel()
            let atCancel = model.count
            for writer in writers { await writer.value }
            await _MainActorQueue.shared.idle()
            #expect(model.count == atCancel)
            #expect(!token.isActive)
        }
    }

    @Test(".initial delivers the current value on the main actor, before later writes")
    @MainActor
    func initialFirst() async {
        let state = AlbumsState()
        state.albums = ["a"]
        let model = ViewModel()
        let token = state.$albums.observe(.initial, on: .mainActor) { albums in
            model.log.append("albums \(albums.count)")
        }
        await Task.detached {
            state.albums = ["a", "b"]
            state.albums = ["a", "b", "c"]
        }.value
        await _MainActorQueue.shared.idle()
        #expect(model.log == ["albums 1", "albums 2", "albums 3"])
        token.cancel()
    }

    @Test(".skipEqual skips a value equal to the last one")
    @MainActor
    func skipEqual() async {
        let state = AlbumsState()
        let model = ViewModel()
        let token = state.$isLoading.observe(.skipEqual, on: .mainActor) { isLoading in
            model.log.append("isLoading \(isLoading)")
        }
        await Task.detached {
            for value in [false, true, true, false, false] { state.isLoading = value }
        }.value
        await _MainActorQueue.shared.idle()
        #expect(model.log == ["isLoading true", "isLoading false"])
        token.cancel()
    }

    @Test("an owner-bound observation ends with its owner, which it does not keep")
    @MainActor
    func ownerEnds() async {
        let state = AlbumsState()
        let seen = ViewModel()
        var owner: OwnerViewModel? = OwnerViewModel(seen: seen)
        weak let weakOwner = owner
        let token = state.$albums.observe(owner: owner!, on: .mainActor) { owner, albums in
            owner.seen.log.append("albums \(albums.count)")
        }
        await Task.detached { state.albums = ["a"] }.value
        await _MainActorQueue.shared.idle()
        #expect(seen.log == ["albums 1"])

        owner = nil
        #expect(weakOwner == nil)  // the observation did not keep it: its deinit ran
        await Task.detached { state.albums = ["a", "b"] }.value
        state.albums = ["a", "b", "c"]
        await _MainActorQueue.shared.idle()
        #expect(seen.log == ["albums 1"])
        #expect(!token.isActive)  // removed at the first write after the owner went
    }

    @Test("once its owner is released, no queued delivery reaches the handler")
    @MainActor
    func ownerReleasedWhileQueued() async {
        for _ in 0..<20 {
            let state = AlbumsState()
            let seen = ViewModel()
            var owner: OwnerViewModel? = OwnerViewModel(seen: seen)
            let token = state.$albums.observe(owner: owner!, on: .mainActor) { owner, _ in
                owner.seen.count += 1
            }
            let writers = (0..<2).map { writer in
                Task.detached {
                    for value in 0..<2_000 { state.albums = ["\(writer)-\(value)"] }
                }
            }
            while seen.count == 0 { await Task.yield() }
            owner = nil  // while the writers may still run, with writes queued
            let atRelease = seen.count
            for writer in writers { await writer.value }
            await _MainActorQueue.shared.idle()
            #expect(seen.count == atRelease)
            // Removed by the first delivery after the owner went (the writers may all have
            // been delivered before it did).
            state.albums = []
            await _MainActorQueue.shared.idle()
            #expect(seen.count == atRelease)
            #expect(!token.isActive)
        }
    }

    @Test("a path observed on the main actor follows its sub-state, in write order")
    @MainActor
    func pathOnMainActor() async {
        let screen = ObservScreenState()
        let model = ViewModel()
        let token = screen.$image.then(\.$url).observe(.initial, on: .mainActor) { url in
            model.log.append(url ?? "nil")
        }
        await Task.detached {
            screen.image.url = "a.jpg"
            let next = ObservImageState()
            next.url = "b.jpg"
            screen.image = next
            screen.image.url = "c.jpg"
        }.value
        await _MainActorQueue.shared.idle()
        #expect(model.log == ["nil", "a.jpg", "b.jpg", "c.jpg"])
        token.cancel()
    }

    @Test("a path's owner-bound observation ends with its owner")
    @MainActor
    func pathOwnerEnds() async {
        let screen = ObservScreenState()
        let seen = ViewModel()
        var owner: OwnerViewModel? = OwnerViewModel(seen: seen)
        weak let weakOwner = owner
        let path = screen.$image.then(\.$url)
        let token = path.observe(owner: owner!, on: .mainActor) { owner, url in
            owner.seen.log.append(url ?? "nil")
        }
        await Task.detached { screen.image.url = "a.jpg" }.value
        await _MainActorQueue.shared.idle()
        owner = nil
        #expect(weakOwner == nil)
        await Task.detached { screen.image.url = "b.jpg" }.value
        await _MainActorQueue.shared.idle()
        #expect(seen.log == ["a.jpg"])
        #expect(!token.isActive)
    }
}
