import ActionPipe
import Synchronization
import Testing

@Suite("ObservableState: re-entrancy, cycles and threads")
struct ObservReentrancyTests {
    @Test("An observer may write other properties; the nested set is delivered first")
    func observerWritesOtherProperty() {
        let a = ObservedProperty(0, label: "a")
        let b = ObservedProperty(0, label: "b")
        let log = Log()
        a.observe { b.value = $0 * 10 }
        a.observe { log.append("a2 \($0)") }
        b.observe { log.append("b \($0)") }
        a.value = 1
        #expect(log.take() == ["b 10", "a2 1"])
    }

    @Test("An observer may write its own property, observe, and cancel, without deadlock")
    func observerMutatesDuringDelivery() {
        let property = ObservedProperty(0, label: "self-writing")
        let log = Log()
        let added = Box<RegistrationToken?>(nil)
        let selfToken = Box<RegistrationToken?>(nil)
        selfToken.set(
            property.observe { value in
                log.append("first \(value)")
                if value == 1 {
                    // Registered now, effective from the next assignment.
                    added.set(property.observe { log.append("added \($0)") })
                    property.value = 2  // nested: delivered before "second" sees 1
                }
                if value == 2 { selfToken.value?.cancel() }
            })
        property.observe { log.append("second \($0)") }
        property.value = 1
        #expect(
            log.take() == ["first 1", "first 2", "second 2", "added 2", "second 1"])
        property.value = 3
        #expect(log.take() == ["second 3", "added 3"])
        #expect(added.value?.isActive == true)
    }

    @Test("A cycle of observers writing each other is reported once and broken")
    func cycleDetected() {
        ObservCycleLog.install()
        let a = ObservedProperty(0, label: "cycle.a")
        let b = ObservedProperty(0, label: "cycle.b")
        let deliveries = Counter()
        // Unowned: each observer writes the other property, and strong captures would
        // make the two properties keep each other alive.
        a.observe { [unowned b] in
            deliveries.increment()
            b.value = $0 + 1
        }
        b.observe { [unowned a] in
            deliveries.increment()
            a.value = $0 + 1
        }
        a.value = 1
        let reports =
            ObservCycleLog.reports(for: "cycle.a") + ObservCycleLog.reports(for: "cycle.b")
        #expect(reports.count == 1)
        #expect(reports.first?.depth == ObservationCycleError.depthLimit + 1)
        #expect(deliveries.value == ObservationCycleError.depthLimit)
        #expect(a.value + b.value == ObservationCycleError.depthLimit * 2 + 1)
        #expect(reports.first?.description.contains("a cycle of observers") == true)
        // The depth is per thread and restored: a later, non-cyclic set delivers normally.
        let c = ObservedProperty(0, label: "cycle.c")
        let log = Log()
        c.observe { log.append("\($0)") }
        c.value = 1
        #expect(log.take() == ["1"])
    }

    @Test("A cycle that converges (.skipEqual) is not a cycle")
    func convergingCycle() {
        ObservCycleLog.install()
        let celsius = ObservedProperty(0.0, label: "converge.celsius")
        let fahrenheit = ObservedProperty(32.0, label: "converge.fahrenheit")
        celsius.observe(.skipEqual) { [unowned fahrenheit] in
            fahrenheit.value = $0 * 9 / 5 + 32
        }
        fahrenheit.observe(.skipEqual) { [unowned celsius] in celsius.value = ($0 - 32) * 5 / 9 }
        celsius.value = 100
        #expect(fahrenheit.value == 212)
        fahrenheit.value = 50
        #expect(celsius.value == 10)
        #expect(ObservCycleLog.reports(for: "converge.celsius").isEmpty)
        #expect(ObservCycleLog.reports(for: "converge.fahrenheit").isEmpty)
    }

    @Test("Many threads set, observe and cancel at once", .hangBound)
    func concurrentStress() async {
        let property = ObservedProperty(0, label: "stress")
        let other = ObservedProperty(0, label: "stress.other")
        let delivered = Counter()
        let mirrored = Counter()
        property.observe {
            delivered.increment()
            other.value = $0  // every observer writes another property
        }
        other.observe { _ in mirrored.increment() }
        let finished = await runOnThreads(4) { thread in
            for round in 0..<2_000 {
                if thread == 3 {
                    let token = property.observe { _ in }
                    _ = property.value
                    token.cancel()
                } else {
                    property.value = round
                }
            }
        }
        #expect(finished)
        #expect(delivered.value == 6_000)
        #expect(mirrored.value == 6_000)
        #expect(property.observerCount == 1)
    }

    @Test("Concurrent path replacements leave exactly one inner observer", .hangBound)
    func concurrentPathReplacement() async {
        let screen = ObservScreenState()
        let log = Counter()
        let token = screen.$image.then(\.$url).observe { _ in log.increment() }
        let images = (0..<4).map { _ in ObservImageState() }
        let finished = await runOnThreads(2) { thread in
            for round in 0..<500 {
                screen.image = images[(round + thread) % images.count]
                screen.image.url = "\(round)"
            }
        }
        #expect(finished)
        let current = screen.image
        let observed = images.filter { $0.$url.observerCount > 0 }
        #expect(observed.count == 1)
        #expect(observed.first === current)
        #expect(token.isActive)
    }
}
