import ActionPipe
import Testing

/// An event type per nesting depth: `BusNested<Int>`, `BusNested<BusNested<Int>>`, ...
struct BusNested<Inner>: BusEvent {
    let depth: Int
}

/// An event with many subtypes.
struct BusNumbered: BusEvent {
    let subtype: Int
}

/// The tables a publish reads: the event types of a bus (scanned when few, hashed when
/// many) and the subtypes of one type (likewise).
@Suite("Event bus: routing with many event types and many subtypes")
struct BusRouteTableTests {
    /// Subscribes to `BusNested<Inner>` and the `depth - 1` types nested inside it.
    private func subscribeNested<Inner>(
        _ bus: EventBus, depth: Int, _: Inner.Type, _ log: Log
    ) -> [RegistrationToken] {
        let token = bus.subscribe(BusTopic(BusNested<Inner>.self)) { event in
            log.append("type \(event.depth)")
        }
        guard depth > 1 else { return [token] }
        return [token] + subscribeNested(bus, depth: depth - 1, BusNested<Inner>.self, log)
    }

    /// Publishes one event of `BusNested<Inner>` and of the `depth - 1` types inside it.
    private func publishNested<Inner>(_ bus: EventBus, depth: Int, _: Inner.Type) -> Int {
        let handled = bus.publish(BusNested<Inner>(depth: depth)).handledCount
        guard depth > 1 else { return handled }
        return handled + publishNested(bus, depth: depth - 1, BusNested<Inner>.self)
    }

    @Test("Twenty event types on one bus: each publish reaches its own type's subscriber only")
    func manyEventTypes() {
        let bus = EventBus(name: "types")
        let log = Log()
        let tokens = subscribeNested(bus, depth: 20, Int.self, log)
        #expect(tokens.count == 20)
        #expect(publishNested(bus, depth: 20, Int.self) == 20)
        #expect(log.take() == (1...20).reversed().map { "type \($0)" })

        // Cancelling half the types leaves the others routed.
        for token in tokens.enumerated() where token.offset.isMultiple(of: 2) {
            token.element.cancel()
        }
        #expect(publishNested(bus, depth: 20, Int.self) == 10)
        #expect(log.take().count == 10)
    }

    @Test("Twelve subtypes and an any-subtype subscription: exact lists stay in id order")
    func manySubtypes() {
        let bus = EventBus(name: "subtypes")
        let log = Log()
        var tokens: [RegistrationToken] = []
        for subtype in 0..<6 {
            tokens.append(
                bus.subscribe(BusTopic(BusNumbered.self, subtype)) { _ in
                    log.append("exact \(subtype)")
                })
        }
        tokens.append(
            bus.subscribe(BusTopic(anySubtypeOf: BusNumbered.self)) { event in
                log.append("any \(event.subtype)")
            })
        for subtype in 6..<12 {
            tokens.append(
                bus.subscribe(BusTopic(BusNumbered.self, subtype)) { _ in
                    log.append("exact \(subtype)")
                })
        }
        for subtype in 0..<13 { bus.publish(BusNumbered(subtype: subtype)) }
        var expected: [String] = []
        for subtype in 0..<12 { expected += ["exact \(subtype)", "any \(subtype)"] }
        // Subtypes 6...11 subscribed after the any-subtype one, so it comes first for them.
        for subtype in 6..<12 {
            let at = expected.firstIndex(of: "exact \(subtype)")!
            expected.swapAt(at, at + 1)
        }
        expected.append("any 12")  // no exact subscription: the any-subtype list alone
        #expect(log.take() == expected)
        #expect(tokens.count == 13)
    }
}
