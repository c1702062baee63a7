import ActionPipe
import Foundation
import Testing

@Suite("The process: upstream, side data, rewriting, stop, nested calls, trigger")
struct ProcessTests {
    // MARK: Upstream

    @Test("Upstream example: p1 returns [1, 2, 3], p2 returns the upstream; caller gets [1, 2, 3]")
    func upstreamExample() throws {
        let pipes = try makeChain("pipe1", "pipe2")
        let firstUpstream = Log()
        pipes[0].on(\.tSomeFunc) { process in
            firstUpstream.append(show(process.upstream))
            return [1, 2, 3]
        }
        pipes[1].on(\.tSomeFunc) { process in process.upstream }

        let result = pipes[0].tSomeFunc(999, nil)

        #expect(result as? [Int] == [1, 2, 3])
        #expect(firstUpstream.all == ["nil"])  // the first handler sees no upstream
    }

    // MARK: Side data

    @Test("Side data example: p1 attaches a date and a label; p2 reads both, returns the date")
    func sideDataExample() throws {
        let log = Log()
        let birthday = Date(timeIntervalSince1970: 1_624_447_288)
        let pipe1 = ActionPipe(name: "pipe1")
        let pipe2 = ActionPipe(name: "pipe2")
        pipe1.on(\.tSomeFunc) { process in
            let (number, _) = process.arguments
            process.sideData[Keys.birthday] = birthday
            process.sideData[Keys.label] = "Robot No.\(number) birth day"
            return nil
        }
        pipe2.on(\.tSomeFunc) { process in
            guard let date = process.sideData[Keys.birthday],
                let label = process.sideData[Keys.label]
            else {
                log.append("side data missing")
                return nil
            }
            log.append("\(label) _ \(date.timeIntervalSince1970)")
            return date
        }
        try pipe1.append(pipe2)

        let result = pipe1.tSomeFunc(999, nil)

        #expect(result as? Date == birthday)
        #expect(log.take() == ["Robot No.999 birth day _ 1624447288.0"])

        // Side data belongs to one call: a call that skips pipe1's attaching sees none.
        pipe1.removeHandler(for: \.tSomeFunc)
        #expect(pipe1.tSomeFunc(999, nil) == nil)
        #expect(log.take() == ["side data missing"])
    }

    @Test("A call may start with side data: pipe.with(key, value) and bound.with(key, value)")
    func callStartsWithSideData() throws {
        let pipes = try makeChain("p1", "p2")
        pipes[0].on(\.tLoad) { process in
            let before = process.sideData[Keys.label] ?? "none"
            process.sideData[Keys.label] = before + "+p1"
            return before
        }
        pipes[1].on(\.tLoad) { process in process.sideData[Keys.label] ?? "none" }

        #expect(pipes[1].tLoad("x") == "none+p1")
        #expect(pipes[1].with(Keys.label, "caller").tLoad("x") == "caller+p1")
        #expect(pipes[0].tLoad.with(Keys.label, "bound")("x") == "bound+p1")
        let start = SideData(Keys.label, "whole").with(Keys.counter, 3)
        #expect(pipes[0].tLoad.with(sideData: start)("x") == "whole+p1")
    }

    @Test("A reused call value starts every call with the same side data")
    func reusedCallStartsFresh() {
        let pipe = ActionPipe(name: "p")
        pipe.on(\.tPing) { process in
            let next = (process.sideData[Keys.counter] ?? 0) + 1
            process.sideData[Keys.counter] = next
            return next
        }
        let call = pipe.with(Keys.counter, 10)
        #expect(call.tPing(0) == 11)
        #expect(call.tPing(0) == 11)
        let bound = pipe.tPing.with(Keys.counter, 20)
        #expect(bound(0) == 21)
        #expect(bound(0) == 21)
        #expect(pipe.tPing(0) == 1)
    }

    @Test("Handlers replace and remove side data for later handlers")
    func handlersReplaceAndRemoveSideData() throws {
        let pipes = try makeChain("p1", "p2", "p3")
        let log = Log()
        pipes[0].on(\.tPing) { process in
            process.sideData[Keys.label] = "first"
            process.sideData[Keys.counter] = 1
            return nil
        }
        pipes[1].on(\.tPing) { process in
            process.sideData[Keys.label] = "second"
            process.sideData[Keys.counter] = nil
            return nil
        }
        pipes[2].on(\.tPing) { process in
            log.append(
                "\(process.sideData[Keys.label] ?? "nil") \(show(process.sideData[Keys.counter])) "
                    + "count \(process.sideData.count)")
            return nil
        }
        pipes[0].tPing(0)
        #expect(log.all == ["second nil count 1"])
    }

    @Test("SideData: empty, set, replace, remove, count, description")
    func sideDataBasics() {
        var data = SideData()
        #expect(data.isEmpty)
        #expect(data.count == 0)
        #expect(data[Keys.label] == nil)
        #expect(data.description == "[]")

        data[Keys.label] = "a"
        #expect(data[Keys.label] == "a")
        #expect(data.count == 1)
        #expect(!data.isEmpty)
        #expect(data.description == "[label: a]")

        data[Keys.label] = "b"
        #expect(data[Keys.label] == "b")
        #expect(data.count == 1)

        data[Keys.counter] = 7
        #expect(data[Keys.counter] == 7)
        #expect(data.count == 2)

        data[Keys.label] = nil
        #expect(data[Keys.label] == nil)
        #expect(data[Keys.counter] == 7)
        #expect(data.count == 1)

        let copy = data.with(Keys.label, "c")
        #expect(copy[Keys.label] == "c")
        #expect(data[Keys.label] == nil)  // with(_:_:) returns a copy

        #expect(SideData(Keys.label, "x")[Keys.label] == "x")
    }

    @Test("SideData with more than four keys: overflow keys read, replace and remove correctly")
    func sideDataOverflow() {
        let keys = (0..<9).map { SideDataKey<Int>("k\($0)") }
        var data = SideData()
        for (index, key) in keys.enumerated() {
            data[key] = index * 10
        }
        #expect(data.count == 9)
        #expect(keys.map { data[$0] } == (0..<9).map { $0 * 10 })

        // Replace an inline key and an overflow key.
        data[keys[1]] = 111
        data[keys[7]] = 777
        #expect(data.count == 9)
        #expect(data[keys[1]] == 111)
        #expect(data[keys[7]] == 777)

        // Remove an inline key, then replace an overflow key: it must not take the free
        // inline slot as a second copy.
        data[keys[0]] = nil
        #expect(data.count == 8)
        data[keys[5]] = 555
        #expect(data.count == 8)
        #expect(data[keys[5]] == 555)
        data[keys[5]] = nil
        #expect(data[keys[5]] == nil)
        #expect(data.count == 7)

        // A new key takes the free inline slot.
        let late = SideDataKey<String>("late")
        data[late] = "late"
        #expect(data.count == 8)
        #expect(data[late] == "late")
        #expect(
            keys.map { data[$0] } == [nil, 111, 20, 30, 40, nil, 60, 777, 80])

        // Removing everything empties it.
        for key in keys { data[key] = nil }
        data[late] = nil
        #expect(data.isEmpty)
    }

    @Test("SideData stores trivial small values inline and every other value out of line")
    func sideDataValueKinds() {
        struct Pair: Equatable { var a: Int, b: Int }  // 16 bytes, trivial: inline
        struct Triple: Equatable { var a: Int, b: Int, c: Int }  // 24 bytes: out of line
        final class Ref: Sendable { let value = 5 }
        let date = SideDataKey<Date>("date")
        let pair = SideDataKey<Pair>("pair")
        let triple = SideDataKey<Triple>("triple")
        let text = SideDataKey<String>("text")
        let ref = SideDataKey<Ref>("ref")
        let flag = SideDataKey<Bool>("flag")
        let small = SideDataKey<Int8>("small")
        let when = Date(timeIntervalSince1970: 42)
        let object = Ref()

        var data = SideData()
        data[date] = when
        data[triple] = Triple(a: 1, b: 2, c: 3)
        data[pair] = Pair(a: 4, b: 5)
        data[text] = "hello"
        data[ref] = object
        data[flag] = true
        data[small] = -3
        #expect(data.count == 7)
        #expect(data[date] == when)
        #expect(data[pair] == Pair(a: 4, b: 5))
        #expect(data[triple] == Triple(a: 1, b: 2, c: 3))
        #expect(data[text] == "hello")
        #expect(data[ref] === object)
        #expect(data[flag] == true)
        #expect(data[small] == -3)

        // A copy is independent, inline and out of line.
        var copy = data
        copy[pair] = Pair(a: 0, b: 0)
        copy[text] = "changed"
        #expect(data[pair] == Pair(a: 4, b: 5))
        #expect(data[text] == "hello")

        // Every value is described, inline ones included.
        #expect(data.description.contains("pair: Pair(a: 4, b: 5)"))
        #expect(data.description.contains("flag: true"))
        #expect(data.description.contains("text: hello"))
        #expect(data.description.contains("small: -3"))

        for key in [date, pair, triple, text, ref, flag, small] as [any _SideDataTestKey] {
            key.remove(from: &data)
        }
        #expect(data.isEmpty)
        #expect(data.description == "[]")
    }

    @Test("SideData keys: distinct keys with the same name are different keys")
    func sideDataKeysAreDistinct() {
        let first = SideDataKey<String>("same")
        let second = SideDataKey<String>("same")
        #expect(first != second)
        #expect(first == first)
        #expect(Set([first, second, first]).count == 2)
        #expect(first.name == "same")
        #expect(first.description == "same: String")

        var data = SideData(first, "one")
        data[second] = "two"
        #expect(data[first] == "one")
        #expect(data[second] == "two")
        #expect(data.count == 2)
    }

    @Test("Side data travels through more than four keys in a call")
    func sideDataOverflowInACall() throws {
        let pipes = try makeChain("p1", "p2")
        let keys = (0..<6).map { SideDataKey<Int>("n\($0)") }
        pipes[0].on(\.tPing) { process in
            for (index, key) in keys.enumerated() {
                process.sideData[key] = index + process.arguments
            }
            return nil
        }
        pipes[1].on(\.tPing) { process in
            keys.compactMap { process.sideData[$0] }.reduce(0, +)
        }
        #expect(pipes[0].tPing(100) == 615)
    }

    // MARK: Argument rewriting

    @Test("Rewriting example: p1 turns a nil object into a Date; p2 receives and returns it")
    func argumentRewritingExample() throws {
        let log = Log()
        let date = Date(timeIntervalSince1970: 1_624_527_034)
        let pipe1 = ActionPipe(name: "pipe1")
        let pipe2 = ActionPipe(name: "pipe2")
        pipe1.on(\.tSomeFunc) { process in
            let (number, object) = process.arguments
            if object == nil {
                process.rewrite(\.1, to: date)
            }
            // The handler's own parameters did not change.
            log.append("pipe1 own: \(number) \(show(object))")
            log.append("next sees a Date: \(process.arguments.1 is Date)")
            return nil
        }
        pipe2.on(\.tSomeFunc) { process in
            let (number, object) = process.arguments
            log.append("pipe2 got: \(number) Date: \(object is Date)")
            return object as? Date
        }
        try pipe1.append(pipe2)

        let result = pipe1.tSomeFunc(999, nil)

        #expect(result as? Date == date)
        #expect(
            log.take() == [
                "pipe1 own: 999 nil", "next sees a Date: true", "pipe2 got: 999 Date: true",
            ])
        // The rewrite belongs to that call only.
        #expect(pipe2.tSomeFunc(1, "given") as? Date == nil)
        #expect(
            log.take() == [
                "pipe1 own: 1 given", "next sees a Date: false", "pipe2 got: 1 Date: false",
            ])
    }

    @Test("Rewriting by position replaces the right argument when two are EQUAL")
    func rewritingEqualArgumentsByPosition() throws {
        let pipes = try makeChain("p1", "p2")
        let which = Box(1)
        pipes[0].on(\.tPair) { process in
            if which.value == 1 {
                process.rewrite(\.1, to: 7)
            } else {
                process.rewrite(\.0, to: 9)
            }
            return nil
        }
        pipes[1].on(\.tPair) { process in "\(process.arguments.0) \(process.arguments.1)" }

        #expect(pipes[0].tPair(5, 5) == "5 7")
        which.set(0)
        #expect(pipes[0].tPair(5, 5) == "9 5")

        let words = try makeChain("w1", "w2")
        words[0].on(\.tWords) { process in
            process.rewrite(\.1, to: "changed")
            return nil
        }
        words[1].on(\.tWords) { process in "\(process.arguments.0)|\(process.arguments.1)" }
        #expect(words[0].tWords("same", "same") == "same|changed")
    }

    @Test("rewriteArguments replaces all arguments at once")
    func rewriteAllArguments() throws {
        let pipes = try makeChain("p1", "p2")
        pipes[0].on(\.tSomeFunc) { process in
            process.rewriteArguments(1000, "replaced")
            return nil
        }
        pipes[1].on(\.tSomeFunc) { process in "\(process.arguments.0) \(show(process.arguments.1))"
        }
        #expect(pipes[0].tSomeFunc(1, nil) as? String == "1000 replaced")
    }

    @Test("Rewrites accumulate: each later handler sees every rewrite before it")
    func rewritesAccumulate() throws {
        let pipes = try makeChain("p1", "p2", "p3", "p4")
        let log = Log()
        pipes[0].on(\.tPair) { process in
            process.rewrite(\.0, to: 10)
            return nil
        }
        pipes[1].on(\.tPair) { process in
            log.append("p2 sees \(process.arguments.0) \(process.arguments.1)")
            process.rewrite(\.1, to: 20)
            return nil
        }
        pipes[2].on(\.tPair).when("never") { _ in false }.handle { process in
            process.rewrite(\.0, to: -1)
            return nil
        }
        pipes[3].on(\.tPair) { process in "\(process.arguments.0) \(process.arguments.1)" }
        #expect(pipes[3].tPair(1, 2) == "10 20")
        #expect(log.all == ["p2 sees 10 2"])
    }

    @Test("A one-argument action rewrites with \\.self")
    func rewriteOneArgument() throws {
        let pipes = try makeChain("p1", "p2")
        pipes[0].on(\.tPing) { process in
            process.rewrite(\.self, to: process.arguments + 1)
            return nil
        }
        pipes[1].on(\.tPing) { process in process.arguments * 2 }
        #expect(pipes[0].tPing(20) == 42)
    }

    // MARK: Stop

    @Test("stop(): later handlers do not run; the stopping handler's value is the result")
    func stopEndsTheCall() throws {
        let pipes = try makeChain("p1", "p2", "p3", "p4")
        let log = Log()
        pipes[0].on(\.tPing) { _ in
            log.append("p1")
            return 1
        }
        pipes[1].on(\.tPing) { process in
            log.append("p2 stopped before: \(process.isStopped)")
            process.stop()
            log.append("p2 stopped after: \(process.isStopped)")
            return 2
        }
        pipes[2].on(\.tPing) { _ in
            log.append("p3")
            return 3
        }

        #expect(pipes[3].tPing(0) == 2)
        #expect(log.take() == ["p1", "p2 stopped before: false", "p2 stopped after: true"])

        let report = pipes[0].tPing.report(0)
        #expect(report.value == 2)
        #expect(report.runCount == 2)
        #expect(report.stoppedBy == "p2")
        #expect(report.wasStopped)
        #expect(
            report.trace.steps.map(\.outcome) == [
                .ran, .stopped, .skipped(.stoppedEarlier), .skipped(.notRegistered),
            ])
        #expect(report.trace.ran == ["p1", "p2"])
        _ = log.take()

        // A stop ends that call only.
        pipes[1].on(\.tPing) { _ in 2 }
        let next = pipes[0].tPing.report(0)
        #expect(next.value == 3)
        #expect(!next.wasStopped)
        #expect(next.stoppedBy == nil)
        #expect(log.take() == ["p1", "p3"])
    }

    @Test("stop() in the last handler: the call reports it, nothing is skipped")
    func stopInTheLastHandler() throws {
        let pipes = try makeChain("p1", "p2")
        pipes[0].on(\.tPing) { _ in 1 }
        pipes[1].on(\.tPing) { process in
            process.stop()
            process.stop()  // stopping twice is harmless
            return nil
        }
        let report = pipes[0].tPing.report(0)
        #expect(report.value == nil)
        #expect(report.stoppedBy == "p2")
        #expect(report.trace.steps.map(\.outcome) == [.ran, .stopped])
    }

    // MARK: Nested calls

    @Test("A nested call gets its own process; the outer one is intact afterwards")
    func nestedCallHasItsOwnProcess() throws {
        let pipes = try makeChain("p1", "p2", "p3")
        let log = Log()
        pipes[0].on(\.tSomeFunc) { process in
            process.sideData[Keys.label] = "outer"
            process.rewrite(\.1, to: "outer object")
            return "p1"
        }
        pipes[1].on(\.tSomeFunc) { [weak inner = pipes[2]] process in
            let nested = inner?.tOther(5)
            log.append("nested result \(show(nested))")
            let nestedAgain = inner?.with(Keys.label, "nested caller").tOther(6)
            log.append("nested again \(show(nestedAgain))")
            log.append(
                "outer after nested: label \(process.sideData[Keys.label] ?? "nil"), "
                    + "object \(show(process.arguments.1)), upstream \(show(process.upstream)), "
                    + "number \(process.arguments.0)")
            process.sideData[Keys.counter] = 2
            return "p2"
        }
        pipes[2].on(\.tSomeFunc) { process in
            log.append(
                "p3: label \(process.sideData[Keys.label] ?? "nil"), counter "
                    + "\(show(process.sideData[Keys.counter])), object \(show(process.arguments.1)), "
                    + "upstream \(show(process.upstream))")
            return process.upstream
        }
        // The nested action: p1 and p3 answer it.
        pipes[0].on(\.tOther) { process in
            log.append(
                "nested p1: label \(process.sideData[Keys.label] ?? "nil"), upstream "
                    + "\(show(process.upstream)), argument \(process.arguments)")
            process.sideData[Keys.label] = "inner"
            process.rewrite(\.self, to: 99)
            return 1
        }
        pipes[2].on(\.tOther) { process in
            log.append(
                "nested p3: label \(process.sideData[Keys.label] ?? "nil"), upstream "
                    + "\(show(process.upstream)), argument \(process.arguments)")
            return process.arguments * 2
        }

        let result = pipes[0].tSomeFunc(7, nil)

        #expect(result as? String == "p2")
        #expect(
            log.all == [
                "nested p1: label nil, upstream nil, argument 5",
                "nested p3: label inner, upstream 1, argument 99",
                "nested result 198",
                "nested p1: label nested caller, upstream nil, argument 6",
                "nested p3: label inner, upstream 1, argument 99",
                "nested again 198",
                "outer after nested: label outer, object outer object, upstream p1, number 7",
                "p3: label outer, counter 2, object outer object, upstream p2",
            ])
    }

    @Test("A nested call of the same action does not disturb the outer call's state")
    func nestedCallOfTheSameActionWithState() throws {
        let pipes = try makeChain("p1", "p2")
        let log = Log()
        pipes[0].on(\.tLoad).state(.start).handle { [weak head = pipes[0]] process in
            let nested = head?.with(state: .success).tLoad("nested")
            log.append("p1 nested \(show(nested)), own state \(show(process.state))")
            return "started"
        }
        pipes[1].on(\.tLoad) { process in
            log.append(
                "p2 \(process.arguments) state \(show(process.state)) upstream \(show(process.upstream))"
            )
            return "p2 \(process.arguments)"
        }
        #expect(pipes[1].with(state: .start).tLoad("outer") == "p2 outer")
        #expect(
            log.all == [
                "p2 nested state success upstream nil",
                "p1 nested p2 nested, own state start",
                "p2 outer state start upstream started",
            ])
    }

    // MARK: Trigger

    @Test("trigger: re-calls the action later from the chain's head, with .success")
    func triggerRecallsFromTheHead() throws {
        let pipes = try makeChain("p1", "p2", "p3")
        let log = Log()
        let saved = Box<ActionTrigger<ActionKind.Sync, String, String>?>(nil)
        pipes[0].on(\.tLoad) { process in
            log.append("p1 \(process.arguments) \(show(process.state))")
            return nil
        }
        pipes[1].on(\.tLoad).state(.start).handle { process in
            saved.set(process.trigger)
            log.append("p2 start \(process.arguments)")
            return "loading"
        }
        pipes[2].on(\.tLoad).state([.success, .error]).handle { process in
            log.append("p3 \(show(process.state)) \(process.arguments)")
            return "done: \(process.arguments)"
        }

        #expect(pipes[2].with(state: .start).tLoad("request") == "loading")
        #expect(log.take() == ["p1 request start", "p2 start request"])

        // Later, after the asynchronous work:
        let trigger = try #require(saved.value)
        #expect(trigger.isAlive)
        #expect(trigger.call(state: .success, "data") == "done: data")
        #expect(log.take() == ["p1 data success", "p3 success data"])
        #expect(trigger.call(state: .error, "timeout") == "done: timeout")
        #expect(log.take() == ["p1 timeout error", "p3 error timeout"])
        #expect(trigger("plain") == "done: plain")
        #expect(log.take() == ["p1 plain nil", "p2 start plain", "p3 nil plain"])
        #expect(trigger.call(state: nil, "nil state") == "done: nil state")
        _ = log.take()

        // The trigger sees changes made since: a new head runs first.
        let head = ActionPipe(name: "head")
        head.on(\.tLoad) { _ in
            log.append("head")
            return nil
        }
        try head.append(pipes[0])
        #expect(trigger.call(state: .success, "again") == "done: again")
        #expect(log.take() == ["head", "p1 again success", "p3 success again"])
    }

    @Test("trigger: once the chain is gone it does nothing and returns nil")
    func triggerAfterTheChainIsGone() throws {
        let log = Log()
        let saved = Box<ActionTrigger<ActionKind.Sync, String, String>?>(nil)
        do {
            let pipes = try makeChain("p1", "p2")
            pipes[1].on(\.tLoad) { process in
                saved.set(process.trigger)
                log.append("p2 \(process.arguments)")
                return "ran"
            }
            #expect(pipes[0].tLoad("first") == "ran")
        }
        let trigger = try #require(saved.value)
        #expect(!trigger.isAlive)
        #expect(trigger.call(state: .success, "late") == nil)
        #expect(trigger("late") == nil)
        #expect(log.all == ["p2 first"])
    }

    @Test("trigger: works while the chain lives, even if the pipe it was called on was dropped")
    func triggerOutlivesTheOriginHandleWhileTheChainLives() throws {
        let log = Log()
        let saved = Box<ActionTrigger<ActionKind.Sync, String, String>?>(nil)
        let head = ActionPipe(name: "head")
        weak var weakOrigin: ActionPipe?
        do {
            let origin = ActionPipe(name: "origin")
            weakOrigin = origin
            origin.on(\.tLoad) { process in
                // Keep the trigger of the first call, the one made on `origin`.
                if saved.value == nil { saved.set(process.trigger) }
                log.append("origin \(process.arguments)")
                return "origin ran"
            }
            try head.append(origin)
            #expect(origin.tLoad("first") == "origin ran")
        }
        // The handle is gone, but the chain lives (head is referenced) and origin's member
        // keeps answering in it (documented lifetime).
        #expect(weakOrigin == nil)
        #expect(head.chainNames == ["head", "origin"])
        #expect(head.tLoad("direct") == "origin ran")
        #expect(log.take() == ["origin first", "origin direct"])

        let trigger = try #require(saved.value)
        #expect(trigger.isAlive, "isAlive is documented as 'whether the chain is still alive'")
        #expect(trigger.call(state: .success, "later") == "origin ran")
        #expect(log.take() == ["origin later"])
    }

    @Test("The process names its action")
    func processActionName() {
        let pipe = ActionPipe(name: "p")
        pipe.on(\.tLoad) { process in process.actionName }
        pipe.on(\.tNamed) { process in process.actionName.count }
        #expect(pipe.tLoad("x") == "tLoad")
        #expect(pipe.tNamed(0) == "custom name".count)
    }
}

/// Removes a key of any value type from side data (lets a test loop over mixed keys).
protocol _SideDataTestKey {
    func remove(from data: inout SideData)
}

extension SideDataKey: _SideDataTestKey {
    func remove(from data: inout SideData) { data[self] = nil }
}
