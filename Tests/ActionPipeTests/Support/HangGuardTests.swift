import Testing

/// The guard that turns a never-opened test gate into a report instead of a hang.
@Suite("Test support: a gate nobody opens is released and reported")
struct HangGuardTests {
    @Test("A guarded gate left closed is opened after the delay")
    func releasesAGateLeftClosed() async {
        let stuck = TreeGate()
        HangGuard.arm("probe", after: .milliseconds(20)) {
            stuck.open()
            return true
        }
        await stuck.wait()  // returns only because the guard opened it
    }

    @Test("The guard asks once, after the delay, whether anyone still waits")
    func asksOnceAfterTheDelay() async {
        let asked = TreeGate()
        let calls = TestLock(0)
        let start = ContinuousClock.now
        HangGuard.arm("probe", after: .milliseconds(20)) {
            calls.withLock { $0 += 1 }
            asked.open()
            return false  // nobody waited: nothing is reported
        }
        await asked.wait()
        #expect(ContinuousClock.now - start >= .milliseconds(20))
        #expect(calls.withLock { $0 } == 1)
    }
}
