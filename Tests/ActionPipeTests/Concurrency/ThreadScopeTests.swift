import ActionPipeConcurrency
import Foundation
import Testing

/// The concurrency module's thread-bound scope, driven directly: `Diagnostics.withHandler`
/// relies on these rules (the innermost scope receives, the outer one is current again
/// after it, and another thread never sees it).
@Suite("Concurrency module: ThreadScope")
struct ThreadScopeTests {
    final class Scope: Sendable {
        let name: String
        init(_ name: String) { self.name = name }
    }

    @Test("a thread has no current object outside a scope")
    func noneOutside() {
        let scopes = ThreadScope<Scope>()
        #expect(scopes.borrowCurrent { $0.name } == nil)
    }

    @Test("scopes nest: the innermost is current, the outer one again after it ends")
    func nesting() {
        let scopes = ThreadScope<Scope>()
        let seen = scopes.withCurrent(Scope("outer")) {
            let outer = scopes.borrowCurrent { $0.name }
            let inner = scopes.withCurrent(Scope("inner")) { scopes.borrowCurrent { $0.name } }
            let after = scopes.borrowCurrent { $0.name }
            return [outer, inner, after]
        }
        #expect(seen == ["outer", "inner", "outer"])
        #expect(scopes.borrowCurrent { $0.name } == nil)
    }

    @Test("a scope ends when its operation throws")
    func endsOnThrow() {
        struct Failure: Error {}
        let scopes = ThreadScope<Scope>()
        #expect(throws: Failure.self) {
            try scopes.withCurrent(Scope("thrown")) { throw Failure() }
        }
        #expect(scopes.borrowCurrent { $0.name } == nil)
    }

    @Test("another thread does not see the scope")
    func threadBound() {
        let scopes = ThreadScope<Scope>()
        let other = scopes.withCurrent(Scope("here")) { () -> String? in
            let seen = TestLock<String?>("unset")
            let done = DispatchSemaphore(value: 0)
            Thread {
                seen.withLock { $0 = scopes.borrowCurrent { $0.name } }
                done.signal()
            }.start()
            #expect(done.wait(timeout: .now() + 60) == .success)
            return seen.withLock { $0 }
        }
        #expect(other == nil)
    }

    @Test("the thread's slot keeps nothing alive after the scope")
    func retainsNothing() {
        let scopes = ThreadScope<Scope>()
        weak var released: Scope?
        do {
            let scope = Scope("gone")
            released = scope
            scopes.withCurrent(scope) {}
        }
        #expect(released == nil)
    }
}
