import Synchronization

/// What the analytics pipe saw, in call order.
final class PhotoAnalytics: Sendable {
    private let events = TestLock<[String]>([])

    var all: [String] { events.withLock { $0 } }

    func log(_ event: String) { events.withLock { $0.append(event) } }
}
