import ActionPipeKernel
import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Something a token can cancel: a property (one entry by id) or a path observation.
protocol _ObsCancellable: AnyObject, Sendable {
    func _cancelObservation(_ id: UInt64) -> Bool
    func _isObserving(_ id: UInt64) -> Bool
}

/// Something that can be observed: a property or a path through sub-states.
protocol _ObsSource<Value>: Sendable {
    associatedtype Value: Sendable
    /// The value now.
    var _currentValue: Value { get }
    /// Registers the sink that `makeSink` builds from the value at registration (called once,
    /// possibly under the source's lock: it must not run user code), and returns the token
    /// and that value.
    func _subscribe(
        _ makeSink: (Value) -> _ObsSink<Value>
    ) -> (token: ObservationToken, value: Value)
}
