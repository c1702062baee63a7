import ActionPipe
import Logging

/// The service: the five parts, wired once, shared by every request.
public final class OrdersService: Sendable {
    /// The live state (configuration and counters): `GET /stats`, `PUT /config`.
    public let state = ServiceState()
    /// Where order events are published.
    public let bus = EventBus(name: "orders")
    /// The products on sale.
    public let catalog: Catalog
    /// The orders.
    public let store = OrderStore()
    /// The head of the order chain (validation → pricing → persistence).
    public let orders: ActionPipe
    /// A bus subscriber: `GET /audit`.
    public let audit: AuditLog
    /// State observers that log each change.
    public let changes: StateChangeLog
    /// A bus subscriber that feeds the state's counters.
    let statistics: Statistics
    /// The payment-notice plumbing.
    let payments: PaymentWebhooks
    /// The simulated supplier that `POST /catalog/import` reads.
    let supplier: Supplier
    /// The clock the supplier's latency and the import's retry backoff wait on.
    let clock: any Clock<Duration>
    /// The service's logger.
    let logger: Logger

    /// A service with the starting catalog (espresso, latte, croissant) and a supplier whose
    /// every request takes `supplierLatency` on `clock` (the import's retries wait on it too;
    /// tests pass a `TestClock`).
    public init(
        logger: Logger, supplierLatency: Duration = .milliseconds(20),
        clock: any Clock<Duration> = ContinuousClock()
    ) throws {
        self.logger = logger
        self.clock = clock
        catalog = Catalog([
            Product(sku: "espresso", name: "Espresso", priceCents: 250),
            Product(sku: "latte", name: "Latte", priceCents: 350),
            Product(sku: "croissant", name: "Croissant", priceCents: 220),
        ])
        supplier = Supplier(latency: supplierLatency, clock: clock)
        orders = try makeOrderChain(state: state, catalog: catalog, store: store)
        audit = AuditLog(bus: bus, logger: logger)
        statistics = Statistics(state: state, bus: bus)
        changes = StateChangeLog(state: state, logger: logger)
        payments = try PaymentWebhooks(
            orders: orders, store: store, bus: bus, state: state, logger: logger)
        state.catalogSize = catalog.all.count
    }

    /// Shares the order events with the other instances connected to `bridge`'s transport:
    /// each ``OrderEvent`` published here is sent, and theirs are published here as remote
    /// (the audit log marks them; the statistics count the orders placed elsewhere).
    ///
    /// ```swift
    /// service.share(through: postgres.busBridge)   // main.swift, with --postgres
    /// ```
    public func share(through bridge: BusBridge) {
        bridge.bridge(BusTopic(anySubtypeOf: OrderEvent.self))
    }
}
