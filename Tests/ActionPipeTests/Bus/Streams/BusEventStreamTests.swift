import ActionPipe
import Testing

@Suite("Bus: events(for:) as an AsyncStream", .hangBound)
struct BusEventStreamTests {
    private let logins = BusTopic(BusTestLogin.self, .login)

    @Test("yields the topic's events in publish order; others are not included")
    func inOrder() async {
        let bus = EventBus(name: "streams")
        let stream = bus.events(for: logins)
        for user in ["a", "b", "c"] { bus.publish(BusTestLogin(subtype: .login, user: user)) }
        bus.publish(BusTestLogin(subtype: .logout, user: "x"))
        var users: [String] = []
        for await login in stream {
            users.append(login.user)
            if users.count == 3 { break }
        }
        #expect(users == ["a", "b", "c"])
    }

    @Test("a loop over events(for:) that ends drops the stream, which cancels the subscription")
    func endingCancels() async {
        let bus = EventBus(name: "streams")
        let task = Task {
            for await _ in bus.events(for: logins) { break }
        }
        while bus.subscriptionCount == 0 { await Task.yield() }
        bus.publish(BusTestLogin(subtype: .login, user: "a"))
        await task.value
        #expect(bus.subscriptionCount == 0)
    }

    @Test("cancelling the reading task cancels the subscription")
    func cancellingTheTask() async {
        let bus = EventBus(name: "streams")
        let stream = bus.events(for: logins)
        let task = Task { for await _ in stream {} }
        #expect(bus.subscriptionCount == 1)
        task.cancel()
        await task.value
        #expect(bus.subscriptionCount == 0)
    }

    @Test("the stream finishes when the bus goes away")
    func finishesWithTheBus() async {
        var bus: EventBus? = EventBus(name: "streams")
        let stream = bus!.events(for: logins)
        bus!.publish(BusTestLogin(subtype: .login, user: "a"))
        weak let weakBus = bus
        bus = nil
        #expect(weakBus == nil)
        var users: [String] = []
        for await login in stream { users.append(login.user) }  // ends: the bus is gone
        #expect(users == ["a"])
    }

    @Test("a stream nobody reads keeps at most its buffer (newest 1,024 by default)")
    func boundedByDefault() async {
        let bus = EventBus(name: "streams")
        let stream = bus.events(for: logins)
        for index in 0..<3_000 { bus.publish(BusTestLogin(subtype: .login, user: "\(index)")) }
        var users: [String] = []
        for await login in stream {
            users.append(login.user)
            if login.user == "2999" { break }
        }
        #expect(users.count == 1_024)
        #expect(users.first == "1976")
    }

    @Test("a sticky event is the stream's first element")
    func stickyFirst() async {
        let bus = EventBus(name: "streams")
        bus.publishSticky(BusTestLogin(subtype: .login, user: "ada"))
        let stream = bus.events(for: logins)
        bus.publish(BusTestLogin(subtype: .login, user: "bob"))
        var users: [String] = []
        for await login in stream {
            users.append(login.user)
            if users.count == 2 { break }
        }
        #expect(users == ["ada", "bob"])
    }
}
