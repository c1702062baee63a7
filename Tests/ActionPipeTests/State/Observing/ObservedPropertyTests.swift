import ActionPipe
import ActionPipeTesting
import Testing

@Suite("ObservableState: observing a property")
struct ObservedPropertyTests {
    @Test("An observer gets the new value synchronously, after it is stored")
    func deliversAfterStore() {
        let image = ObservImageState()
        let log = Log()
        image.$url.observe { [unowned image] url in
            // After the change: the property already holds the delivered value.
            log.append("\(url ?? "nil") stored \(image.url ?? "nil")")
        }
        image.url = "a.jpg"
        #expect(log.take() == ["a.jpg stored a.jpg"])  // before `url =` returned
    }

    @Test("Every assignment is delivered, equal values included")
    func equalValuesDelivered() {
        let list = ObservPhotoListState()
        let seen = ObservationRecorder(list.$selectedIndex)
        list.selectedIndex = 2
        list.selectedIndex = 2
        list.selectedIndex = 3
        #expect(seen.values == [2, 2, 3])
    }

    @Test(
        "Observers run in registration order when the first is cancelled before later ones, and when the only one is replaced"
    )
    func registrationOrderAcrossCancels() {
        let property = ObservedProperty(0)
        let log = Log()
        func observe(_ name: String) -> RegistrationToken {
            property.observe { value in log.append("\(name)\(value)") }
        }
        let a = observe("a")
        let b = observe("b")
        let c = observe("c")
        a.cancel()
        let d = observe("d")
        property.value = 1
        #expect(log.take() == ["b1", "c1", "d1"])
        b.cancel()
        c.cancel()
        let e = observe("e")
        property.value = 2
        #expect(log.take() == ["d2", "e2"])
        d.cancel()
        e.cancel()
        #expect(!d.isActive && !e.isActive)
        let f = observe("f")
        let g = observe("g")
        property.value = 3
        #expect(log.take() == ["f3", "g3"])
        f.cancel()
        property.value = 4
        #expect(log.take() == ["g4"])
        g.cancel()
        property.value = 5
        #expect(log.take().isEmpty)
    }

    @Test("No delivery before the first assignment unless .initial")
    func initialOnRequest() {
        let list = ObservPhotoListState()
        list.selectedIndex = 4
        let log = Log()
        list.$selectedIndex.observe { log.append("plain \($0)") }
        list.$selectedIndex.observe(.initial) { log.append("initial \($0)") }
        #expect(log.take() == ["initial 4"])
        list.selectedIndex = 5
        #expect(log.take() == ["plain 5", "initial 5"])
    }

    @Test(".skipEqual skips a value equal to the last one this observer saw")
    func skipEqual() {
        let list = ObservPhotoListState()
        list.selectedIndex = 1
        let seen = ObservationRecorder(list.$selectedIndex, .skipEqual)
        list.selectedIndex = 1  // equal to the value at registration
        list.selectedIndex = 2
        list.selectedIndex = 2
        list.selectedIndex = 1
        #expect(seen.values == [2, 1])
    }

    @Test(".initial with .skipEqual delivers the current value, then only changes")
    func initialAndSkipEqual() {
        let image = ObservImageState()
        let seen = ObservationRecorder(image.$url, [.initial, .skipEqual])
        image.url = nil
        image.url = "a"
        image.url = "a"
        image.url = nil
        #expect(seen.values == [nil, "a", nil])
    }

    @Test(".skipEqual on a type that is not Equatable delivers every value (documented)")
    func skipEqualNotEquatable() {
        let property = ObservedProperty(ObservOpaque(number: 1))
        let seen = ObservationRecorder(property, .skipEqual)
        property.value = ObservOpaque(number: 1)
        property.value = ObservOpaque(number: 1)
        #expect(seen.values.map(\.number) == [1, 1])
    }

    @Test("Observers run in registration order")
    func registrationOrder() {
        let property = ObservedProperty(0)
        let log = Log()
        for name in ["first", "second", "third"] {
            property.observe { log.append("\(name) \($0)") }
        }
        property.value = 7
        #expect(log.take() == ["first 7", "second 7", "third 7"])
        #expect(property.observerCount == 3)
        #expect(property.isObserved)
    }

    @Test("A let ObservedProperty and the key path form behave like @Observed")
    func letPropertyAndKeyPath() {
        final class CounterState: ObservableState {
            let count = ObservedProperty(0, label: "count")
        }
        let counter = CounterState()
        let log = Log()
        counter.observe(\.count, .initial) { log.append("\($0)") }
        counter.count.value = 1
        counter.count.set(1)
        #expect(log.take() == ["0", "1", "1"])

        let list = ObservPhotoListState()
        list.observe(\.$selectedIndex) { log.append("kp \($0)") }
        list.selectedIndex = 9
        #expect(log.take() == ["kp 9"])
    }

    @Test("Labels and descriptions name the property")
    func labels() {
        let list = ObservPhotoListState()
        list.selectedIndex = 3
        #expect(list.$selectedIndex.label == "list.selectedIndex")
        #expect(list.$selectedIndex.description == "list.selectedIndex = 3")
        #expect(ObservedProperty(1).label == "ObservedProperty<Int>")
    }

    @Test("Tokens are unique and compare by identity")
    func tokens() {
        let property = ObservedProperty(0)
        let a = property.observe { _ in }
        let b = property.observe { _ in }
        #expect(a != b)
        #expect(Set([a, b, a]).count == 2)
        #expect(a.description.hasPrefix("observation#"))
    }
}
