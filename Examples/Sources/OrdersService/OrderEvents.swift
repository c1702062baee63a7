import ActionPipe
import Logging
import Synchronization

// The bus: after a write, the routes and the payment sink publish what happened. They do not
// know who listens; the audit log and the statistics do (Docs/EventBusGuide.md).
// With `--postgres URL`, the events also cross to the other instances, and theirs arrive here
// as remote ones (Docs/CrossProcessBus.md).

/// Something that happened to an order; `Codable`, to cross to other instances.
public struct OrderEvent: BusEvent, Codable {
    /// Which event of the order's life it is.
    public enum Kind: String, Codable, Hashable, Sendable {
        /// The order chain stored a new order.
        case placed
        /// The order chain refused a request.
        case rejected
        /// A payment webhook for the order's whole total was accepted.
        case paid
    }

    /// Which event it is.
    public let subtype: Kind
    /// The order's number; `nil` for a rejected request.
    public let orderID: Int?
    /// Who ordered.
    public let customer: String
    /// The order's total in cents; 0 for a rejected request.
    public let totalCents: Int
    /// Why a request was rejected; empty otherwise.
    public let reason: String

    /// An event of kind `subtype`.
    public init(
        _ subtype: Kind, orderID: Int?, customer: String, totalCents: Int = 0, reason: String = ""
    ) {
        self.subtype = subtype
        self.orderID = orderID
        self.customer = customer
        self.totalCents = totalCents
        self.reason = reason
    }
}

/// A subscriber: one line per order event, kept for `GET /audit` and logged; an event from
/// another instance (through a bridge) says so.
public final class AuditLog: Sendable {
    private let entries = Mutex<[String]>([])
    private let logger: Logger

    /// Subscribes to every kind of ``OrderEvent`` on `bus`, for as long as the log lives.
    public init(bus: EventBus, logger: Logger) {
        self.logger = logger
        bus.subscribe(BusTopic(anySubtypeOf: OrderEvent.self), owner: self, name: "audit") {
            audit, event in audit.record(event)
        }
    }

    /// Every entry so far, oldest first.
    public var all: [String] { entries.withLock { $0 } }

    private func record(_ event: OrderEvent) {
        let order = event.orderID.map { "order \($0)" } ?? "order"
        var line =
            switch event.subtype {
            case .placed: "placed \(order) for \(event.customer): \(event.totalCents) cents"
            case .rejected: "rejected \(order) for \(event.customer): \(event.reason)"
            case .paid: "paid \(order) for \(event.customer): \(event.totalCents) cents"
            }
        var metadata: Logger.Metadata = [:]
        if case .remote(let sender) = BusOrigin.current {
            line += " (from another instance)"
            metadata["instance"] = "\(sender)"
        }
        entries.withLock { $0.append(line) }
        logger.info("audit: \(line)", metadata: metadata)
    }
}

/// A subscriber: turns order events into the counters of ``ServiceState``. The counters are
/// this instance's; of the other instances' events it counts the orders placed.
final class Statistics: Sendable {
    let state: ServiceState

    /// Subscribes to every kind of ``OrderEvent`` on `bus`, for as long as it lives.
    init(state: ServiceState, bus: EventBus) {
        self.state = state
        bus.subscribe(BusTopic(anySubtypeOf: OrderEvent.self), owner: self, name: "statistics") {
            statistics, event in
            let state = statistics.state
            if case .remote = BusOrigin.current {
                if event.subtype == .placed { state.$ordersPlacedElsewhere.modify { $0 += 1 } }
                return
            }
            switch event.subtype {
            case .placed:
                state.$ordersPlaced.modify { $0 += 1 }  // atomic: requests run concurrently
                state.$revenueCents.modify { $0 += event.totalCents }
            case .rejected:
                state.$ordersRejected.modify { $0 += 1 }
            case .paid:
                state.$ordersPaid.modify { $0 += 1 }
            }
        }
    }
}
