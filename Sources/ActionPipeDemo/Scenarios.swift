import ActionPipe
import Foundation

/// One example of a seed (the ZZActionPipe README, or the PipelinePlumber article), played
/// end to end.
struct Scenario: Sendable {
    /// The number used by `--scenario N`.
    let number: Int
    /// The name used by `--scenario NAME`.
    let name: String
    /// What the scenario shows.
    let title: String
    /// The API of the original library it corresponds to.
    let original: String
    /// The original library: ZZActionPipe (seed 002) unless said otherwise.
    var library = "ZZActionPipe"
    /// Plays the scenario, printing every call's output, trace and result.
    let run: @Sendable () async throws -> Void
}

/// The file that `--timeline FILE` names, if any: the cookbook scenario writes its timeline
/// there.
let timelinePath: String? = {
    let arguments = CommandLine.arguments
    guard let flag = arguments.firstIndex(of: "--timeline"), flag + 1 < arguments.count,
        !arguments[flag + 1].hasPrefix("-")
    else { return nil }
    return arguments[flag + 1]
}()

/// Every scenario of every part, in the order `--help` lists them. Each part keeps its own
/// list in its own file; numbers are grouped by part (core 1–19, event bus 20–29, operation
/// tree 30–39, plumbing 40–49, observable state 50–59).
let scenarios: [Scenario] =
    coreScenarios + eventBusScenarios + operationTreeScenarios + plumbingScenarios
    + observableStateScenarios

/// The core's scenarios, in the order of the seed README, then the hazards the original has,
/// then the async scenarios (AsyncScenarios.swift).
let coreScenarios: [Scenario] = [
    Scenario(
        number: 1, name: "register",
        title: "Register a handler, then call the action like a method",
        original: "pipe.registAction(@selector(someFuncWithNumber:object:)).action = block",
        run: registerAndCall),
    Scenario(
        number: 2, name: "compose",
        title: "Three pipes composed into one chain",
        original: "[[pipe1 addPipe:pipe2] addPipe:pipe3]",
        run: composePipes),
    Scenario(
        number: 3, name: "upstream-conditions",
        title: "Conditions on the upstream value",
        original: ".returnKindOf([NSDate class]) / .returnNotNull()",
        run: upstreamConditions),
    Scenario(
        number: 4, name: "argument-conditions",
        title: "Conditions on an argument",
        original: ".paramKindOf(2, [NSArray class]) / .paramNotNull(2)",
        run: argumentConditions),
    Scenario(
        number: 5, name: "states",
        title: "States: choose which handlers a call runs",
        original: ".state(1) / [pipe1.doWithState(1 | 10) someFunc...]",
        run: states),
    Scenario(
        number: 6, name: "side-data",
        title: "Side data for the handlers downstream",
        original: "process.tmpTuple = jd_tuple(date, str) / jd_unpack(tuple)",
        run: sideData),
    Scenario(
        number: 7, name: "rewrite-argument",
        title: "Rewrite an argument for the handlers downstream",
        original: "[process changeArgumentOld:&objc toNew:jd_tuple([NSDate date])]",
        run: rewriteArgument),
    Scenario(
        number: 8, name: "upstream",
        title: "Read the upstream return value",
        original: "[[process getUpStramReturnValue] nonretainedObjectValue]",
        run: upstreamValue),
    Scenario(
        number: 9, name: "delegate",
        title: "A method of an object as the handler (held weakly)",
        original: "pipe1.registAction(@selector(someFuncWithNumber:object:)).delegate = obj",
        run: delegateObject),
    Scenario(
        number: 10, name: "cycle",
        title: "Fixed hazard: a composition cycle is rejected",
        original: "[pipe2 addPipe:pipe1] after [pipe1 addPipe:pipe2] loops forever there",
        run: cycleRejected),
    Scenario(
        number: 11, name: "late-registration",
        title: "Fixed hazard: changes after the first call are seen by the next call",
        original: "the handler list is cached at the first call and never refreshed there",
        run: lateRegistration),
    Scenario(
        number: 12, name: "retrigger",
        title: "Re-trigger from the chain's head after asynchronous work",
        original: "the root pipe re-triggers the selector with state success",
        run: retrigger),
    Scenario(
        number: 13, name: "share-link",
        title: "Async: the share-link flow, four checks and a network request",
        original: "plumber.addPort(port).addPipeline(checkLogin)...addPipeline(requestDocLink)",
        library: "PipelinePlumber",
        run: shareLinkFlow),
    Scenario(
        number: 14, name: "share-refused",
        title: "Async: a check refuses, and the report says which pipe and why",
        original: "a stage stops the packet; the sink never fires, and nobody learns why",
        library: "PipelinePlumber",
        run: shareRefused),
    Scenario(
        number: 15, name: "async-retrigger",
        title: "Async: start → request → success/error, awaited by the caller",
        original: "the root pipe re-triggers the selector with state success or error",
        run: asyncRetrigger),
]

// MARK: - 1. register

private func registerAndCall() {
    let pipe = ActionPipe(name: "pipe")
    pipe.on(\.someFuncWithNumber) { process in
        let (number, object) = process.arguments
        say("number _ \(number) , objc _ \(describe(object))")
        return 100
    }
    // The action is now a method of the pipe: `pipe.someFuncWithNumber(999, [1, 2, 3])`.
    // `report` makes the same call and also returns its trace.
    show(pipe.someFuncWithNumber.report(999, [1, 2, 3]))
}

// MARK: - 2. compose

private func composePipes() throws {
    let pipe1 = ActionPipe(name: "pipe1")
    let pipe2 = ActionPipe(name: "pipe2")
    let pipe3 = ActionPipe(name: "pipe3")
    for pipe in [pipe1, pipe2, pipe3] {
        let name = pipe.name  // capture the name, not the pipe: a handler must not own its pipe
        pipe.on(\.someFunc2WithNumber) { process in
            let (size, object) = process.arguments
            say("\(name) _ called size: \(size.height) \(size.width) , \(object)")
        }
    }
    pipe2.on(\.someFunc3) { _ in say("someFunc3 called.") }

    try pipe1.append(pipe2).append(pipe3)
    say("chain: \(pipe1.chainNames.joined(separator: " → "))")

    say("call someFunc2WithNumber on pipe3: every pipe that registered it runs, from the head")
    show(pipe3.someFunc2WithNumber.report(Size(width: 10, height: 20), "hello"))
    say("call someFunc3 on pipe1: only pipe2 registered it")
    let someFunc3 = pipe1.someFunc3.report()
    show(someFunc3)
    say("the same trace as a table (trace.table):")
    for line in someFunc3.trace.table.split(separator: "\n") { say("  \(line)") }
    say("the chain as a Mermaid diagram (pipe1.mermaidDiagram; paste it into mermaid.live):")
    for line in pipe1.mermaidDiagram.split(separator: "\n") { say("  \(line)") }
}

// MARK: - 3. upstream conditions

private func upstreamConditions() throws {
    let pipe1 = ActionPipe(name: "pipe1")
    let pipe2 = ActionPipe(name: "pipe2")
    let pipe3 = ActionPipe(name: "pipe3")
    pipe1.on(\.someFunc) { process in
        let (_, object) = process.arguments
        guard let object else {
            say("pipe1 _ return nil.")
            return nil
        }
        return object is [Any] ? DemoDates.robotBirthday : NSObject()
    }
    pipe2.on(\.someFunc).upstream(is: Date.self).handle { _ in
        say("pipe2 _ upstream returned a Date.")
        return nil
    }
    pipe3.on(\.someFunc).upstreamNotNil().handle { process in
        say("pipe3 _ upstream not nil: \(describe(process.upstream))")
        return nil
    }
    try pipe1.append(pipe2).append(pipe3)

    say("object nil: pipe1 returns nil, so pipe2 and pipe3 are skipped")
    show(pipe3.someFunc.report(0, nil))
    say("object [1, 2]: pipe1 returns a Date, pipe2 runs and returns nil, pipe3 is skipped")
    show(pipe2.someFunc.report(0, [1, 2]))
    say("object [\"a\": \"aa\"]: pipe1 returns an NSObject, pipe2 is skipped, pipe3 sees it")
    show(pipe1.someFunc.report(0, ["a": "aa"]))
}

// MARK: - 4. argument conditions

private func argumentConditions() throws {
    let pipe1 = ActionPipe(name: "pipe1")
    let pipe2 = ActionPipe(name: "pipe2")
    // Positions are 0-based key paths into the argument tuple: `\.1` is the second argument
    // (the original's `paramKindOf(2, ...)`). A position that does not exist does not compile.
    pipe1.on(\.someFunc).argument(\.1, is: [Int].self).handle { _ in
        say("pipe1 _ param objc is Array.")
        return nil
    }
    pipe2.on(\.someFunc).argumentNotNil(\.1).handle { _ in
        say("pipe2 _ param objc is not nil.")
        return nil
    }
    try pipe1.append(pipe2)

    show(pipe1.someFunc.report(0, [1, 2]))
    show(pipe1.someFunc.report(0, "text"))
    show(pipe1.someFunc.report(0, nil))
}

// MARK: - 5. states

private func states() throws {
    let pipe1 = ActionPipe(name: "pipe1")
    let pipe2 = ActionPipe(name: "pipe2")
    pipe1.on(\.someFunc).state(1).handle { _ in
        say("pipe1 _ state 1.")
        return nil
    }
    pipe2.on(\.someFunc).state(10).handle { _ in
        say("pipe2 _ state 10.")
        return nil
    }
    try pipe1.append(pipe2)

    say("with state 1: only the handler of state 1")
    show(pipe1.with(state: 1).someFunc.report(0, nil))
    say("with state 10: only the handler of state 10")
    show(pipe1.with(state: 10).someFunc.report(0, nil))
    say("with state 1 | 10: both")
    show(pipe1.with(state: ActionState(1 | 10)).someFunc.report(0, nil))
    say("a plain call: handlers of every state")
    show(pipe1.someFunc.report(0, nil))
}

// MARK: - 6. side data

private func sideData() throws {
    let pipe1 = ActionPipe(name: "pipe1")
    let pipe2 = ActionPipe(name: "pipe2")
    pipe1.on(\.someFunc) { process in
        let (number, _) = process.arguments
        // Keep a birthday the caller passed in; otherwise attach one.
        if process.sideData[DemoKeys.birthday] == nil {
            process.sideData[DemoKeys.birthday] = DemoDates.robotBirthday
        }
        process.sideData[DemoKeys.label] = "Robot No.\(number) birth day"
        return nil
    }
    pipe2.on(\.someFunc) { process in
        guard let date = process.sideData[DemoKeys.birthday],
            let label = process.sideData[DemoKeys.label]
        else { return nil }
        say("\(label) _ \(describe(date))")
        return date
    }
    try pipe1.append(pipe2)

    show(pipe1.someFunc.report(999, nil))
    say("a call can start with side data too:")
    show(pipe1.someFunc.with(DemoKeys.birthday, DemoDates.callerBirthday).report(1000, nil))
}

// MARK: - 7. rewrite an argument

private func rewriteArgument() throws {
    let pipe1 = ActionPipe(name: "pipe1")
    let pipe2 = ActionPipe(name: "pipe2")
    pipe1.on(\.someFunc) { process in
        let (_, object) = process.arguments
        if object == nil {
            // By position, type-checked: `\.1` is `object`, and the new value must be `Any?`.
            process.rewrite(\.1, to: DemoDates.replacement)
            say("pipe1 _ objc was nil, handlers downstream get a Date")
        }
        return nil
    }
    pipe2.on(\.someFunc) { process in
        let (_, object) = process.arguments
        say("pipe2 _ objc is \(describe(object))")
        return object as? Date
    }
    try pipe1.append(pipe2)

    show(pipe1.someFunc.report(999, nil))
}

// MARK: - 8. upstream value

private func upstreamValue() throws {
    let pipe1 = ActionPipe(name: "pipe1")
    let pipe2 = ActionPipe(name: "pipe2")
    pipe1.on(\.someFunc) { _ in [1, 2, 3] }
    // Return values do not flow through on their own: pipe2 forwards pipe1's by returning it.
    pipe2.on(\.someFunc) { process in
        say("pipe2 _ upstream is \(describe(process.upstream))")
        return process.upstream
    }
    try pipe1.append(pipe2)

    show(pipe1.someFunc.report(999, nil))
}

// MARK: - 9. delegate

private func delegateObject() {
    let pipe1 = ActionPipe(name: "pipe1")
    do {
        let delegate = TestObject(name: "testObject")
        // A method reference as the handler; the pipe holds `delegate` weakly by default.
        pipe1.on(\.someFunc).handle(owner: delegate, method: TestObject.someFunc)
        show(pipe1.someFunc.report(999, "in instance object"))
    }
    say("the delegate is gone; the pipe held it weakly, so its handler is skipped")
    show(pipe1.someFunc.report(999, "in instance object"))

    let kept = ActionPipe(name: "pipe2")
    kept.on(\.someFunc).handle(
        owner: TestObject(name: "kept object"), retention: .strong, method: TestObject.someFunc)
    say("with retention: .strong the pipe keeps the object alive")
    show(kept.someFunc.report(1, "strong"))
}

// MARK: - 10. cycle

private func cycleRejected() throws {
    let pipe1 = ActionPipe(name: "pipe1")
    let pipe2 = ActionPipe(name: "pipe2")
    let pipe3 = ActionPipe(name: "pipe3")
    try pipe1.append(pipe2)
    say("chain: \(pipe1.chainNames.joined(separator: " → "))")

    do {
        try pipe2.append(pipe1)
    } catch {
        say("pipe2.append(pipe1) throws: \(error)")
    }
    do {
        try pipe1.append(pipe1)
    } catch {
        say("pipe1.append(pipe1) throws: \(error)")
    }
    say("chain after the rejected calls: \(pipe1.chainNames.joined(separator: " → "))")

    say("moving pipe2 into another chain: remove it first, every member stays consistent")
    pipe2.removeFromChain()
    try pipe3.append(pipe2)
    say("pipe1's chain: \(pipe1.chainNames.joined(separator: " → "))")
    say("pipe3's chain: \(pipe3.chainNames.joined(separator: " → "))")
}

// MARK: - 11. late registration

private func lateRegistration() throws {
    let pipe1 = ActionPipe(name: "pipe1")
    let pipe2 = ActionPipe(name: "pipe2")
    let pipe3 = ActionPipe(name: "pipe3")
    try pipe1.append(pipe2)
    pipe1.on(\.someFunc) { _ in "pipe1" }

    say("first call: only pipe1 has a handler")
    show(pipe1.someFunc.report(0, nil))

    let token = pipe2.on(\.someFunc) { _ in "pipe2" }
    try pipe2.append(pipe3)
    pipe3.on(\.someFunc) { _ in "pipe3" }
    say("pipe2 registered, pipe3 composed and registered: the next call sees all of it")
    show(pipe1.someFunc.report(0, nil))

    token.cancel()
    say("pipe2's handler removed with its token")
    show(pipe1.someFunc.report(0, nil))
}

// MARK: - 12. re-trigger

private func retrigger() async throws {
    let (done, continuation) = AsyncStream.makeStream(of: String.self)
    let loader = ActionPipe(name: "loader")
    let view = ActionPipe(name: "view")
    loader.on(\.load).state(.start).handle { process in
        let (url, _) = process.arguments
        say("loader _ start loading \(url)")
        // Keep the trigger, not the process: it calls the action again from the chain's head.
        let trigger = process.trigger
        Task {
            try await Task.sleep(for: .milliseconds(10))  // the "network"
            let text = trigger.call(state: .success, url, "the page at \(url)")
            continuation.yield(text ?? "nothing")
        }
        return "loading"
    }
    view.on(\.load).state([.start, .success]).handle { process in
        let (url, body) = process.arguments
        if process.state == .start {
            say("view _ show a spinner for \(url) (upstream: \(process.upstream ?? "nil"))")
            return nil
        }
        say("view _ show \(body ?? "nothing")")
        return "shown"
    }
    try loader.append(view)

    say("the call with state start runs both handlers; the loader starts its work")
    show(view.with(state: .start).load.report("example.com", nil))
    for await result in done.prefix(1) {
        say("the loader re-triggered the action with state success; result: \(result)")
    }
    // The trigger holds the chain weakly; using the pipes here keeps them alive until now.
    say("the chain is still \(loader.chainNames.joined(separator: " → ")), held by its pipes only")
    continuation.finish()
}
