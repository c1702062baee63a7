/// A synchronous stage as an object. It keeps nothing about the plumbers it serves, so one
/// instance may be added to any number of plumbers.
public protocol PlumbingStage<Payload>: Sendable {
    /// The type of data the stage handles.
    associatedtype Payload: Sendable

    /// The stage's name in stops and traces; by default the type's name.
    var name: String { get }

    /// Decides about `packet`: changes it if needed, then passes or stops it. A thrown error
    /// stops the packet with `.failed(error)`.
    func receive(_ packet: inout PlumbingPacket<Payload>) throws -> PlumbingVerdict
}

extension PlumbingStage {
    /// The type's name.
    public var name: String { String(describing: Self.self) }
}
