import ActionPipe
import ActionPipeTesting
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import OrdersService
import Synchronization
import Testing

/// Every route, over the router (no socket), each test with a service of its own.
@Suite struct OrdersServiceTests {
    @Test func anOrderRunsTheChainAndReachesTheBusAndTheState() async throws {
        let (service, app) = try makeService()
        try await app.test(.router) { client in
            let request = OrderRequest(
                customer: "  ada ",
                lines: [.init(sku: "latte", quantity: 2), .init(sku: "croissant", quantity: 1)])
            let response = try await place(request, client)
            #expect(response.status == .created)
            let order = try decode(Order.self, response)
            #expect(order.id == 1)
            #expect(order.customer == "ada")  // trimmed by the validation pipe
            #expect(order.totalCents == 2 * 350 + 220)
            #expect(order.lines.map(\.unitCents) == [350, 220])
            #expect(!order.paid)

            try await client.execute(uri: "/orders/1", method: .get) { response async throws in
                #expect(response.status == .ok)
                #expect(try decode(Order.self, response) == order)
            }
            try await client.execute(uri: "/audit", method: .get) { response async throws in
                let audit = try decode(AuditAnswer.self, response)
                #expect(audit.entries == ["placed order 1 for ada: 920 cents"])
            }
            try await client.execute(uri: "/stats", method: .get) { response async throws in
                let stats = try decode(Stats.self, response)
                #expect(stats.ordersPlaced == 1)
                #expect(stats.revenueCents == 920)
                #expect(stats.ordersRejected == 0)
                #expect(stats.acceptingOrders)
                #expect(stats.catalogSize == 3)
            }
        }
        #expect(service.audit.all == ["placed order 1 for ada: 920 cents"])  // the bus subscriber
        #expect(service.changes.all == ["ordersPlaced = 1"])  // the state observer
    }

    @Test func badOrdersAre400WithAClearMessage() async throws {
        let (service, app) = try makeService()
        try await app.test(.router) { client in
            let cases: [(OrderRequest, String)] = [
                (
                    OrderRequest(customer: " ", lines: [.init(sku: "latte", quantity: 1)]),
                    "customer must not be empty"
                ),
                (OrderRequest(customer: "bob", lines: []), "an order needs at least one line"),
                (
                    OrderRequest(customer: "bob", lines: [.init(sku: "latte", quantity: 0)]),
                    "quantity of 'latte' must be 1 to 20, not 0"
                ),
                (
                    OrderRequest(customer: "bob", lines: [.init(sku: "unicorn", quantity: 1)]),
                    "unknown product 'unicorn'"
                ),
            ]
            for (request, message) in cases {
                let response = try await place(request, client)
                #expect(response.status == .badRequest)
                #expect(try errorMessage(response) == message)
            }
            // Not JSON at all: Hummingbird refuses it before the chain runs.
            let garbage = try await client.execute(
                uri: "/orders", method: .post, body: ByteBuffer(string: "{\"customer\": 1}"))
            #expect(garbage.status == .badRequest)
            #expect(try errorMessage(garbage).contains("customer"))

            try await client.execute(uri: "/orders/99", method: .get) { response async throws in
                #expect(response.status == .notFound)
                #expect(try errorMessage(response) == "no order 99")
            }
            try await client.execute(uri: "/orders/abc", method: .get) { response async throws in
                #expect(response.status == .badRequest)
            }
        }
        #expect(service.state.ordersRejected == 4)
        #expect(service.state.ordersPlaced == 0)
        #expect(service.audit.all.last == "rejected order for bob: unknown product 'unicorn'")
    }

    @Test func configIsStateThatTheChainReadsAndObserversLog() async throws {
        let (service, app) = try makeService()
        try await app.test(.router) { client in
            let close = try json(ServiceConfig(acceptingOrders: false))
            try await client.execute(uri: "/config", method: .put, body: close) {
                response async throws in
                #expect(response.status == .ok)
                #expect(try decode(ServiceConfig.self, response).acceptingOrders == false)
            }
            let order = OrderRequest(customer: "cy", lines: [.init(sku: "espresso", quantity: 1)])
            let refused = try await place(order, client)
            #expect(refused.status == .serviceUnavailable)
            #expect(try errorMessage(refused) == "the service is not accepting orders right now")

            let open = try json(ServiceConfig(acceptingOrders: true))
            try await client.execute(uri: "/config", method: .put, body: open)
            #expect(try await place(order, client).status == .created)
        }
        #expect(
            service.changes.all == [
                "acceptingOrders = false", "acceptingOrders = true", "ordersPlaced = 1",
            ])
        #expect(service.state.ordersRejected == 1)
    }

    @Test func catalogImportRunsTheTreeAndReportsRetriesAndFailures() async throws {
        let (service, app) = try makeService()
        try await app.test(.router) { client in
            let before = try await client.execute(
                uri: "/orders", method: .post,
                body: try json(
                    OrderRequest(customer: "dee", lines: [.init(sku: "mocha", quantity: 1)])))
            #expect(try errorMessage(before) == "unknown product 'mocha'")

            try await client.execute(uri: "/catalog/import?concurrency=2", method: .post) {
                response async throws in
                #expect(response.status == .ok)
                let summary = try decode(ImportSummary.self, response)
                #expect(summary.outcome == "completed")
                #expect(summary.succeeded == 1 + 3 + 7)  // the catalog, 3 categories, 7 products
                #expect(summary.retries == 1)  // mocha timed out once
                #expect(summary.failures == ["product 'stale-bagel': discontinued by the supplier"])
                #expect(summary.concurrencyLimit == 2)
                #expect(summary.peakConcurrency <= 2)
                #expect(
                    summary.productsImported
                        == [
                            "chai", "croissant", "espresso", "green-tea", "latte", "mocha",
                            "muffin",
                        ])
                #expect(summary.catalogSize == 7)
            }
            try await client.execute(uri: "/catalog", method: .get) { response async throws in
                let catalog = try decode(CatalogAnswer.self, response)
                #expect(catalog.products.count == 7)
                #expect(catalog.products.first { $0.sku == "mocha" }?.priceCents == 400)
            }
            let after = try await client.execute(
                uri: "/orders", method: .post,
                body: try json(
                    OrderRequest(customer: "dee", lines: [.init(sku: "mocha", quantity: 1)])))
            #expect(after.status == .created)
        }
        #expect(service.state.catalogSize == 7)
        #expect(service.changes.all.contains("lastImport = 7 products imported, 1 failed"))
    }

    /// The import in virtual time: the supplier's latency and the retry's backoff wait on a
    /// `TestClock`, so a 4-second import runs at once, and its timing is exact.
    @Test(.timeLimit(.minutes(1)))
    func catalogImportRunsInVirtualTimeOnATestClock() async throws {
        let clock = TestClock()
        var logger = Logger(label: "orders-test")
        logger.logLevel = .warning
        let service = try OrdersService(logger: logger, supplierLatency: .seconds(1), clock: clock)
        let app = buildApplication(service, logger: logger)
        let imports = ObservationRecorder(service.state.$lastImport)
        try await app.test(.router) { client in
            // The supplier's side, step by step: wait until the requests of a level are all
            // asleep on the clock, then let their second pass. The category list (1 request),
            // the categories (3), the products (8: under the limit of 16, all at once); then
            // mocha, which timed out, waits its 5 ms backoff and asks again.
            let supplier = Task {
                for (sleepers, step) in [
                    (1, Duration.seconds(1)), (3, .seconds(1)), (8, .seconds(1)),
                    (1, .milliseconds(5)), (1, .seconds(1)),
                ] {
                    guard await clock.waitForSleepers(sleepers) else { return false }
                    clock.advance(by: step)
                }
                return true
            }
            let response = try await client.execute(
                uri: "/catalog/import?concurrency=16", method: .post)
            #expect(await supplier.value)
            let summary = try decode(ImportSummary.self, response)
            #expect(summary.succeeded == 1 + 3 + 7)
            #expect(summary.retries == 1)
            #expect(summary.peakConcurrency == 8)
        }
        // Four seconds and the backoff of supplier time, in no time.
        #expect(clock.now == TestClock.Instant(offset: .seconds(4) + .milliseconds(5)))
        #expect(imports.values == ["7 products imported, 1 failed"])  // the state observer
    }

    /// Another team's module joins the order chain: loyalty points for the orders placed at
    /// the kiosk. It runs last, only when an order was stored (`upstreamNotNil`) and the
    /// call carries the kiosk's side data (a condition); the trace says why it did not run.
    @Test func aModuleJoinsTheChainWithSideDataAndConditions() throws {
        let (service, _) = try makeService()
        let kiosk = SideDataKey<Bool>("kiosk")
        let points = Recorder<String>()
        let loyalty = ActionPipe(name: "loyalty")
        loyalty.on(\.placeOrder).upstreamNotNil()
            .when("ordered at the kiosk") { process in process.sideData[kiosk] == true }
            .handle { process in
                if let order = process.upstream {
                    points.record("\(order.customer) +\(order.totalCents / 100)")
                }
                return process.upstream
            }
        try service.orders.append(loyalty)  // validation → pricing → persistence → loyalty

        let latte = OrderRequest(customer: "ada", lines: [.init(sku: "latte", quantity: 3)])
        let atKiosk = service.orders.placeOrder.with(kiosk, true).report(latte)
        #expect(atKiosk.value?.totalCents == 1050)
        #expect(atKiosk.trace.ranPipes == ["validation", "pricing", "persistence", "loyalty"])
        #expect(points.values == ["ada +10"])

        // Without the side data (an order from the web), the condition skips the module.
        let online = service.orders.placeOrder.report(latte)
        #expect(online.value?.id == 2)
        #expect(online.trace.skipReason(of: "loyalty") == .conditionFailed("ordered at the kiosk"))

        // A refused request stores nothing, and no later pipe runs.
        let empty = OrderRequest(customer: "bob", lines: [])
        let refused = service.orders.placeOrder.with(kiosk, true).report(empty)
        #expect(refused.error as? OrderError == .invalid("an order needs at least one line"))
        #expect(refused.trace.skipReason(of: "loyalty") == .earlierHandlerThrew)
        #expect(points.values == ["ada +10"])
    }

    /// A sticky event: the bus keeps the newest of its topic, and a subscriber that comes
    /// later (a dashboard showing the last order) receives it at once, while subscribing.
    @Test func aLateSubscriberReceivesTheStickyEventAtOnce() throws {
        let (service, _) = try makeService()
        let placed = BusTopic(OrderEvent.self, .placed)
        service.bus.publishSticky(OrderEvent(.placed, orderID: 1, customer: "ada", totalCents: 350))
        service.bus.publishSticky(OrderEvent(.placed, orderID: 2, customer: "bob", totalCents: 250))

        let dashboard = BusRecorder(service.bus, placed)
        #expect(dashboard.events.map(\.orderID) == [2])  // the newest, replayed on subscribing
        #expect(service.bus.stickyEvent(for: placed)?.customer == "bob")
        service.bus.publish(OrderEvent(.placed, orderID: 3, customer: "cy", totalCents: 220))
        #expect(dashboard.events.map(\.orderID) == [2, 3])  // then every event, as usual

        // A plain publish is delivered to the subscribers of the moment, and kept by no one.
        let rejected = BusTopic(OrderEvent.self, .rejected)
        service.bus.publish(OrderEvent(.rejected, orderID: nil, customer: "dee", reason: "closed"))
        #expect(BusRecorder(service.bus, rejected).events.isEmpty)
        #expect(service.audit.all.count == 4)  // subscribed from the start: it saw all four
    }

    @Test(arguments: ["0", "17", "many"])
    func importRefusesABadConcurrencyLimit(_ limit: String) async throws {
        let (_, app) = try makeService()
        try await app.test(.router) { client in
            try await client.execute(uri: "/catalog/import?concurrency=\(limit)", method: .post) {
                response async throws in
                #expect(response.status == .badRequest)
                #expect(try errorMessage(response) == "concurrency must be 1 to 16, not '\(limit)'")
            }
        }
    }

    @Test func paymentNoticesRunThroughThePlumbing() async throws {
        let (service, app) = try makeService()
        try await app.test(.router) { client in
            try await place(
                OrderRequest(customer: "eve", lines: [.init(sku: "latte", quantity: 1)]), client)

            func notify(_ orderID: Int, _ amount: Int, signature: String? = nil) async throws
                -> (TestResponse, WebhookAnswer)
            {
                let notice = PaymentNotice(
                    orderID: orderID, amountCents: amount,
                    signature: signature
                        ?? PaymentNotice.sign(orderID: orderID, amountCents: amount))
                let response = try await client.execute(
                    uri: "/webhooks/payments", method: .post, body: try json(notice))
                return (response, try decode(WebhookAnswer.self, response))
            }

            let (refusedResponse, badSignature) = try await notify(1, 350, signature: "forged")
            #expect(refusedResponse.status == .unprocessableContent)
            #expect(badSignature.stage == "signature" && badSignature.reason == "bad signature")
            let unknown = try await notify(7, 350).1
            #expect(unknown.stage == "known-order" && unknown.reason == "no order 7")
            let short = try await notify(1, 300).1
            #expect(short.stage == "amount" && short.reason == "paid 300 cents, order 1 costs 350")

            let (paidResponse, paid) = try await notify(1, 350)
            #expect(paidResponse.status == .accepted)
            #expect(paid.accepted && paid.stage == nil)
            let replay = try await notify(1, 350).1
            #expect(replay.stage == "not-paid-yet" && replay.reason == "order 1 is already paid")

            try await client.execute(uri: "/orders/1", method: .get) { response async throws in
                #expect(try decode(Order.self, response).paid)
            }
            let malformed = try await client.execute(
                uri: "/webhooks/payments", method: .post, body: ByteBuffer(string: "not json"))
            #expect(malformed.status == .badRequest)
        }
        #expect(service.state.ordersPaid == 1)
        #expect(service.state.webhooksRefused == 4)
        #expect(service.audit.all.last == "paid order 1 for eve: 350 cents")
    }

    @Test func diagnosticsGoToSwiftLog() {
        let recorded = RecordedLogs()
        let logger = Logger(label: "diagnostics") { _ in recorded }
        let handler = ServiceInstrumentation.diagnosticsHandler(logger: logger)
        handler(Diagnostic(.handlerErrorDropped, "a subscriber threw", error: CancellationError()))
        #expect(recorded.all == ["warning a subscriber threw kind=handlerErrorDropped"])
    }

    @Test func instrumentLogsEveryOperation() {
        let recorded = RecordedLogs()
        let logger = Logger(label: "instrument") { _ in recorded }
        let instrument = LogInstrument(logger: logger)
        let call = InstrumentedOperation(kind: .call, name: "placeOrder", detail: "validation")
        instrument.end(call, context: nil, duration: .microseconds(12), outcome: .succeeded)
        struct Refused: Error {}
        let item = InstrumentedOperation(kind: .treeItem, name: "product", detail: "product#3")
        instrument.end(item, context: nil, duration: .zero, outcome: .failed(Refused()))
        #expect(
            recorded.all == [
                "debug call placeOrder on validation: succeeded kind=call",
                "warning treeItem product on product#3: failed: Refused() kind=treeItem",
            ])
    }
}

/// A swift-log handler that keeps "level message kind=..." lines, for the tests.
struct RecordedLogs: LogHandler {
    private final class Lines: Sendable {
        let storage = Mutex<[String]>([])
    }

    private let lines = Lines()
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    /// What was logged, oldest first.
    var all: [String] { lines.storage.withLock { $0 } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let kind = event.metadata?["actionpipe.kind"].map { " kind=\($0)" } ?? ""
        lines.storage.withLock { $0.append("\(event.level) \(event.message)\(kind)") }
    }
}
