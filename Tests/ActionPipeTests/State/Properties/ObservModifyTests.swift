import ActionPipe
import Foundation
import Testing

@Suite("ObservableState: modify (atomic read-modify-write)")
struct ObservModifyTests {
    @Test("modify changes the value in place and delivers the new value once")
    func modifyDelivers() {
        let count = ObservedProperty(1, label: "count")
        let received = Log()
        let token = count.observe { value in received.append("\(value)") }
        let returned = count.modify { value -> String in
            value += 41
            return "was \(value - 41)"
        }
        #expect(returned == "was 1")
        #expect(count.value == 42)
        #expect(received.all == ["42"])
        token.cancel()
    }

    @Test("+= through modify from 4 threads loses no update")
    func noLostUpdates() async {
        let count = ObservedProperty(0, label: "count")
        let threads = 4
        let perThread = 20_000
        await concurrentPerform(iterations: threads) { _ in
            for _ in 0..<perThread { count.modify { $0 += 1 } }
        }
        #expect(count.value == threads * perThread)
    }

    @Test("modify with observers racing: every store is delivered, the last value wins")
    func modifyWithObserversRacing() async {
        let count = ObservedProperty(0, label: "count")
        let deliveries = Counter()
        let token = count.observe { _ in deliveries.increment() }
        await concurrentPerform(iterations: 4) { _ in
            for _ in 0..<2_000 { count.modify { $0 += 1 } }
        }
        #expect(count.value == 8_000)
        #expect(deliveries.value == 8_000)
        token.cancel()
    }

    @Test("a throwing body changes nothing and delivers nothing")
    func throwingBody() {
        struct Refused: Error {}
        let count = ObservedProperty(7, label: "count")
        let deliveries = Counter()
        let token = count.observe { _ in deliveries.increment() }
        #expect(throws: Refused.self) {
            try count.modify { value throws(Refused) in
                value = 100
                throw Refused()
            }
        }
        #expect(count.value == 7)
        #expect(deliveries.value == 0)
        token.cancel()
    }

    @Test("the body runs with no lock held: it may read and observe the same property")
    func bodyMayReenter() {
        let count = ObservedProperty(1, label: "count")
        var seen = 0
        count.modify { value in
            seen = count.value  // a read under the property's lock would deadlock here
            _ = count.observe { _ in }
            value += 1
        }
        #expect(seen == 1)
        #expect(count.value == 2)
        #expect(count.observerCount == 1)
    }

    @Test("a store made while the body runs sends the body round again, on the newer value")
    func retriesOnInterveningStore() {
        let count = ObservedProperty(0, label: "count")
        var runs: [Int] = []
        count.modify { value in
            runs.append(value)
            if runs.count == 1 { count.value = 10 }  // another store comes first
            value += 1
        }
        #expect(runs == [0, 10])
        #expect(count.value == 11)
    }

    @Test("the old value is released after the store, not under the lock")
    func oldValueReleasedOutsideLock() {
        final class Reentering: Sendable {
            let property: ObservedProperty<Reentering?>
            init(_ property: ObservedProperty<Reentering?>) { self.property = property }
            deinit { _ = property.observerCount }  // takes the property's lock
        }
        let property = ObservedProperty<Reentering?>(nil, label: "holder")
        property.value = Reentering(property)
        property.modify { $0 = nil }  // releases the old value: its deinit locks again
        #expect(property.value == nil)
    }
}
