/// A ring buffer: push at either end, pop at the front, O(1) amortised. The capacity is a
/// power of two, so wrapping is a mask.
struct _TreeDeque<Element> {
    private var storage: ContiguousArray<Element?> = []
    private var head = 0
    private(set) var count = 0

    mutating func pushBack(_ element: Element) {
        if count == storage.count { grow() }
        storage[(head &+ count) & (storage.count &- 1)] = element
        count += 1
    }

    mutating func pushFront(_ element: Element) {
        if count == storage.count { grow() }
        head = (head &- 1) & (storage.count &- 1)
        storage[head] = element
        count += 1
    }

    mutating func popFront() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head].take()
        head = (head &+ 1) & (storage.count &- 1)
        count -= 1
        return element
    }

    private mutating func grow() {
        var bigger = ContiguousArray<Element?>(repeating: nil, count: max(16, storage.count * 2))
        for offset in 0..<count {
            bigger[offset] = storage[(head &+ offset) & (storage.count &- 1)]
        }
        storage = bigger
        head = 0
    }
}
