import Synchronization

/// A product the service sells.
public struct Product: Codable, Sendable, Equatable {
    /// The product's stock-keeping unit, its key: `"espresso"`.
    public var sku: String
    /// What customers see: `"Espresso"`.
    public var name: String
    /// The price of one, in cents.
    public var priceCents: Int

    /// A product.
    public init(sku: String, name: String, priceCents: Int) {
        self.sku = sku
        self.name = name
        self.priceCents = priceCents
    }
}

/// One line of an order as a customer sends it: a product and how many.
public struct OrderLine: Codable, Sendable, Equatable {
    /// The product.
    public var sku: String
    /// How many, 1 to ``OrderRules/maximumQuantity``.
    public var quantity: Int

    /// A line of `quantity` times `sku`.
    public init(sku: String, quantity: Int) {
        self.sku = sku
        self.quantity = quantity
    }
}

/// The body of `POST /orders`.
public struct OrderRequest: Codable, Sendable, Equatable {
    /// Who orders.
    public var customer: String
    /// What they order.
    public var lines: [OrderLine]

    /// An order request.
    public init(customer: String, lines: [OrderLine]) {
        self.customer = customer
        self.lines = lines
    }
}

/// A line of a placed order, with the price it was sold at.
public struct PricedLine: Codable, Sendable, Equatable {
    /// The product.
    public var sku: String
    /// How many.
    public var quantity: Int
    /// The price of one, in cents, when the order was placed.
    public var unitCents: Int
}

/// An order as the service stores and returns it.
public struct Order: Codable, Sendable, Equatable {
    /// The order's number, from 1; 0 until the persistence pipe stores it.
    public var id: Int
    /// Who ordered.
    public var customer: String
    /// What, at which price.
    public var lines: [PricedLine]
    /// The sum of the lines, in cents.
    public var totalCents: Int
    /// Whether a payment webhook for the whole total was accepted.
    public var paid: Bool
}

/// The products on sale, safe to use from any request.
public final class Catalog: Sendable {
    private let products: Mutex<[String: Product]>

    /// A catalog of `products`.
    public init(_ products: [Product]) {
        self.products = Mutex(Dictionary(products.map { ($0.sku, $0) }) { _, last in last })
    }

    /// The product with this SKU, if it is on sale.
    public func product(_ sku: String) -> Product? { products.withLock { $0[sku] } }

    /// Adds `product`, or replaces the product with its SKU.
    public func add(_ product: Product) { products.withLock { $0[product.sku] = product } }

    /// Every product, by SKU.
    public var all: [Product] { products.withLock { $0.values.sorted { $0.sku < $1.sku } } }
}

/// The orders, in memory (a real service would use a database).
public final class OrderStore: Sendable {
    private let storage = Mutex<(lastID: Int, orders: [Int: Order])>((0, [:]))

    /// An empty store.
    public init() {}

    /// Stores `order` under the next number and returns it with that number.
    public func insert(_ order: Order) -> Order {
        storage.withLock { storage in
            storage.lastID += 1
            var stored = order
            stored.id = storage.lastID
            storage.orders[stored.id] = stored
            return stored
        }
    }

    /// The order numbered `id`, if there is one.
    public func order(_ id: Int) -> Order? { storage.withLock { $0.orders[id] } }

    /// Marks order `id` as paid; returns it, or `nil` if there is no such order.
    @discardableResult
    public func markPaid(_ id: Int) -> Order? {
        storage.withLock { storage in
            storage.orders[id]?.paid = true
            return storage.orders[id]
        }
    }
}
