import Dispatch
import Testing

@testable import ActionPipe

/// `_BusLink` keeps its ends under the package's one lock (`LockedValue`), whose edges
/// ThreadSanitizer sees: these specs race its every entry point, so the sanitized run (CI's
/// second pass) reports an access the lock does not order.
@Suite("Connectors: a link's ends, raced")
struct ConnectorsLinkLockTests {
    @Test("ends added while another thread ends the link each run exactly once")
    func addRacesEnd() {
        let rounds = 500
        let ran = Counter()
        let added = Counter()
        for _ in 0..<rounds {
            let link = _BusLink(scope: "race", label: "link")
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                switch index {
                case 0: link.end()
                case 1: _ = link.isActive
                default:
                    added.increment()
                    link.add { ran.increment() }
                }
            }
            link.end()  // a no-op when thread 0 ended it after every add
            #expect(!link.isActive)
        }
        #expect(added.value == rounds * 2)
        #expect(ran.value == rounds * 2)  // every end ran once: by end(), or by add() after it
    }

    @Test("the token and the link agree, cancelled from several threads at once")
    func tokenCancelRaces() {
        for _ in 0..<200 {
            let link = _BusLink(scope: "race", label: "link")
            let ran = Counter()
            link.add { ran.increment() }
            let token = link.token
            let cancelled = Counter()
            DispatchQueue.concurrentPerform(iterations: 3) { _ in
                if token.cancel() { cancelled.increment() }
            }
            #expect(cancelled.value == 1)
            #expect(ran.value == 1)
            #expect(!token.isActive)
        }
    }
}
