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
    var _currentValue: Value { get }
    /// Registers the sink `makeSink` builds from the value (called once, possibly under the
    /// source's lock, so it must not run user code); returns the token and that value.
    func _subscribe(
        _ makeSink: (Value) -> _ObsSink<Value>
    ) -> (token: RegistrationToken, value: Value)
}
