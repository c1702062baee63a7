import Testing

/// The guard that turns a never-opened test gate into a report instead of a hang.
@Suite("Test support: a gate nobody opens is released and reported")
struct HangGuardTests {
    @Test("A guarded gate left closed is opened after the delay; an opened one is left alone")
    func releasesOnlyWhatStillWaits() async throws {
        let stuck = TreeGate()
        HangGuard.arm("probe", after: .milliseconds(20)) {
            stuck.open()
            return true
        }
        await stuck.wait()  // returns only because the guard opened it

        let calls = Mutex(0)
        let opened = TreeGate()
        opened.open()
        HangGuard.arm("probe", after: .milliseconds(20)) {
            calls.withLock { $0 += 1 }
            return false
        }
        await opened.wait()
        try await Task.sleep(for: .milliseconds(200))
        #expect(calls.withLock { $0 } == 1, "the guard asks once, and reports nothing")
    }
}
