import ActionPipe
import ActionPipeTesting
import Testing

@Suite("Bus delivery")
struct BusDeliveryTests {
    @Test("matching is exact on (type, subtype)")
    func exactMatching() {
        let bus = EventBus(name: "exact")
        let recorder = BusTestRecorder()
        bus.subscribe(busTestLogins) { recorder.record("login \($0.user)") }
        bus.subscribe(busTestLogouts) { recorder.record("logout \($0.user)") }
        bus.subscribe(busTestPings) { _ in recorder.record("ping") }

        #expect(bus.publish(BusTestLogin(subtype: .login, user: "ann")).handledCount == 1)
        #expect(bus.publish(BusTestLogin(subtype: .logout, user: "bob")).handledCount == 1)
        #expect(bus.publish(BusTestPing()).handledCount == 1)
        #expect(recorder.all == ["login ann", "logout bob", "ping"])
    }

    @Test("a subscriber without a subtype does not receive an event that has one")
    func noSubtypeDoesNotMatchSubtype() {
        let bus = EventBus(name: "legacy")
        let recorder = BusTestRecorder()
        bus.subscribe(BusTopic(BusTestLegacy.self, nil)) { _ in recorder.record("nil") }
        bus.subscribe(BusTopic(BusTestLegacy.self, 1)) { _ in recorder.record("1") }

        bus.publish(BusTestLegacy(subtype: 1))
        #expect(recorder.take() == ["1"])
        bus.publish(BusTestLegacy(subtype: nil))
        #expect(recorder.take() == ["nil"])
        bus.publish(BusTestLegacy(subtype: 2))
        #expect(recorder.take() == [])
    }

    @Test("an explicit any-subtype subscription receives every subtype")
    func anySubtype() {
        let bus = EventBus(name: "any")
        let logins = BusRecorder(bus, BusTopic(anySubtypeOf: BusTestLogin.self))
        let legacy = BusRecorder(bus, BusTopic(anySubtypeOf: BusTestLegacy.self))
        bus.publish(BusTestLogin(subtype: .login, user: "ann"))
        bus.publish(BusTestLogin(subtype: .logout, user: "ann"))
        #expect(logins.events.map { "\($0.subtype) \($0.user)" } == ["login ann", "logout ann"])
        #expect(legacy.count == 0)
        bus.publish(BusTestLegacy(subtype: nil))
        bus.publish(BusTestLegacy(subtype: 7))
        #expect(legacy.events.map(\.subtype) == [nil, 7])
        #expect(logins.count == 2)
    }

    @Test("delivery order is subscription order, any-subtype subscriptions included")
    func subscriptionOrder() {
        let bus = EventBus(name: "order")
        let recorder = BusTestRecorder()
        bus.subscribe(BusTopic(anySubtypeOf: BusTestLogin.self)) { _ in recorder.record("any1") }
        bus.subscribe(busTestLogins) { _ in recorder.record("exact2") }
        bus.subscribe(BusTopic(anySubtypeOf: BusTestLogin.self)) { _ in recorder.record("any3") }
        bus.subscribe(busTestLogins) { _ in recorder.record("exact4") }
        bus.subscribe(busTestLogouts) { _ in recorder.record("logout5") }
        for index in 6...20 {
            bus.subscribe(busTestLogins) { _ in recorder.record("exact\(index)") }
        }

        bus.publish(BusTestLogin(subtype: .login, user: "ann"))
        #expect(
            recorder.take() == ["any1", "exact2", "any3", "exact4"] + (6...20).map { "exact\($0)" })
        bus.publish(BusTestLogin(subtype: .logout, user: "ann"))
        #expect(recorder.take() == ["any1", "any3", "logout5"])
    }

    @Test("the same handler subscribed twice runs twice")
    func sameHandlerTwice() {
        let bus = EventBus(name: "twice")
        let recorder = BusTestRecorder()
        let handler: @Sendable (BusTestPing) -> Void = { _ in recorder.record("ran") }
        let first = bus.subscribe(busTestPings, handler)
        let second = bus.subscribe(busTestPings, handler)
        #expect(first != second)
        #expect(bus.publish(BusTestPing()).handledCount == 2)
        #expect(recorder.all == ["ran", "ran"])
    }

    @Test("publishing with no subscribers reaches no one and is not an error")
    func noSubscribers() async {
        let bus = EventBus(name: "empty")
        let result = bus.publish(BusTestPing())
        #expect(result.isEmpty)
        #expect(result == BusPublishResult())
        bus.subscribe(busTestLogins) { _ in }
        #expect(bus.publish(BusTestLogin(subtype: .logout, user: "x")).isEmpty)  // other subtype
        let summary = await bus.publishAndWait(BusTestPing())
        #expect(summary.isEmpty)
        #expect(summary.reports.isEmpty)
    }

    @Test("buses are independent; the default bus is one shared bus")
    func independentBuses() {
        let one = EventBus(name: "one")
        let two = EventBus(name: "two")
        let recorder = BusTestRecorder()
        one.subscribe(busTestPings) { _ in recorder.record("one") }
        two.subscribe(busTestPings) { _ in recorder.record("two") }
        one.publish(BusTestPing())
        #expect(recorder.take() == ["one"])
        two.publish(BusTestPing())
        #expect(recorder.take() == ["two"])
        EventBus.default.publish(BusTestPing())
        #expect(recorder.take() == [])
        #expect(EventBus.default === EventBus.default)
        #expect(EventBus.default.name == "default")
    }

    @Test("a throwing handler is counted and does not stop the others")
    func throwingHandler() {
        let bus = EventBus(name: "throws")
        let recorder = BusTestRecorder()
        bus.subscribe(busTestPings) { _ in throw BusTestError(reason: "no") }
        bus.subscribe(busTestPings) { _ in recorder.record("second") }
        let result = bus.publish(BusTestPing())
        #expect(result == BusPublishResult(handledCount: 1, failedCount: 1, scheduledCount: 0))
        #expect(result.reachedCount == 2)
        #expect(result.description == "handled 1, failed 1, scheduled 0")
        #expect(recorder.all == ["second"])
    }

    @Test("handlers get the subscriber object and the typed payload")
    func subscriberAndPayload() {
        let bus = EventBus(name: "payload")
        let recorder = BusTestRecorder()
        let screen = BusTestSubscriber("screen")
        bus.subscribe(busTestLogins, owner: screen) { screen, event in
            recorder.record("\(screen.name) greets \(event.user)")
        }
        bus.publish(BusTestLogin(subtype: .login, user: "ann"))
        #expect(recorder.all == ["screen greets ann"])
        withExtendedLifetime(screen) {}
    }

    @Test(
        "each kind of subscription, mixed on one topic, gets its own arguments and answers; one cancelled mid-publish is skipped"
    )
    func mixedSubscriptionKinds() {
        let bus = EventBus(name: "mixed")
        let recorder = BusTestRecorder()
        let queue = BusTestManualQueue()
        var screen: BusTestSubscriber? = BusTestSubscriber("screen")
        let doomed = Box<RegistrationToken?>(nil)
        let queries = BusTopic(BusTestQuery.self)
        bus.subscribe(queries, name: "plain") { query in
            recorder.record("plain \(query.question)")
            doomed.value?.cancel()
            return "plain answer"
        }
        bus.subscribe(queries, owner: screen.unsafelyUnwrapped) { screen, query in
            recorder.record("\(screen.name) \(query.question)")
            return "owned answer"
        }
        bus.subscribe(anyOf: [queries.key], name: "union") { union in
            recorder.record("union \((union.last as? BusTestQuery)?.question ?? "?")")
        }
        bus.subscribe(queries, name: "queued", on: queue.executor) { query in
            recorder.record("queued \(query.question)")
            return "queued answer"
        }
        bus.subscribe(queries, name: "failing") { _ in throw BusTestError(reason: "no") }
        doomed.set(
            bus.subscribe(queries, name: "doomed") { _ in
                recorder.record("doomed")
                return "doomed answer"
            })
        bus.subscribe(queries, name: "last") { query in
            recorder.record("last \(query.question)")
            return "last answer"
        }

        // The first handler cancels "doomed" before its turn.
        let first = bus.publish(BusTestQuery(question: "q1"))
        #expect(first == BusPublishResult(handledCount: 4, failedCount: 1, scheduledCount: 1))
        #expect(recorder.take() == ["plain q1", "screen q1", "union q1", "last q1"])
        queue.drain()
        #expect(recorder.take() == ["queued q1"])

        let reports = Box<[BusFeedback<String>]>([])
        let second = bus.publish(BusTestQuery(question: "q2")) { feedback in
            reports.set(reports.value + [feedback])
        }
        #expect(second == BusPublishResult(handledCount: 4, failedCount: 1, scheduledCount: 1))
        queue.drain()
        let all = reports.value
        #expect(
            all.map(\.subscriber) == [
                "plain", "BusTestSubscriber", "union", "failing", "last", "queued",
            ])
        #expect(
            all.map(\.value) == [
                "plain answer", "owned answer", nil, nil, "last answer", "queued answer",
            ])
        #expect(all.map(\.isSuccess) == [true, true, true, false, true, true])
        #expect(all[3].error as? BusTestError == BusTestError(reason: "no"))
        _ = recorder.take()

        // The owner gone, its subscription ends; the token subscriptions go on.
        screen = nil
        let third = bus.publish(BusTestQuery(question: "q3"))
        #expect(third == BusPublishResult(handledCount: 3, failedCount: 1, scheduledCount: 1))
        #expect(recorder.take() == ["plain q3", "union q3", "last q3"])
        queue.drain()
        #expect(recorder.take() == ["queued q3"])
    }

    @Test("topics and keys describe themselves and compare by type and subtype")
    func topicsAndKeys() {
        #expect(busTestLogins.description == "BusTestLogin.login")
        #expect(BusTopic(anySubtypeOf: BusTestLogin.self).key.description == "BusTestLogin.*")
        #expect(busTestPings.key.description == "BusTestPing.-")
        #expect(busTestLogins.key == BusTopic(BusTestLogin.self, .login).key)
        #expect(busTestLogins.key != busTestLogouts.key)
        #expect(busTestLogins.key != BusTopic(anySubtypeOf: BusTestLogin.self).key)
        #expect(BusTopic(anySubtypeOf: BusTestLogin.self).key.isAnySubtype)
        #expect(!busTestLogins.key.isAnySubtype)
        #expect(Set([busTestLogins.key, busTestLogins.key, busTestPings.key]).count == 2)
        #expect(BusTestPing().subtype == .none)
    }
}
