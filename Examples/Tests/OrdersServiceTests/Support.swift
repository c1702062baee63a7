import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import OrdersService
import Testing

/// A service with a fast supplier, and its application, for one test.
func makeService() throws -> (OrdersService, some ApplicationProtocol) {
    var logger = Logger(label: "orders-test")
    logger.logLevel = .warning
    let service = try OrdersService(logger: logger, supplierLatency: .milliseconds(2))
    return (service, buildApplication(service, logger: logger))
}

/// `value` as a JSON request body.
func json(_ value: some Encodable) throws -> ByteBuffer {
    ByteBuffer(bytes: try JSONEncoder().encode(value))
}

/// The response's body decoded as `T`.
func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
    try JSONDecoder().decode(T.self, from: Data(response.body.readableBytesView))
}

/// The message of a Hummingbird `HTTPError` response: `{"error":{"message":"..."}}`.
func errorMessage(_ response: TestResponse) throws -> String {
    struct Body: Decodable {
        struct Error: Decodable { let message: String }
        let error: Error
    }
    return try decode(Body.self, response).error.message
}

/// Places `request` and returns the response.
@discardableResult
func place(_ request: OrderRequest, _ client: some TestClientProtocol) async throws
    -> TestResponse
{
    try await client.execute(uri: "/orders", method: .post, body: try json(request))
}
