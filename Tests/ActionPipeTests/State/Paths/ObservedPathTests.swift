import ActionPipe
import Testing

/// Three levels: root → screen → image.
final class ObservRootState: ObservableState, @unchecked Sendable {
    @Observed("root.screen") var screen = ObservScreenState()
}

@Suite("ObservableState: sub-states and paths")
struct ObservedPathTests {
    @Test("A parent hands each child its sub-state; children observe only theirs")
    func subStatesHandedDown() {
        let screen = ObservScreenState()
        let log = Log()
        let image = screen.image  // what the top-image view receives
        let list = screen.photoList  // what the list view receives
        image.$url.observe { log.append("image url \($0 ?? "nil")") }
        list.$selectedIndex.observe { log.append("list index \($0)") }
        list.selectedIndex = 2
        image.url = "u"
        #expect(log.take() == ["list index 2", "image url u"])
    }

    @Test("A path follows a replaced sub-state (the original keeps the old one)")
    func followsReplacement() {
        let screen = ObservScreenState()
        let log = Log()
        let token = screen.$image.then(\.$url).observe { log.append($0 ?? "nil") }
        screen.image.url = "a.jpg"
        let old = screen.image
        let replacement = ObservImageState()
        replacement.url = "b.jpg"
        screen.image = replacement  // the path's value changed: delivered at once
        old.url = "stale.jpg"  // the old sub-state is no longer observed
        replacement.url = "c.jpg"
        #expect(log.take() == ["a.jpg", "b.jpg", "c.jpg"])
        #expect(old.$url.observerCount == 0)
        #expect(replacement.$url.observerCount == 1)
        #expect(token.isActive)
        #expect(screen.$image.then(\.$url).value == "c.jpg")
    }

    @Test("Observing the sub-state directly does not follow a replacement")
    func directObservationStaysPut() {
        let screen = ObservScreenState()
        let log = Log()
        screen.image.$url.observe { log.append($0 ?? "nil") }
        let old = screen.image
        screen.image = ObservImageState()
        screen.image.url = "new"
        old.url = "old"
        #expect(log.take() == ["old"])  // what a direct observation means: that object
    }

    @Test("Paths nest: root → screen → image → url")
    func nestedPath() {
        let root = ObservRootState()
        let log = Log()
        let path = root.$screen.then(\.$image).then(\.$url)
        path.observe(.initial) { log.append($0 ?? "nil") }
        root.screen.image.url = "1"
        let image = ObservImageState()
        image.url = "2"
        root.screen.image = image
        let screen = ObservScreenState()
        screen.image.url = "3"
        let oldScreen = root.screen
        root.screen = screen
        oldScreen.image.url = "stale"
        screen.image.url = "4"
        #expect(log.take() == ["nil", "1", "2", "3", "4"])
        #expect(path.value == "4")
    }

    @Test("Path options: .skipEqual, by owner, cancel, and the root going away")
    func pathOptionsAndLifetime() {
        let log = Log()
        let screen: ObservScreenState? = ObservScreenState()
        let path = screen!.$image.then(\.$url)
        let token = path.observe(.skipEqual) { log.append($0 ?? "nil") }
        screen?.image.url = nil  // equal to the value at registration
        screen?.image = ObservImageState()  // url nil again: skipped
        screen?.image.url = "x"
        #expect(log.take() == ["x"])

        var owner: ObservOwner? = ObservOwner("view")
        path.observe(owner: owner!) { owner, url in log.append("\(owner.name) \(url ?? "nil")") }
        screen?.image.url = "y"
        owner = nil
        screen?.image.url = "z"
        #expect(log.take() == ["y", "view y", "z"])

        #expect(token.cancel())
        screen?.image.url = "w"
        #expect(log.take() == [])

        // A path value keeps its first property alive (like holding `screen.$image`); an
        // observation through it does not: when the root goes, the observation ends.
        var other: ObservScreenState? = ObservScreenState()
        weak let weakImage = other?.image
        weak let weakOther = other
        let tokenAfter = other!.$image.then(\.$url).observe { log.append($0 ?? "nil") }
        other?.image.url = "v"
        other = nil
        #expect(weakOther == nil)
        #expect(weakImage == nil)
        #expect(!tokenAfter.isActive)
        #expect(log.take() == ["v"])
        _ = screen
    }

    @Test("A path's stream follows replacements")
    func pathStream() async {
        let screen = ObservScreenState()
        let stream = screen.$image.then(\.$url).values(.initial)
        screen.image.url = "a"
        screen.image = ObservImageState()
        screen.image.url = "b"
        var received: [String] = []
        for await url in stream {
            received.append(url ?? "nil")
            if received.count == 4 { break }
        }
        #expect(received == ["nil", "a", "nil", "b"])
    }
}
