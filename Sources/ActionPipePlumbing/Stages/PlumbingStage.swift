/// A synchronous stage as an object: the original's `PipelineDelegate`
/// (`receivePacket:throwPacketBlock:`).
///
/// The stage keeps nothing about the plumbers it serves (the original stores the next
/// stage on the stage object, so one object cannot serve two plumbers), so one instance may
/// be added to any number of plumbers. `receive` may throw; the packet then stops with
/// `.failed(error)`.
///
/// ```swift
/// struct PlumbDocCheck: PlumbingStage {
///     func receive(_ packet: inout PlumbingPacket<Int>) -> PlumbingVerdict {
///         packet.payload > 0 ? .pass : .stop("no document")
///     }
/// }
/// let check = PlumbDocCheck()
/// let a = PipelinePlumber<Int>()
/// let b = PipelinePlumber<Int>()
/// a.addStage(check)
/// b.addStage(check)
/// b.addStage("double") { packet in
///     packet.payload *= 2
///     return .pass
/// }
/// #expect(a.send(3, from: 1).delivered?.payload == 3)
/// #expect(b.send(3, from: 1).delivered?.payload == 6)
/// #expect(a.stageNames == ["PlumbDocCheck"])
/// ```
public protocol PlumbingStage<Payload>: Sendable {
    /// The type of data the stage handles.
    associatedtype Payload: Sendable

    /// The stage's name in stops and traces; by default the type's name.
    ///
    /// ```swift
    /// struct PlumbNamed: PlumbingStage {
    ///     var name: String { "named" }
    ///     func receive(_ packet: inout PlumbingPacket<Int>) -> PlumbingVerdict { .pass }
    /// }
    /// let plumber = PipelinePlumber<Int>()
    /// plumber.addStage(PlumbNamed())
    /// #expect(plumber.stageNames == ["named"])
    /// ```
    var name: String { get }

    /// Decides about `packet`: changes it if needed, then passes or stops it.
    ///
    /// ```swift
    /// struct PlumbUpper: PlumbingStage {
    ///     func receive(_ packet: inout PlumbingPacket<String>) -> PlumbingVerdict {
    ///         packet.payload = packet.payload.uppercased()
    ///         return .pass
    ///     }
    /// }
    /// let plumber = PipelinePlumber<String>()
    /// plumber.addStage(PlumbUpper())
    /// #expect(plumber.send("a", from: 1).delivered?.payload == "A")
    /// ```
    func receive(_ packet: inout PlumbingPacket<Payload>) throws -> PlumbingVerdict
}

extension PlumbingStage {
    /// The type's name.
    ///
    /// ```swift
    /// struct PlumbPlain: PlumbingStage {
    ///     func receive(_ packet: inout PlumbingPacket<Int>) -> PlumbingVerdict { .pass }
    /// }
    /// #expect(PlumbPlain().name == "PlumbPlain")
    /// ```
    public var name: String { String(describing: Self.self) }
}
