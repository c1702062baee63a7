import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What one observer does with a value: `deliver` returns `false` when the observer is gone
/// (its owner was released, its stream was dropped), so the property removes it; `end` runs
/// once when the observation ends for any reason (finishes a stream, ends a delivery task).
@usableFromInline
struct _ObsSink<Value: Sendable>: Sendable {
    @usableFromInline let deliver: @Sendable (Value) -> Bool
    @usableFromInline let end: (@Sendable () -> Void)?

    init(deliver: @escaping @Sendable (Value) -> Bool, end: (@Sendable () -> Void)? = nil) {
        self.deliver = deliver
        self.end = end
    }
}

/// One registered observer of a property.
@usableFromInline
struct _ObsEntry<Value: Sendable>: Sendable {
    @usableFromInline let id: UInt64
    @usableFromInline let sink: _ObsSink<Value>
}

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

/// Identities of observers and tokens, unique in the process.
let _obsNextID = Atomic<UInt64>(1)

@inline(__always)
func _obsMakeID() -> UInt64 {
    _obsNextID.add(1, ordering: .relaxed).oldValue
}

/// A weak reference that can cross threads.
final class _ObsWeak<Object: AnyObject & Sendable>: Sendable {
    weak let object: Object?
    init(_ object: Object) { self.object = object }
}

// MARK: - Equality of values whose type is known only at run time

extension Equatable {
    /// `==` for `Value`, which the caller checked is `Self`: the values are reinterpreted in
    /// place rather than cast through `Any` on every comparison.
    static func _obsEquality<Value>(as _: Value.Type) -> @Sendable (Value, Value) -> Bool {
        precondition(Value.self == Self.self)
        return { a, b in
            withUnsafePointer(to: a) { a in
                withUnsafePointer(to: b) { b in
                    UnsafeRawPointer(a).assumingMemoryBound(to: Self.self).pointee
                        == UnsafeRawPointer(b).assumingMemoryBound(to: Self.self).pointee
                }
            }
        }
    }
}

/// `==` for `Value`, or `nil` when `Value` is not `Equatable`; looked up once per observer,
/// since the conformance lookup costs more than the rest of a set.
func _obsEquality<Value>(of _: Value.Type) -> (@Sendable (Value, Value) -> Bool)? {
    guard let type = Value.self as? any Equatable.Type else { return nil }
    return type._obsEquality(as: Value.self)
}

// MARK: - Nesting depth of deliveries on this thread (observer cycles)

/// The thread's nesting depth of deliveries: an observer that sets a property whose observer
/// sets another... nests one level per set. A cycle of observers writing each other nests
/// without end, so a depth above `ObservationCycleError.depthLimit` is reported, not run.
/// Kept in a pthread key, not a task local: observers are synchronous and a task local
/// costs an allocation per binding.
@usableFromInline
let _obsDepthKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key, nil)
    precondition(status == 0, "ObservableState: cannot create the thread key (\(status))")
    return key
}()

@inlinable
func _obsDepth() -> Int {
    Int(bitPattern: pthread_getspecific(_obsDepthKey))
}

@inlinable
func _obsSetDepth(_ depth: Int) {
    pthread_setspecific(_obsDepthKey, UnsafeRawPointer(bitPattern: depth))
}

/// Runs `body` one delivery level deeper, or reports a cycle and skips it when the thread is
/// already `depthLimit` levels deep.
@inlinable
func _obsNested(_ label: String, _ body: () -> Void) {
    let depth = _obsDepth()
    guard depth < ObservationCycleError.depthLimit else {
        ObservationCycleError._report(.init(property: label, depth: depth + 1))
        return
    }
    _obsSetDepth(depth + 1)
    body()
    _obsSetDepth(depth)
}
