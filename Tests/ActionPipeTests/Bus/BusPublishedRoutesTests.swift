import Dispatch
import Testing

// White-box: the reclamation protocol of the routes publishes read is internal, and a debug
// build's extra retains hide it from the public API (a publish's own copies keep what it
// reads alive there), so these specs drive it directly.
@testable import ActionPipe

@Suite("Bus published routes: hazard slots")
struct BusPublishedRoutesTests {
    @Test("a replaced table nobody reads is freed at once")
    func freedAtOnce() {
        let published = _BusPublishedRoutes()
        let freed = published.replace(with: [:])
        #expect(freed.count == 1)  // the initial table
        #expect(!isPending(published))
    }

    @Test("a replaced table a slot holds waits, and the reader that clears the slot frees it")
    func readerFreesIt() {
        let published = _BusPublishedRoutes()
        let thread = published.hazards.record()
        let slot = thread.slot(thread.depth)
        let table = published.protect(slot)
        weak let weakTable = table.takeUnretainedValue()
        #expect(published.replace(with: [:]).isEmpty)  // still read: kept
        #expect(weakTable != nil)
        #expect(isPending(published))
        published.release(slot)
        #expect(weakTable == nil)
        #expect(!isPending(published))
    }

    @Test("a table read on another thread outlives changes until that thread is done with it")
    func otherThreadsSlot() throws {
        let published = _BusPublishedRoutes()
        let protected = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let address = BusTestBox<UInt>(0)
        DispatchQueue.global().async {
            let thread = published.hazards.record()
            let slot = thread.slot(thread.depth)
            let table = published.protect(slot)
            address.set(UInt(bitPattern: table.toOpaque()))
            protected.signal()
            _ = done.wait(timeout: .now() + 30)
            published.release(slot)
            finished.signal()
        }
        try #require(protected.wait(timeout: .now() + 30) == .success)
        #expect(published.hazards.addressesInUse().contains(address.value))
        #expect(published.replace(with: [:]).isEmpty)
        #expect(published.replace(with: [:]).count == 1)  // the second table: nobody read it
        #expect(isPending(published))
        done.signal()
        try #require(finished.wait(timeout: .now() + 30) == .success)
        #expect(!isPending(published))
        #expect(!published.hazards.addressesInUse().contains(address.value))
    }

    @Test("a reader whose table was replaced before it published its slot reads the new one")
    func protectRereads() {
        let published = _BusPublishedRoutes()
        let thread = published.hazards.record()
        let slot = thread.slot(thread.depth)
        _ = published.replace(with: [:])
        let current = published.current.load(ordering: .acquiring)
        let table = published.protect(slot)
        #expect(UInt(bitPattern: table.toOpaque()) == current)
        let held = slot.pointee.load(ordering: .relaxed)
        #expect(held == current)
        published.release(slot)
        let cleared = slot.pointee.load(ordering: .relaxed)
        #expect(cleared == 0)
    }
}

/// Whether `published` has retired tables waiting (read outside `#expect`, which cannot
/// take the non-copyable atomic).
private func isPending(_ published: _BusPublishedRoutes) -> Bool {
    published.pending.load(ordering: .relaxed)
}
