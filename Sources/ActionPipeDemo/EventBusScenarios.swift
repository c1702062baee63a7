import ActionPipe
import Dispatch

// The event bus scenarios (seed 004, the DWEventBus article): the login/logout flow of the
// article's app, union events, feedback summaries, a handler that publishes on its own bus
// (the original deadlocks), and handlers that run elsewhere.

/// The scenarios of the event bus (seed 004, DWEventBus).
let eventBusScenarios: [Scenario] = [
    Scenario(
        number: 20, name: "bus-login",
        title: "Event bus: login/logout, a screen released mid-way, feedback and a union",
        original: "[bus subscribeEvent:login target:self]; [bus publishEvent:login]",
        library: "DWEventBus",
        run: busLoginFlow),
    Scenario(
        number: 21, name: "bus-union",
        title: "Event bus: a union fires once all its events arrived, then starts over",
        original: "union events (subscribe to several events, fire when all arrived)",
        library: "DWEventBus",
        run: busUnion),
    Scenario(
        number: 22, name: "bus-feedback",
        title: "Event bus: the publisher awaits every subscriber and gets a summary",
        original: "a subscriber tells the publisher it has finished handling the event",
        library: "DWEventBus",
        run: busFeedback),
    Scenario(
        number: 23, name: "bus-reentrant",
        title: "Fixed hazard: a handler publishes and unsubscribes on its own bus",
        original: "receiveEvent: holds a semaphore while delivering, so this deadlocks there",
        library: "DWEventBus",
        run: busReentrant),
    Scenario(
        number: 24, name: "bus-executors",
        title:
            "Event bus: where handlers run (main actor, a serial queue) and where publishing happens",
        original: "specify the queues of publishing and of subscriber callbacks",
        library: "DWEventBus",
        run: busExecutors),
]

// MARK: - Events of the demo app

/// The session business area: one strong type, two subtypes.
struct BusDemoSession: BusEvent {
    enum Kind: Hashable, Sendable { case login, logout }
    typealias Feedback = String
    let subtype: Kind
    let user: String
}

/// The profile was loaded (no subtype).
struct BusDemoProfile: BusEvent {
    let name: String
}

/// A screen of the demo app; the bus holds it weakly.
final class BusDemoScreen: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
    func show(_ text: String) { say("\(name) shows \"\(text)\"") }
}

private let busDemoLogins = BusTopic(BusDemoSession.self, .login)
private let busDemoLogouts = BusTopic(BusDemoSession.self, .logout)

// MARK: - 20. login/logout

private func busLoginFlow() async {
    let bus = EventBus(name: "app")
    var screenA: BusDemoScreen? = BusDemoScreen("A")
    let screenB = BusDemoScreen("B")
    let cache = BusDemoScreen("cache")
    for screen in [screenA!, screenB] {
        bus.subscribe(busDemoLogins, owner: screen, name: screen.name) { screen, event in
            screen.show("welcome \(event.user)")
            return "\(screen.name) greeted"
        }
    }
    bus.subscribe(BusTopic(anySubtypeOf: BusDemoSession.self), owner: cache, name: "cache") {
        cache, event in
        say("cache sees \(event.subtype) of \(event.user)")
        return event.subtype == .logout ? "cache cleared" : "cache warmed"
    }
    bus.subscribe(
        allOf: [busDemoLogins.key, BusTopic(BusDemoProfile.self).key], owner: screenB,
        name: "B's dashboard"
    ) { screen, union in
        let user = union.event(BusDemoSession.self)?.user ?? "?"
        let profile = union.event(BusDemoProfile.self)?.name ?? "?"
        screen.show("dashboard for \(user) (\(profile))")
    }
    say("subscriptions: A and B to session.login, cache to every session event,")
    say("B's dashboard to the union login + profile; \(bus.subscriptionCount) in all")

    say("t=3 s: publish login(ann); the publisher gets each subscriber's feedback")
    bus.publish(BusDemoSession(subtype: .login, user: "ann")) { feedback in
        say("  feedback: \(feedback)")
    }
    say("t=3 s: publish profile; it completes B's union")
    bus.publish(BusDemoProfile(name: "Ann A."))

    say("A is released (its screen closed); nobody unsubscribes it")
    screenA = nil
    say("t=4 s: publish login(bob): A receives nothing")
    let result = bus.publish(BusDemoSession(subtype: .login, user: "bob"))
    say("  \(result); subscriptions left: \(bus.subscriptionCount)")

    say("t=5 s: publish logout(bob) and await everyone")
    let summary = await bus.publishAndWait(BusDemoSession(subtype: .logout, user: "bob"))
    say("  summary: \(summary), answers: \(summary.values)")
    withExtendedLifetime((screenB, cache)) {}
}

// MARK: - 21. union

private func busUnion() {
    let bus = EventBus(name: "union")
    let screen = BusDemoScreen("dashboard")
    bus.subscribe(allOf: [busDemoLogins.key, BusTopic(BusDemoProfile.self).key], owner: screen) {
        screen, union in
        screen.show("fired by \(union.lastKey), events: \(union)")
    }
    bus.subscribe(anyOf: [busDemoLogins.key, busDemoLogouts.key], owner: screen, name: "log") {
        _, union in say("anyOf: \(union.lastKey)")
    }
    say("login(ann): the union waits for the profile")
    bus.publish(BusDemoSession(subtype: .login, user: "ann"))
    say("login(ann) again: a duplicate does not count twice")
    bus.publish(BusDemoSession(subtype: .login, user: "ann"))
    say("profile: now complete")
    bus.publish(BusDemoProfile(name: "Ann A."))
    say("profile again: the union started over, so it waits for a login")
    bus.publish(BusDemoProfile(name: "Ann B."))
    say("removing session.login for the dashboard removes both subscriptions that contain it")
    say("  removed: \(bus.unsubscribe(screen, from: busDemoLogins))")
    let result = bus.publish(BusDemoSession(subtype: .logout, user: "ann"))
    say("logout(ann): \(result)")
}

// MARK: - 22. feedback

private func busFeedback() async {
    struct Offline: Error, CustomStringConvertible {
        var description: String { "the audit server is offline; retry later" }
    }
    let bus = EventBus(name: "feedback")
    let cache = BusDemoScreen("cache")
    let audit = BusDemoScreen("audit")
    bus.subscribe(busDemoLogouts, owner: cache, name: "cache") { _, event in
        "dropped \(event.user)'s cache"
    }
    bus.subscribe(busDemoLogouts, owner: audit, name: "audit") { _, _ in throw Offline() }
    bus.subscribe(busDemoLogouts, name: "uploader", on: .task) { event in
        "uploaded \(event.user)'s drafts"
    }
    say("publish logout(ann) and wait for all three (one runs on its own task)")
    let summary = await bus.publishAndWait(BusDemoSession(subtype: .logout, user: "ann"))
    for report in summary.reports {
        say("  \(report)")
    }
    say("summary: \(summary)")
}

// MARK: - 23. re-entrant use

private func busReentrant() {
    let bus = EventBus(name: "reentrant")
    let screen = BusDemoScreen("screen")
    bus.subscribe(busDemoLogouts, owner: screen) { screen, event in
        say("screen: logout(\(event.user)) → publishes login(guest) on the same bus")
        bus.publish(BusDemoSession(subtype: .login, user: "guest"))
        say("screen: back from the nested publish; unsubscribes itself")
        bus.unsubscribeAll(screen)
        return "screen done"
    }
    bus.subscribe(busDemoLogins, owner: screen) { screen, event in
        screen.show("welcome \(event.user)")
        return "greeted"
    }
    say("publish logout(ann)")
    say("  \(bus.publish(BusDemoSession(subtype: .logout, user: "ann")))")
    say("publish logout(bob): the screen is no longer subscribed")
    say("  \(bus.publish(BusDemoSession(subtype: .logout, user: "bob")))")
}

// MARK: - 24. executors

private func busExecutors() async {
    let bus = EventBus(name: "executors")
    let screen = BusDemoScreen("screen")
    let queue = DispatchQueue(label: "bus-demo-log")
    bus.subscribe(busDemoLogins, name: "inline") { event in
        say("inline, during the publish: \(event.user)")
        return "inline"
    }
    bus.subscribe(busDemoLogins, on: MainActor.shared) { [screen] _, event in
        screen.show("on the main actor: welcome \(event.user)")  // isolated to it
        return "shown"
    }
    bus.subscribe(busDemoLogins, name: "log", on: .custom { queue.async(execute: $0) }) { event in
        say("on the serial queue: logged \(event.user)")
        return "logged"
    }
    say("publish login(ann): the inline handler runs now, the others are handed over")
    say("  \(bus.publish(BusDemoSession(subtype: .login, user: "ann")))")
    queue.sync {}  // let the queue's handler print before going on
    await MainActor.run {}  // and the main actor's
    say("publish login(bob) from the serial queue itself (publish(_:on:))")
    bus.publish(
        BusDemoSession(subtype: .login, user: "bob"), on: .custom { queue.async(execute: $0) })
    queue.sync {}
    await MainActor.run {}
    say("publishAndWait login(cid): waits for the main actor and the queue too")
    let summary = await bus.publishAndWait(BusDemoSession(subtype: .login, user: "cid"))
    say("  \(summary)")
}
