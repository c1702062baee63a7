#if canImport(Observation)
    import Observation
#endif

/// The Observation registrar of one property, made at its first tracked read; reports go to
/// the property's own `value`, so nothing refers to the declaring object. `@unchecked
/// Sendable`: immutable, and `ObservationRegistrar` is thread-safe.
@usableFromInline
final class _ObsTracking<Value: Sendable>: @unchecked Sendable {
    #if canImport(Observation)
        let registrar = ObservationRegistrar()
    #endif
    /// Made once: instantiating a key path into a generic class is costly.
    let keyPath: KeyPath<ObservedProperty<Value>, Value> = \.value

    /// Records a read for the tracking running on this thread, if any.
    @usableFromInline
    func access(_ property: ObservedProperty<Value>) {
        #if canImport(Observation)
            registrar.access(property, keyPath: keyPath)
        #endif
    }

    @usableFromInline
    func willSet(_ property: ObservedProperty<Value>) {
        #if canImport(Observation)
            registrar.willSet(property, keyPath: keyPath)
        #endif
    }

    @usableFromInline
    func didSet(_ property: ObservedProperty<Value>) {
        #if canImport(Observation)
            registrar.didSet(property, keyPath: keyPath)
        #endif
    }
}
