/// An asynchronous stage as an object: one that awaits (a network request, an actor)
/// before it passes or stops the packet.
///
/// Like ``PlumbingStage`` it keeps nothing about the plumbers it serves. A plumber with an
/// async stage is driven with `await plumber.process(_:from:)` or through a port.
///
/// ```swift
/// struct PlumbLinkRequest: AsyncPlumbingStage {
///     func receive(_ packet: inout PlumbingPacket<String>) async throws -> PlumbingVerdict {
///         try await Task.sleep(for: .milliseconds(1))  // the "network"
///         packet.payload = "www.link.com"
///         return .pass
///     }
/// }
/// let plumber = PipelinePlumber<String>()
/// plumber.addStage(PlumbLinkRequest())
/// #expect(await plumber.process("doc", from: 100).delivered?.payload == "www.link.com")
/// ```
public protocol AsyncPlumbingStage<Payload>: Sendable {
    /// The type of data the stage handles.
    associatedtype Payload: Sendable

    /// The stage's name in stops and traces; by default the type's name.
    ///
    /// ```swift
    /// struct PlumbAsyncNamed: AsyncPlumbingStage {
    ///     var name: String { "remote" }
    ///     func receive(_ packet: inout PlumbingPacket<Int>) async -> PlumbingVerdict { .pass }
    /// }
    /// let plumber = PipelinePlumber<Int>()
    /// plumber.addStage(PlumbAsyncNamed())
    /// #expect(plumber.stageNames == ["remote"])
    /// ```
    var name: String { get }

    /// Decides about `packet`, possibly after awaiting: changes it if needed, then passes
    /// or stops it. A thrown error stops the packet with `.failed(error)`.
    ///
    /// ```swift
    /// struct PlumbAsyncGate: AsyncPlumbingStage {
    ///     func receive(_ packet: inout PlumbingPacket<Int>) async -> PlumbingVerdict {
    ///         await Task.yield()
    ///         return packet.payload > 0 ? .pass : .stop("closed")
    ///     }
    /// }
    /// let plumber = PipelinePlumber<Int>()
    /// plumber.addStage(PlumbAsyncGate())
    /// #expect(await plumber.process(0, from: 1).reason?.refusal == "closed")
    /// ```
    func receive(_ packet: inout PlumbingPacket<Payload>) async throws -> PlumbingVerdict
}

extension AsyncPlumbingStage {
    /// The type's name.
    ///
    /// ```swift
    /// struct PlumbAsyncPlain: AsyncPlumbingStage {
    ///     func receive(_ packet: inout PlumbingPacket<Int>) async -> PlumbingVerdict { .pass }
    /// }
    /// #expect(PlumbAsyncPlain().name == "PlumbAsyncPlain")
    /// ```
    public var name: String { String(describing: Self.self) }
}
