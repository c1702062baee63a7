import ActionPipe
import Logging
import Synchronization

// The state: what the service is doing now, shared by the parts that write it (the
// statistics subscriber, the import, the payment plumbing, `PUT /config`) and the parts that
// read or watch it (`GET /stats`, the change log), none of which know one another
// (Docs/ObservableStateGuide.md).

/// The service's live state: its configuration and its counters.
public final class ServiceState: ObservableState, @unchecked Sendable {
    /// Configuration: whether `POST /orders` takes orders (`PUT /config` changes it).
    @Observed("config.acceptingOrders") public var acceptingOrders = true
    /// Orders stored.
    @Observed("stats.ordersPlaced") public var ordersPlaced = 0
    /// Orders placed on other instances, heard through the bridge (`--postgres`).
    @Observed("stats.ordersPlacedElsewhere") public var ordersPlacedElsewhere = 0
    /// Order requests refused by the order chain.
    @Observed("stats.ordersRejected") public var ordersRejected = 0
    /// Orders paid through the payment webhook.
    @Observed("stats.ordersPaid") public var ordersPaid = 0
    /// The total of the orders stored, in cents.
    @Observed("stats.revenueCents") public var revenueCents = 0
    /// Payment webhooks a plumbing stage refused.
    @Observed("stats.webhooksRefused") public var webhooksRefused = 0
    /// How many products are on sale.
    @Observed("stats.catalogSize") public var catalogSize = 0
    /// What the last catalog import did, if one ran.
    @Observed("stats.lastImport") public var lastImport: String? = nil

    /// A state with the defaults.
    public init() {}
}

/// Observers of ``ServiceState``: each change of the configuration, the order count and the
/// import becomes a log line, kept for the tests and written to the logger.
public final class StateChangeLog: Sendable {
    private let lines = Mutex<[String]>([])
    private let logger: Logger

    /// Observes `state` for as long as this log lives.
    public init(state: ServiceState, logger: Logger) {
        self.logger = logger
        state.$acceptingOrders.observe(owner: self) { log, accepting in
            log.append("acceptingOrders = \(accepting)", level: .notice)
        }
        state.$ordersPlaced.observe(owner: self) { log, count in
            log.append("ordersPlaced = \(count)", level: .info)
        }
        state.$lastImport.observe(owner: self) { log, summary in
            log.append("lastImport = \(summary ?? "none")", level: .info)
        }
    }

    /// Every change seen so far, oldest first.
    public var all: [String] { lines.withLock { $0 } }

    private func append(_ line: String, level: Logger.Level) {
        lines.withLock { $0.append(line) }
        logger.log(level: level, "state: \(line)")
    }
}
