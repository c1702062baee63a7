import ActionPipe
import Foundation
import Testing

extension Actions {
    fileprivate var sharedPark: Action<Int, Int> { .init() }
    fileprivate var sharedPing: Action<Int, Int> { .init() }
    fileprivate var sharedOther: Action<Int, Int> { .init() }
}

/// An object a handler captures, to see when it is released.
private final class SharedTracked: Sendable {}

/// A pipe handle one handler drops while another pipe's call runs.
private final class SharedHolder: @unchecked Sendable {
    // `@unchecked`: written by the handler on the calling thread only.
    var b: ActionPipe?
}

/// A chain's snapshot is cached in the slot of every pipe that called it, so one object can
/// be retired by one pipe's slot while a call that came through another pipe still reads
/// it. The retired snapshot must still be freed once that call ends (or by the next change),
/// and never keep the chain alive in a cycle with a pipe whose handle is gone.
@Suite("Read side: a snapshot shared by the pipes of a chain")
struct SharedSnapshotTests {
    @Test(
        "a handler that drops the last handle of another pipe of its chain leaks nothing",
        arguments: [false, true])
    func handleDroppedDuringACall(otherPipeCalledFirst: Bool) async {
        weak var tracked: SharedTracked?
        weak var weakA: ActionPipe?
        do {
            let holder = SharedHolder()
            let a = ActionPipe(name: "a")
            weakA = a
            holder.b = ActionPipe(name: "b")
            #expect(throws: Never.self) { try a.append(holder.b!) }
            do {
                let object = SharedTracked()
                tracked = object
                holder.b!.on(\.sharedPing) { process in
                    withExtendedLifetime(object) {}
                    return process.arguments
                }
            }
            a.on(\.sharedPark) { process in
                holder.b = nil  // b's handle goes while this call reads the chain's snapshot
                return process.arguments
            }
            // b's slot caches the chain's snapshot too, so b's `deinit` retires it while
            // the call on a still reads it.
            if otherPipeCalledFirst { #expect(holder.b!.sharedPing(1) == 1) }
            #expect(a.sharedPark(1) == 1)
        }
        #expect(weakA == nil)
        // Released here, or by another spec's store that found it unread first (one retired
        // list serves the process) as that store returns.
        #expect(await eventually { tracked == nil })
    }

    @Test("a change while a call on another pipe reads the chain's snapshot frees it after")
    func changeDuringACall() async {
        weak var tracked: SharedTracked?
        let a = ActionPipe(name: "a")
        let b = ActionPipe(name: "b")
        #expect(throws: Never.self) { try a.append(b) }
        let entered = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        a.on(\.sharedPark) { process in
            entered.signal()
            gate.wait()
            return process.arguments
        }
        let token: RegistrationToken
        do {
            let object = SharedTracked()
            tracked = object
            token = b.on(\.sharedPing) { process in
                withExtendedLifetime(object) {}
                return process.arguments
            }
        }
        #expect(b.sharedPing(1) == 1)  // b's slot caches the chain's snapshot
        let finished = await runOnThreads(2) { index in
            if index == 0 {
                _ = a.sharedPark(1)  // a caches it too, reads it, and waits
            } else {
                entered.wait()
                // Both slots drop the snapshot while the call on a reads it.
                #expect(token.cancel())
                gate.signal()
            }
        }
        #expect(finished)
        // The call on a was the snapshot's last reader: it freed it as it ended (or another
        // spec's store did, first).
        #expect(await eventually { tracked == nil })
        _ = b
    }
}
