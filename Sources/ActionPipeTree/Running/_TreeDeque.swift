/// A queue with a second end to push at, popped at the front; O(1) amortised. `front` holds
/// the first items, last first; `back` the later ones, in order.
struct _TreeDeque<Element> {
    private var front: [Element] = []
    private var back: [Element] = []

    var count: Int { front.count + back.count }

    mutating func pushFront(_ element: Element) { front.append(element) }

    mutating func pushBack(_ element: Element) { back.append(element) }

    mutating func popFront() -> Element? {
        if front.isEmpty {
            swap(&front, &back)
            front.reverse()
        }
        return front.popLast()
    }
}
