import ActionPipe
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A helper that makes descriptors for several properties: unless it forwards `name:`,
/// every property using it would be the same action.
private func idMake(name: String = #function) -> Action<Int, Int> { .init(name: name) }
private func idMakeForgetful() -> Action<Int, Int> { .init() }

extension Actions {
    fileprivate var idFirst: Action<Int, Int> { .init() }
    fileprivate var idSecond: Action<Int, Int> { .init() }
    fileprivate var idForwarded1: Action<Int, Int> { idMake() }
    fileprivate var idForwarded2: Action<Int, Int> { idMake() }
    fileprivate var idShared1: Action<Int, Int> { idMakeForgetful() }
    fileprivate var idShared2: Action<Int, Int> { idMakeForgetful() }
}

@Suite("Action identity")
struct ActionIdentityTests {
    @Test("Each property that writes .init() is its own action")
    func distinctProperties() {
        let pipe = ActionPipe(name: "p")
        pipe.on(\.idFirst) { process in process.arguments + 1 }
        pipe.on(\.idSecond) { process in process.arguments + 2 }
        #expect(pipe.idFirst(10) == 11)
        #expect(pipe.idSecond(10) == 12)
        #expect(pipe.idFirst.report(0).trace.action == "idFirst")
    }

    @Test("Two declarations on one line are two actions")
    func sameLine() {
        let pipe = ActionPipe(name: "p")
        pipe.on(\.idLeft) { _ in 1 }
        #expect(pipe.idLeft(0) == 1)
        #expect(pipe.idRight(0) == nil)
        #expect(pipe.handles(\.idLeft))
        #expect(!pipe.handles(\.idRight))
    }

    @Test("A helper that forwards name: makes one action per property")
    func forwardingHelper() {
        let pipe = ActionPipe(name: "p")
        pipe.on(\.idForwarded1) { _ in 1 }
        pipe.on(\.idForwarded2) { _ in 2 }
        #expect(pipe.idForwarded1(0) == 1)
        #expect(pipe.idForwarded2(0) == 2)
    }

    @Test("The same key path registered again is not a collision")
    func sameKeyPathTwice() {
        let pipe1 = ActionPipe(name: "p1")
        let pipe2 = ActionPipe(name: "p2")
        pipe1.on(\.idFirst) { _ in 1 }
        pipe2.on(\.idFirst) { _ in 2 }
        pipe1.on(\.idFirst) { _ in 3 }
        #expect(pipe1.idFirst(0) == 3)
        #expect(pipe2.idFirst(0) == 2)
    }

    @Test("Two properties sharing one descriptor site are reported as one action, not a crash")
    func sharedSiteIsReported() {
        let pipe = ActionPipe(name: "p")
        let reported = Diagnostics.record {
            pipe.on(\.idShared1) { _ in 1 }
            pipe.on(\.idShared2) { _ in 2 }  // the same action as idShared1
        }
        let clashes = reported.filter { $0.kind == .actionIdentityClash }
        #expect(clashes.count == 1)
        #expect(clashes.first?.message.contains("idMakeForgetful") == true)
        // One action: the second registration replaced the first.
        #expect(pipe.idShared1(0) == 2)
        #expect(pipe.idShared2(0) == 2)
    }
}
