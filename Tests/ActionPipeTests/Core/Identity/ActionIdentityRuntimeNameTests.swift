import ActionPipe
import Testing

/// One helper makes every descriptor below: each shares the helper's file, line and
/// column, and many share a name, so only the name's content and the action's type keep
/// them apart.
private func runtimeAction<each Argument>(_ name: String, _: repeat (each Argument).Type)
    -> Action<repeat each Argument, String>
{
    .init(name: name)
}

extension Actions {
    fileprivate subscript(intItem number: Int) -> Action<Int, String> {
        runtimeAction("item-\(number)", Int.self)
    }
    fileprivate subscript(stringItem number: Int) -> Action<String, String> {
        runtimeAction("item-\(number)", String.self)
    }
    fileprivate subscript(pairItem number: Int) -> Action<Int, Int, String> {
        runtimeAction("item-\(number)", Int.self, Int.self)
    }
    /// A name long enough to live on the heap, so equal names have different storage.
    fileprivate subscript(longItem number: Int) -> Action<[Int], String> {
        runtimeAction(
            "a-long-run-time-name-that-does-not-fit-in-a-small-string-\(number)", [Int].self)
    }
}

@Suite("Action identity: run-time names")
struct ActionIdentityRuntimeNameTests {
    static let perType = 250

    @Test("1,000 run-time-named actions of 4 types on one pipe: each call reaches its own handler")
    func thousandActions() {
        let pipe = ActionPipe(name: "runtime")
        for number in 0..<Self.perType {
            pipe.on(\.[intItem: number]) { process in "int \(number): \(process.arguments)" }
            pipe.on(\.[stringItem: number]) { process in "string \(number): \(process.arguments)" }
            pipe.on(\.[pairItem: number]) { process in
                let (a, b) = process.arguments
                return "pair \(number): \(a + b)"
            }
            pipe.on(\.[longItem: number]) { process in
                "long \(number): \(process.arguments.count)"
            }
        }
        var wrong = 0
        for number in 0..<Self.perType {
            if pipe[dynamicMember: \.[intItem: number]](7) != "int \(number): 7" { wrong += 1 }
            if pipe[dynamicMember: \.[stringItem: number]]("s") != "string \(number): s" {
                wrong += 1
            }
            if pipe[dynamicMember: \.[pairItem: number]](2, 3) != "pair \(number): 5" {
                wrong += 1
            }
            if pipe[dynamicMember: \.[longItem: number]]([1, 2]) != "long \(number): 2" {
                wrong += 1
            }
            if pipe.handles(\.[intItem: number]) == false { wrong += 1 }
        }
        #expect(wrong == 0)
        #expect(pipe[dynamicMember: \.[intItem: 0]].report(1).trace.action == "item-0")
    }

    @Test("An action never registered is not handled, whatever shares its name or site")
    func unregistered() {
        let pipe = ActionPipe(name: "runtime")
        pipe.on(\.[intItem: 1]) { _ in "one" }
        // Same site, same name, another type; same site and type, another name.
        #expect(!pipe.handles(\.[stringItem: 1]))
        #expect(!pipe.handles(\.[intItem: 2]))
        #expect(!pipe.handles(\.[intItem: 10_000]))
        #expect(pipe[dynamicMember: \.[stringItem: 1]]("x") == nil)
        #expect(pipe[dynamicMember: \.[intItem: 2]](1) == nil)
        #expect(pipe[dynamicMember: \.[intItem: 1]](1) == "one")
    }

    @Test("Names built at run time from equal content are one action")
    func equalContent() {
        let pipe = ActionPipe(name: "runtime")
        let number = Int("42")!  // not a literal: the name is built at run time each time
        pipe.on(\.[longItem: number]) { _ in "registered" }
        for _ in 0..<3 {
            #expect(pipe[dynamicMember: \.[longItem: number]]([]) == "registered")
        }
    }
}
