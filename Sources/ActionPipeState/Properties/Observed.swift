import ActionPipeConcurrency

/// Declares an observable property of a state object: `@Observed var url: String? = nil`.
///
/// `$url` is its ``ObservedProperty``. A state class using it restates `@unchecked Sendable`
/// (the compiler cannot see that the wrapper's storage is never reassigned). Never assign the
/// storage (`_url = Observed(...)`): reads rely on it for the object's lifetime.
@propertyWrapper
public struct Observed<Value: Sendable>: Sendable {
    /// The property itself: observe it, stream it, follow paths through it.
    public let projectedValue: ObservedProperty<Value>

    /// Declares the property with its initial value and, if given, a label for reports.
    public init(wrappedValue: Value, _ label: String? = nil) {
        projectedValue = ObservedProperty(wrappedValue, label: label)
    }

    /// The value; assigning it delivers the new value to every observer. A compound write
    /// runs under the property's spin lock, as through ``ObservedProperty/value``.
    public var wrappedValue: Value {
        get { projectedValue.value }
        nonmutating set { projectedValue.set(newValue) }
        nonmutating _modify { yield &projectedValue.value }
    }

    /// The value as a class declares it: what `object.name` reads and writes.
    ///
    /// A compound write (`state.count += 1`) is one atomic read-modify-write under the
    /// property's spin lock (neither the mutation nor what it drops may touch the property),
    /// then one delivery. In an `Observable` class, reads are tracked by Swift Observation.
    ///
    /// - Complexity: O(1) to read; a store is ``ObservedProperty/set(_:)``.
    @inlinable
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Self>
    ) -> Value {
        get {
            // Unretained: the storage lives as long as `object`, which the caller holds.
            withUnretained(object[keyPath: storageKeyPath].projectedValue) { property in
                property._value(readThrough: object)
            }
        }
        set { object[keyPath: storageKeyPath].projectedValue.set(newValue) }
        _modify {
            let property = object[keyPath: storageKeyPath].projectedValue
            yield &property.value
        }
    }
}
