import ActionPipeConcurrency
import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

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
    ) -> (token: RegistrationToken, value: Value)
}
