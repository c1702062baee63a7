#if canImport(Observation)
    import Observation
#endif

/// How a property takes part in Swift Observation: the registrar that Observation's
/// trackers register with. Reads and changes are reported as the property's own `value`
/// (an `ObservedProperty` is `Observable`), so nothing refers to the object that declares
/// the property: the tracking can neither keep it alive nor give it a weak-reference side
/// table.
///
/// Created at the first read through an `@Observed` wrapper whose enclosing class is
/// `Observable`, then kept for the property's life.
///
/// `@unchecked Sendable`: immutable; `ObservationRegistrar` is thread-safe.
@usableFromInline
final class _ObsTracking<Value: Sendable>: @unchecked Sendable {
    #if canImport(Observation)
        let registrar = ObservationRegistrar()
    #endif
    /// Made once: a key path into a generic class is instantiated at run time, which costs
    /// far more than the registrar's work.
    let keyPath: KeyPath<ObservedProperty<Value>, Value> = \.value

    init() {}

    /// Records a read of `property`'s value, for the tracking that is running on this thread
    /// (`withObservationTracking`, a SwiftUI body), if any.
    @usableFromInline
    func access(_ property: ObservedProperty<Value>) {
        #if canImport(Observation)
            registrar.access(property, keyPath: keyPath)
        #endif
    }

    /// Tells the trackers waiting for `property`'s next change that it is coming.
    @usableFromInline
    func willSet(_ property: ObservedProperty<Value>) {
        #if canImport(Observation)
            registrar.willSet(property, keyPath: keyPath)
        #endif
    }

    /// Tells the trackers that `property` changed.
    @usableFromInline
    func didSet(_ property: ObservedProperty<Value>) {
        #if canImport(Observation)
            registrar.didSet(property, keyPath: keyPath)
        #endif
    }
}
