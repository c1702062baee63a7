/// An asynchronous stage as an object: one that awaits (a request, an actor) before it
/// passes or stops the packet. Drive its plumber with `await process(_:from:)` or a port.
public protocol AsyncPlumbingStage<Payload>: Sendable {
    /// The type of data the stage handles.
    associatedtype Payload: Sendable

    /// The stage's name in stops and traces; by default the type's name.
    var name: String { get }

    /// Decides about `packet`, possibly after awaiting: changes it if needed, then passes
    /// or stops it. A thrown error stops the packet with `.failed(error)`.
    func receive(_ packet: inout PlumbingPacket<Payload>) async throws -> PlumbingVerdict
}

extension AsyncPlumbingStage {
    /// The type's name.
    public var name: String { String(describing: Self.self) }
}
