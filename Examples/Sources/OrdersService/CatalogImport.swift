import ActionPipe
import Logging

// The tree: importing a supplier's catalog is dependent async work (the category list, then
// each category's products, then each product's details) against a slow, flaky source, with
// a concurrency limit and retries (Docs/OperationTree.md).

/// Why a supplier request failed.
public struct SupplierError: Error, CustomStringConvertible {
    /// Whether trying again may help.
    public let isTransient: Bool
    /// What went wrong.
    public let description: String
}

/// A supplier's catalog API, simulated: every request takes `latency`; the details of
/// `mocha` fail on every other request (a timeout, worth a retry) and `stale-bagel` is
/// discontinued (never worth one).
public actor Supplier {
    private let latency: Duration
    private let clock: any Clock<Duration>
    private var mochaRequests = 0
    private let products: [String: [Product]] = [
        "coffee": [
            Product(sku: "espresso", name: "Espresso", priceCents: 250),
            Product(sku: "latte", name: "Latte", priceCents: 350),
            Product(sku: "mocha", name: "Mocha", priceCents: 400),
        ],
        "tea": [
            Product(sku: "green-tea", name: "Green tea", priceCents: 200),
            Product(sku: "chai", name: "Chai latte", priceCents: 320),
        ],
        "pastry": [
            Product(sku: "croissant", name: "Croissant", priceCents: 220),
            Product(sku: "muffin", name: "Blueberry muffin", priceCents: 280),
            Product(sku: "stale-bagel", name: "Bagel", priceCents: 150),
        ],
    ]

    /// A supplier whose every request takes `latency` on `clock`.
    public init(latency: Duration, clock: any Clock<Duration> = ContinuousClock()) {
        self.latency = latency
        self.clock = clock
    }

    /// `GET /categories`.
    func categories() async throws -> [String] {
        try await clock.sleep(for: latency)
        return products.keys.sorted()
    }

    /// `GET /categories/{name}`: the SKUs of a category.
    func skus(in category: String) async throws -> [String] {
        try await clock.sleep(for: latency)
        return products[category, default: []].map(\.sku)
    }

    /// `GET /products/{sku}`: a product's details and price.
    func details(of sku: String) async throws -> Product {
        try await clock.sleep(for: latency)
        if sku == "mocha" {
            mochaRequests += 1
            if mochaRequests % 2 == 1 {
                throw SupplierError(isTransient: true, description: "timed out")
            }
        }
        if sku == "stale-bagel" {
            throw SupplierError(isTransient: false, description: "discontinued by the supplier")
        }
        guard let product = products.values.joined().first(where: { $0.sku == sku }) else {
            throw SupplierError(isTransient: false, description: "no product '\(sku)'")
        }
        return product
    }
}

/// What `POST /catalog/import` returns: the tree's report, in JSON.
public struct ImportSummary: Codable, Sendable {
    /// `completed`, `cancelled` or `stopped by failure`.
    public var outcome: String
    /// Provider calls that succeeded: the catalog, its categories and the products imported.
    public var succeeded: Int
    /// Calls tried again after a transient failure.
    public var retries: Int
    /// Calls that failed for good, one line each; their subtrees were skipped.
    public var failures: [String]
    /// The most calls that ran at once.
    public var peakConcurrency: Int
    /// The limit the import ran with.
    public var concurrencyLimit: Int
    /// The products added to (or updated in) the catalog.
    public var productsImported: [String]
    /// How many products are on sale now.
    public var catalogSize: Int
}

/// Runs the import tree: catalog → category → product, the products going into `catalog`.
///
/// At most `concurrencyLimit` supplier requests run at once; a transient failure is tried
/// again (three attempts in all, 5 ms apart), a permanent one is reported at once.
func importCatalog(
    from supplier: Supplier, into catalog: Catalog, concurrencyLimit: Int, logger: Logger,
    clock: any Clock<Duration> = ContinuousClock()
) async -> ImportSummary {
    let root = OperationTreeNode(
        "catalog", objects: { (supplier: Supplier) in [supplier] },
        work: { (supplier: Supplier) in try await supplier.categories() })
    let category = OperationTreeNode(
        "category", objects: { (names: [String]) in names },
        work: { (name: String) in try await supplier.skus(in: name) })
    let product = OperationTreeNode(
        "product", objects: { (skus: [String]) in skus },
        work: { (sku: String) in
            let product = try await supplier.details(of: sku)
            catalog.add(product)
            return product
        })
    do {
        try root.addChild(category).addChild(product)
    } catch {
        preconditionFailure("a three-node chain has no cycle: \(error)")
    }

    let options = OperationTreeOptions(
        concurrencyLimit: concurrencyLimit,
        retry: OperationTreeRetryPolicy(
            maxAttempts: 3, backoff: .constant(.milliseconds(5)),
            shouldRetry: { ($0 as? SupplierError)?.isTransient ?? false }),
        clock: clock)
    let run = root.start(supplier, options: options)
    var imported: [String] = []
    await withTaskCancellationHandler {
        for await event in run.events {
            if let product = event.finishedOutput(of: product) { imported.append(product.sku) }
            if case .retrying(let failure, let delay) = event {
                let what = "\(failure.node) '\(failure.object)'"
                logger.notice(
                    "import: \(what) failed (\(failure.error)), trying again in \(delay)")
            }
        }
    } onCancel: {
        run.cancel()  // a started run is not a child of the request's task
    }
    let report = await run.report
    return ImportSummary(
        outcome: "\(report.outcome)", succeeded: report.succeededCount,
        retries: report.retryCount,
        failures: report.failures.map { "\($0.node) '\($0.object)': \($0.error)" },
        peakConcurrency: report.peakConcurrency, concurrencyLimit: options.concurrencyLimit,
        productsImported: imported.sorted(), catalogSize: catalog.all.count)
}
