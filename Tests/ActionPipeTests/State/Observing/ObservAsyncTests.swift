import ActionPipe
import Testing

@Suite("ObservableState: streams and actor delivery")
struct ObservAsyncTests {
    @Test(
        "values() yields every assignment in order, equal values included", .hangBound)
    func streamEveryValue() async {
        let property = ObservedProperty(0)
        let stream = property.values()
        for value in [1, 1, 2, 3] { property.value = value }
        var received: [Int] = []
        for await value in stream {
            received.append(value)
            if received.count == 4 { break }
        }
        #expect(received == [1, 1, 2, 3])
    }

    @Test("values(.initial) starts with the current value; .skipEqual drops repeats")
    func streamOptions() async {
        let property = ObservedProperty(5)
        let stream = property.values([.initial, .skipEqual])
        for value in [5, 6, 6, 7] { property.value = value }
        var received: [Int] = []
        for await value in stream {
            received.append(value)
            if received.count == 3 { break }
        }
        #expect(received == [5, 6, 7])
    }

    @Test("Ending the iteration removes the observer", .hangBound)
    func streamEndRemovesObserver() async {
        let property = ObservedProperty(0)
        do {
            let stream = property.values()
            #expect(property.observerCount == 1)
            property.value = 1
            for await _ in stream { break }
        }
        // The stream (and its iterator) are gone: the observer was cancelled.
        #expect(await observEventually { property.observerCount == 0 })
    }

    @Test("A bounded buffer keeps the newest values")
    func bufferingNewest() async {
        let property = ObservedProperty(0)
        let stream = property.values(buffering: .bufferingNewest(1))
        for value in 1...5 { property.value = value }
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == 5)
    }

    @Test("observe(on: actor) delivers in order, isolated to the actor", .hangBound)
    func actorDelivery() async {
        let recorder = ObservRecorder()
        let property = ObservedProperty(0)
        let token = property.observe(.initial, on: recorder) { recorder, value in
            recorder.append(value)  // synchronous: we are isolated to `recorder`
        }
        for value in 1...50 { property.value = value }
        #expect(await observEventually { await recorder.values.count == 51 })
        #expect(await recorder.values == Array(0...50))
        #expect(token.cancel())
    }

    @Test(
        "observe(on: MainActor.shared) runs the handler on the main actor", .hangBound)
    func mainActorDelivery() async {
        let property = ObservedProperty("")
        let seen = Box<[String]>([])
        property.observe(on: MainActor.shared) { _, value in
            MainActor.assertIsolated()
            seen.set(seen.value + [value])
        }
        property.value = "a"
        property.value = "b"
        #expect(await observEventually { seen.value == ["a", "b"] })
    }

    @Test("An actor observer ends when the actor goes away", .hangBound)
    func actorGoesAway() async {
        let property = ObservedProperty(0)
        let weakRecorder = Box<ObservWeakRecorder?>(nil)
        let token: RegistrationToken
        do {
            let recorder = ObservRecorder()
            weakRecorder.set(ObservWeakRecorder(recorder))
            token = property.observe(on: recorder) { recorder, value in recorder.append(value) }
            property.value = 1
            #expect(await observEventually { await recorder.values == [1] })
        }
        #expect(await observEventually { weakRecorder.value?.recorder == nil })
        property.value = 2  // the delivery task finds the actor gone and ends
        #expect(await observEventually { !token.isActive })
    }
}

/// A weak reference to a recorder that a sendable closure may read.
final class ObservWeakRecorder: Sendable {
    weak let recorder: ObservRecorder?
    init(_ recorder: ObservRecorder) { self.recorder = recorder }
}

@Suite("ObservableState: a stream nobody reads is bounded by default")
struct ObservStreamBoundTests {
    @Test("values() keeps the newest 1,024 unread values by default, in order")
    func defaultBufferIsBounded() async {
        let property = ObservedProperty(0, label: "count")
        let stream = property.values()
        for value in 1...5_000 { property.value = value }
        var received: [Int] = []
        for await value in stream {
            received.append(value)
            if value == 5_000 { break }
        }
        #expect(received == Array(3_977...5_000))
    }
}
