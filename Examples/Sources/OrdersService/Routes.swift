import ActionPipe
import Foundation
import Hummingbird
import Logging

/// The request context of the routes: Hummingbird's basic one, with JSON keys sorted so
/// that answers read the same every time.
public struct OrdersRequestContext: RequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage

    /// A context for one request.
    public init(source: Source) { coreContext = .init(source: source) }

    /// JSON with sorted keys.
    public var responseEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}

/// `GET /stats`: the counters and configuration of ``ServiceState``.
public struct Stats: ResponseCodable {
    /// Whether orders are taken.
    public var acceptingOrders: Bool
    /// Orders stored.
    public var ordersPlaced: Int
    /// Orders placed on other instances (`--postgres`).
    public var ordersPlacedElsewhere: Int
    /// Order requests refused.
    public var ordersRejected: Int
    /// Orders paid.
    public var ordersPaid: Int
    /// The total of the orders stored, in cents.
    public var revenueCents: Int
    /// Payment notices refused.
    public var webhooksRefused: Int
    /// Products on sale.
    public var catalogSize: Int
    /// What the last import did.
    public var lastImport: String?
}

/// `PUT /config`'s body and answer.
public struct ServiceConfig: ResponseCodable {
    /// Whether `POST /orders` takes orders.
    public var acceptingOrders: Bool

    /// A configuration.
    public init(acceptingOrders: Bool) { self.acceptingOrders = acceptingOrders }
}

/// `POST /webhooks/payments`'s answer.
public struct WebhookAnswer: ResponseCodable {
    /// Whether every stage passed the notice.
    public var accepted: Bool
    /// The stage that refused it.
    public var stage: String?
    /// Why.
    public var reason: String?
}

/// `GET /audit`'s answer.
public struct AuditAnswer: ResponseCodable {
    /// The audit log's entries, oldest first.
    public var entries: [String]
}

/// `GET /catalog`'s answer.
public struct CatalogAnswer: ResponseCodable {
    /// The products on sale, by SKU.
    public var products: [Product]
}

extension Order: ResponseCodable {}
extension ImportSummary: ResponseCodable {}

/// The routes, each a few lines over one part of ActionPipe.
public func buildRouter(_ service: OrdersService) -> Router<OrdersRequestContext> {
    let router = Router(context: OrdersRequestContext.self)
    router.add(middleware: LogRequestsMiddleware(.info))

    // The core: the order chain answers; the bus announces the result.
    router.post("orders") { request, context -> EditedResponse<Order> in
        let body = try await request.decode(as: OrderRequest.self, context: context)
        let report = service.orders.placeOrder.report(body)
        context.logger.debug("\(report.trace)")  // what each pipe did, and why
        if let order = report.value {
            service.bus.publish(
                OrderEvent(
                    .placed, orderID: order.id, customer: order.customer,
                    totalCents: order.totalCents))
            return EditedResponse(status: .created, response: order)
        }
        // `report.error` is `any Error`, even for a `ThrowingAction` with a typed error.
        guard let error = report.error as? OrderError else {
            throw HTTPError(.internalServerError, message: "the order chain did not answer")
        }
        service.bus.publish(
            OrderEvent(.rejected, orderID: nil, customer: body.customer, reason: "\(error)"))
        throw HTTPError(error == .closed ? .serviceUnavailable : .badRequest, message: "\(error)")
    }
    router.get("orders/:id") { _, context -> Order in
        let id = try context.parameters.require("id", as: Int.self)
        guard let order = service.orders.findOrder(id) else {
            throw HTTPError(.notFound, message: "no order \(id)")
        }
        return order
    }

    // The plumbing: a payment notice runs through the stages into the sink.
    router.post("webhooks/payments") { request, context -> EditedResponse<WebhookAnswer> in
        let notice = try await request.decode(as: PaymentNotice.self, context: context)
        let outcome = await service.payments.webhook.process(notice)
        guard let reason = outcome.reason else {
            return EditedResponse(status: .accepted, response: WebhookAnswer(accepted: true))
        }
        let answer = WebhookAnswer(
            accepted: false, stage: outcome.stage, reason: reason.refusal ?? "\(reason)")
        return EditedResponse(status: .unprocessableContent, response: answer)
    }

    // The tree: a catalog import with a concurrency limit and retries.
    router.post("catalog/import") { request, _ -> ImportSummary in
        let raw = request.uri.queryParameters["concurrency"].map(String.init) ?? "4"
        guard let limit = Int(raw), (1...16).contains(limit) else {
            throw HTTPError(.badRequest, message: "concurrency must be 1 to 16, not '\(raw)'")
        }
        let summary = await importCatalog(
            from: service.supplier, into: service.catalog, concurrencyLimit: limit,
            logger: service.logger, clock: service.clock)
        service.state.catalogSize = summary.catalogSize
        service.state.lastImport =
            "\(summary.productsImported.count) products imported, \(summary.failures.count) failed"
        return summary
    }
    router.get("catalog") { _, _ in CatalogAnswer(products: service.catalog.all) }

    // The state: read by `/stats`, written by `/config`; observers log every change.
    router.get("stats") { _, _ in
        let state = service.state
        return Stats(
            acceptingOrders: state.acceptingOrders, ordersPlaced: state.ordersPlaced,
            ordersPlacedElsewhere: state.ordersPlacedElsewhere,
            ordersRejected: state.ordersRejected, ordersPaid: state.ordersPaid,
            revenueCents: state.revenueCents, webhooksRefused: state.webhooksRefused,
            catalogSize: state.catalogSize, lastImport: state.lastImport)
    }
    router.put("config") { request, context -> ServiceConfig in
        let config = try await request.decode(as: ServiceConfig.self, context: context)
        service.state.acceptingOrders = config.acceptingOrders
        return ServiceConfig(acceptingOrders: service.state.acceptingOrders)
    }

    // The bus: what the audit subscriber recorded.
    router.get("audit") { _, _ in AuditAnswer(entries: service.audit.all) }
    return router
}

/// The HTTP application of `service`, listening on `host`:`port`.
public func buildApplication(
    _ service: OrdersService, host: String = "127.0.0.1", port: Int = 8080, logger: Logger
) -> some ApplicationProtocol {
    Application(
        router: buildRouter(service),
        configuration: .init(address: .hostname(host, port: port), serverName: "orders"),
        logger: logger)
}
