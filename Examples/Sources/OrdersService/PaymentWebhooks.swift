import ActionPipe
import Logging

// The plumbing: payment notices from the payment provider's webhook go through ordered
// checks into one sink, and whoever sent one learns which check refused it and why
// (Docs/PlumbingGuide.md).

/// The body of `POST /webhooks/payments`: the payment provider says an order was paid.
public struct PaymentNotice: Codable, Sendable, Equatable {
    /// The order paid.
    public var orderID: Int
    /// How much was paid, in cents.
    public var amountCents: Int
    /// The provider's signature over the other two fields: ``PaymentNotice/sign(orderID:amountCents:)``.
    public var signature: String

    /// A notice.
    public init(orderID: Int, amountCents: Int, signature: String) {
        self.orderID = orderID
        self.amountCents = amountCents
        self.signature = signature
    }

    /// The signature the provider would send (a stand-in for an HMAC with a shared secret).
    public static func sign(orderID: Int, amountCents: Int) -> String {
        "sig-\(orderID)-\(amountCents)"
    }
}

/// The ingestion pipeline of payment notices: port → signature → known-order → amount →
/// not-paid-yet → sink (marks the order paid, publishes ``OrderEvent/Kind/paid``).
final class PaymentWebhooks: Sendable {
    /// The plumber; kept here because a port holds its plumber weakly.
    let plumber = PipelinePlumber<PaymentNotice>(name: "payments")
    /// The webhook route's port. Its notices run one at a time, in order, so two deliveries
    /// of one notice cannot both pass `not-paid-yet`.
    let webhook = PlumbingPort<PaymentNotice>(1)

    /// Wires the stages, the sink and the stop observer.
    init(orders: ActionPipe, store: OrderStore, bus: EventBus, state: ServiceState, logger: Logger)
        throws
    {
        try plumber.addPort(webhook)
        plumber.addStage("signature") { packet in
            let expected = PaymentNotice.sign(
                orderID: packet.orderID, amountCents: packet.amountCents)
            return packet.signature == expected ? .pass : .stop("bad signature")
        }
        plumber.addStage("known-order") { packet in
            orders.findOrder(packet.orderID) != nil  // asks the order chain
                ? .pass : .stop("no order \(packet.orderID)")
        }
        plumber.addStage("amount") { packet in
            let total = orders.findOrder(packet.orderID)?.totalCents ?? 0
            return packet.amountCents == total
                ? .pass
                : .stop("paid \(packet.amountCents) cents, order \(packet.orderID) costs \(total)")
        }
        plumber.addStage("not-paid-yet") { packet in
            orders.findOrder(packet.orderID)?.paid == true
                ? .stop("order \(packet.orderID) is already paid") : .pass
        }
        plumber.sink { packet in
            guard let order = store.markPaid(packet.orderID) else { return }
            bus.publish(
                OrderEvent(
                    .paid, orderID: order.id, customer: order.customer, totalCents: order.totalCents
                ))
        }
        plumber.onStop { stop in
            state.$webhooksRefused.modify { $0 += 1 }
            logger.warning("\(stop)")
        }
    }
}
