import ActionPipe
import Testing

/// The README's `testObject`: a delegate whose method answers the action.
final class TestRobot: Sendable {
    let name: String
    let log: Log

    init(_ name: String, log: Log) {
        self.name = name
        self.log = log
    }

    func someFunc(_ number: Int, _ object: Any?) -> Any? {
        log.append("\(name) , \(number), \(show(object))")
        return Marker("object of \(name)")
    }

    func ping(_ value: Int) -> Int? {
        log.append("\(name) ping \(value)")
        return value + 1
    }
}

/// An object that offers several actions at once.
final class TestVacuum: ActionResponder {
    let log: Log

    init(log: Log) { self.log = log }

    func someFunc(_ number: Int, _ object: Any?) -> Any? {
        log.append("vacuum someFunc \(number)")
        return "vacuumed \(number)"
    }

    func reset() { log.append("vacuum reset") }

    func ping(_ value: Int) -> Int? {
        log.append("vacuum ping \(value)")
        return value * 10
    }

    static func registerActions(in registrar: inout ActionRegistrar<TestVacuum>) {
        registrar.add(\.tSomeFunc, method: TestVacuum.someFunc)
        registrar.add(\.tSomeFunc3) { vacuum, _ in
            vacuum.reset()
            return ()
        }
        registrar.add(\.tPing, where: { $0.state(.start) }, method: TestVacuum.ping)
    }
}

@Suite("Targets: delegates, method references, responders")
struct TargetTests {
    @Test("README §6: a delegate's method answers the action")
    func delegateMethodAnswers() {
        let log = Log()
        let pipe1 = ActionPipe(name: "pipe1")
        let delegate = TestRobot("delegate", log: log)
        pipe1.on(\.tSomeFunc).handle(owner: delegate, method: TestRobot.someFunc)

        let result = pipe1.tSomeFunc(999, "in instance object")

        #expect((result as? Marker)?.description == "object of delegate")
        #expect(log.all == ["delegate , 999, in instance object"])
    }

    @Test("A closure with a target receives the target and the process")
    func closureWithTarget() throws {
        let log = Log()
        let pipes = try makeChain("p1", "p2")
        let robot = TestRobot("robot", log: log)
        pipes[0].on(\.tPing) { _ in 5 }
        pipes[1].on(\.tPing).handle(owner: robot) { robot, process in
            (robot.ping(process.arguments) ?? 0) + (process.upstream ?? 0)
        }
        #expect(pipes[0].tPing(1) == 7)
        #expect(log.all == ["robot ping 1"])
    }

    @Test("A target is held weakly by default: once released, its handler is skipped")
    func weakTargetIsSkippedOnceReleased() throws {
        let log = Log()
        let pipes = try makeChain("p1", "p2")
        weak var weakRobot: TestRobot?
        let token: RegistrationToken
        do {
            let robot = TestRobot("robot", log: log)
            weakRobot = robot
            token = pipes[0].on(\.tSomeFunc).handle(owner: robot, method: TestRobot.someFunc)
            pipes[1].on(\.tSomeFunc) { process in "p2 saw \(show(process.upstream))" }
            #expect(pipes[0].tSomeFunc(1, "alive") as? String == "p2 saw object of robot")
        }
        #expect(weakRobot == nil)  // the pipe did not keep it alive
        #expect(log.take() == ["robot , 1, alive"])

        let report = pipes[1].tSomeFunc.report(2, "gone")
        #expect(report.value as? String == "p2 saw nil")
        #expect(report.runCount == 1)
        #expect(report.trace.steps.map(\.outcome) == [.skipped(.targetReleased), .ran])
        #expect(log.take() == [])
        // The registration itself is still there, skipped while its target is gone.
        #expect(token.isActive)
        #expect(pipes[0].handles(\.tSomeFunc))
    }

    @Test("A closure handler with a weak target is skipped too")
    func weakClosureTargetIsSkipped() {
        let pipe = ActionPipe(name: "p")
        let ran = Counter()
        do {
            let robot = TestRobot("robot", log: Log())
            pipe.on(\.tPing).handle(owner: robot) { _, _ in
                ran.increment()
                return 1
            }
            #expect(pipe.tPing(0) == 1)
        }
        #expect(pipe.tPing(0) == nil)
        #expect(ran.value == 1)
        #expect(pipe.tPing.report(0).trace.steps[0].outcome == .skipped(.targetReleased))
    }

    @Test("Strong retention keeps the target alive until its token is cancelled")
    func strongTargetLivesUntilCancelled() {
        let log = Log()
        let pipe = ActionPipe(name: "p")
        weak var weakRobot: TestRobot?
        let token: RegistrationToken
        do {
            let robot = TestRobot("strong", log: log)
            weakRobot = robot
            token = pipe.on(\.tPing).handle(
                owner: robot, retention: .strong, method: TestRobot.ping)
        }
        #expect(weakRobot != nil)
        #expect(pipe.tPing(1) == 2)
        #expect(log.take() == ["strong ping 1"])

        #expect(token.cancel())
        #expect(weakRobot == nil)
        #expect(pipe.tPing(1) == nil)
    }

    @Test("Strong retention keeps the target alive until the pipe is gone")
    func strongTargetLivesUntilThePipeIsGone() {
        weak var weakRobot: TestRobot?
        weak var weakPipe: ActionPipe?
        do {
            let pipe = ActionPipe(name: "p")
            weakPipe = pipe
            do {
                let robot = TestRobot("strong", log: Log())
                weakRobot = robot
                pipe.on(\.tPing).handle(owner: robot, retention: .strong) { robot, process in
                    robot.ping(process.arguments)
                }
            }
            #expect(weakRobot != nil)
            #expect(pipe.tPing(3) == 4)
        }
        #expect(weakPipe == nil)
        #expect(weakRobot == nil)
    }

    @Test("Strong retention: replacing the handler releases the old target")
    func replacingReleasesTheStrongTarget() {
        let pipe = ActionPipe(name: "p")
        weak var weakRobot: TestRobot?
        do {
            let robot = TestRobot("strong", log: Log())
            weakRobot = robot
            pipe.on(\.tPing).handle(owner: robot, retention: .strong, method: TestRobot.ping)
        }
        #expect(weakRobot != nil)
        pipe.on(\.tPing) { _ in 0 }
        #expect(weakRobot == nil)
        #expect(pipe.tPing(5) == 0)
    }

    @Test("A responder registers several actions at once, weakly by default")
    func responderRegistersSeveralActions() throws {
        let log = Log()
        let pipes = try makeChain("p1", "vacuum pipe")
        weak var weakVacuum: TestVacuum?
        let tokens: [RegistrationToken]
        do {
            let vacuum = TestVacuum(log: log)
            weakVacuum = vacuum
            tokens = pipes[1].register(vacuum)

            #expect(tokens.count == 3)
            #expect(tokens.allSatisfy { $0.isActive })
            #expect(Set(tokens).count == 3)
            #expect(pipes[1].handles(\.tSomeFunc))
            #expect(pipes[1].handles(\.tSomeFunc3))
            #expect(pipes[1].handles(\.tPing))

            #expect(pipes[0].tSomeFunc(3, nil) as? String == "vacuumed 3")
            #expect(pipes[0].tSomeFunc3() != nil)
            #expect(pipes[0].with(state: .start).tPing(4) == 40)
            #expect(pipes[0].with(state: .success).tPing(4) == nil)  // its condition holds
            #expect(log.take() == ["vacuum someFunc 3", "vacuum reset", "vacuum ping 4"])
        }
        #expect(weakVacuum == nil)
        #expect(pipes[0].tSomeFunc(3, nil) == nil)
        #expect(pipes[0].tSomeFunc3() == nil)
        #expect(
            pipes[0].tSomeFunc.report(3, nil).trace.steps[1].outcome == .skipped(.targetReleased))
        #expect(log.take() == [])

        // The tokens are in registration order and remove one action each.
        #expect(tokens[1].description.hasPrefix("vacuum pipe.tSomeFunc3#"))
        #expect(tokens[0].cancel())
        #expect(!pipes[1].handles(\.tSomeFunc))
        #expect(pipes[1].handles(\.tSomeFunc3))
    }

    @Test("A responder registered strongly lives until its tokens are cancelled")
    func strongResponder() {
        let log = Log()
        let pipe = ActionPipe(name: "p")
        weak var weakVacuum: TestVacuum?
        let tokens: [RegistrationToken]
        do {
            let vacuum = TestVacuum(log: log)
            weakVacuum = vacuum
            tokens = pipe.register(vacuum, retention: .strong)
        }
        #expect(weakVacuum != nil)
        #expect(pipe.tSomeFunc(1, nil) as? String == "vacuumed 1")
        #expect(tokens.map { $0.cancel() } == [true, true, true])
        #expect(weakVacuum == nil)
        #expect(pipe.tSomeFunc(1, nil) == nil)
    }

    @Test("Registering a responder again replaces its handlers (each runs once)")
    func registeringAResponderAgainReplaces() {
        let log = Log()
        let pipe = ActionPipe(name: "p")
        let first = TestVacuum(log: log)
        let second = TestVacuum(log: log)
        let firstTokens = pipe.register(first)
        let secondTokens = pipe.register(second)
        #expect(pipe.tSomeFunc(1, nil) as? String == "vacuumed 1")
        #expect(log.take() == ["vacuum someFunc 1"])
        #expect(firstTokens.allSatisfy { !$0.isActive })
        #expect(secondTokens.allSatisfy { $0.isActive })
        #expect(firstTokens.map { $0.cancel() } == [false, false, false])
        #expect(pipe.tSomeFunc(1, nil) as? String == "vacuumed 1")
    }

    @Test("Method references with conditions and a weak target in the middle of a chain")
    func methodTargetInAChain() throws {
        let log = Log()
        let pipes = try makeChain("p1", "robot", "p3")
        let robot = TestRobot("robot", log: log)
        pipes[0].on(\.tPing) { process in process.arguments }
        pipes[1].on(\.tPing).upstreamNotNil().handle(owner: robot, method: TestRobot.ping)
        pipes[2].on(\.tPing) { process in (process.upstream ?? -100) * 2 }
        #expect(pipes[2].tPing(20) == 42)
        #expect(log.take() == ["robot ping 20"])
        withExtendedLifetime(robot) {}
    }
}
