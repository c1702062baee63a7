import ActionPipe
import Foundation

// The core: placing an order is one request that three modules answer in a fixed order,
// validation → pricing → persistence, each knowing only the action (Docs/CoreActions.md).

extension Actions {
    /// (request) throws(OrderError) -> the stored order: validation → pricing → persistence.
    /// Public, so that another module can join the chain (the tests add a loyalty pipe).
    public var placeOrder: ThrowingAction<OrderRequest, Order, OrderError> { .init() }
    /// (order number) -> the order: answered by the persistence pipe.
    public var findOrder: Action<Int, Order> { .init() }
}

/// Why an order was refused; the routes turn each case into a status code.
public enum OrderError: Error, Equatable, CustomStringConvertible {
    /// The request breaks a rule: 400, with this message.
    case invalid(String)
    /// The service does not take orders now (`PUT /config`): 503.
    case closed

    /// The message the client sees.
    public var description: String {
        switch self {
        case .invalid(let message): message
        case .closed: "the service is not accepting orders right now"
        }
    }
}

/// The rules the validation pipe checks.
public enum OrderRules {
    /// The most of one product in one line.
    public static let maximumQuantity = 20
    /// The most lines in one order.
    public static let maximumLines = 10
}

/// Builds the order chain and returns its head; a call on it runs the whole chain.
///
/// - validation: refuses orders while the service is closed and requests that break a rule;
///   trims the customer's name for the pipes after it (an argument rewrite);
/// - pricing: looks every line up in the catalog and returns the priced order (not stored yet);
/// - persistence: stores the priced order it receives as the upstream value, and answers
///   `findOrder`.
func makeOrderChain(state: ServiceState, catalog: Catalog, store: OrderStore) throws -> ActionPipe {
    let validation = ActionPipe(name: "validation")
    let pricing = ActionPipe(name: "pricing")
    let persistence = ActionPipe(name: "persistence")

    validation.on(\.placeOrder).handle { [state] (process) throws(OrderError) in
        guard state.acceptingOrders else { throw .closed }
        var request = process.arguments
        request.customer = request.customer.trimmingCharacters(in: .whitespaces)
        guard !request.customer.isEmpty else { throw .invalid("customer must not be empty") }
        guard !request.lines.isEmpty else { throw .invalid("an order needs at least one line") }
        guard request.lines.count <= OrderRules.maximumLines else {
            throw .invalid("an order has at most \(OrderRules.maximumLines) lines")
        }
        for line in request.lines where !(1...OrderRules.maximumQuantity).contains(line.quantity) {
            throw .invalid(
                "quantity of '\(line.sku)' must be 1 to \(OrderRules.maximumQuantity),"
                    + " not \(line.quantity)")
        }
        process.rewrite(\.self, to: request)  // later pipes see the trimmed name
        return nil
    }

    pricing.on(\.placeOrder).handle { [catalog] (process) throws(OrderError) in
        let request = process.arguments
        var lines: [PricedLine] = []
        for line in request.lines {
            guard let product = catalog.product(line.sku) else {
                throw .invalid("unknown product '\(line.sku)'")
            }
            lines.append(
                PricedLine(sku: line.sku, quantity: line.quantity, unitCents: product.priceCents))
        }
        let total = lines.reduce(0) { $0 + $1.quantity * $1.unitCents }
        return Order(
            id: 0, customer: request.customer, lines: lines, totalCents: total, paid: false)
    }

    persistence.on(\.placeOrder).upstreamNotNil().handle { [store] process in
        process.upstream.map(store.insert)
    }
    persistence.on(\.findOrder) { [store] process in store.order(process.arguments) }

    try validation.append(pricing).append(persistence)
    return validation
}
