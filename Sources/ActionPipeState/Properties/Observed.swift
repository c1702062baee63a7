import ActionPipeConcurrency

/// Declares an observable property of a state object: `@Observed var url: String? = nil`.
///
/// Reading and writing the property read and write the value; `$url` is its
/// ``ObservedProperty``, to observe it, stream its values, or follow a path through it. The
/// wrapper's storage is created once and never reassigned, which is why a state class that
/// uses it restates `@unchecked Sendable` (the compiler cannot see that a wrapper's `var`
/// never changes). Use `let url = ObservedProperty<String?>(nil)` instead to keep the
/// class's `Sendable` conformance checked.
///
/// Never assign the storage itself (`_url = Observed(...)` inside the class): reads through
/// the wrapper rely on it for as long as the object lives, and take no lock and no
/// reference to the property.
///
/// ```swift
/// final class TopImageState: ObservableState, @unchecked Sendable {
///     @Observed("photoID") var photoID = ""
///     @Observed("url") var url: String? = nil
/// }
/// let image = TopImageState()
/// image.$url.observe { print("show", $0 ?? "nothing") }
/// image.url = "https://example.com/1.jpg"   // prints "show https://example.com/1.jpg"
/// ```
@propertyWrapper
public struct Observed<Value: Sendable>: Sendable {
    /// The property itself: observe it, stream it, follow paths through it.
    ///
    /// ```swift
    /// image.$url.observe(.initial) { print($0 ?? "nil") }
    /// ```
    public let projectedValue: ObservedProperty<Value>

    /// Declares the property with its initial value.
    ///
    /// ```swift
    /// @Observed var selectedIndex = 0
    /// ```
    public init(wrappedValue: Value) {
        projectedValue = ObservedProperty(wrappedValue)
    }

    /// Declares the property with its initial value and a label for reports.
    ///
    /// ```swift
    /// @Observed("selectedIndex") var selectedIndex = 0
    /// ```
    public init(wrappedValue: Value, _ label: String) {
        projectedValue = ObservedProperty(wrappedValue, label: label)
    }

    /// The value; assigning it delivers the new value to every observer.
    ///
    /// A compound write (`+=`, `append`, a mutating method, `x.y = …` on a struct value) is
    /// one atomic step, as it is through ``ObservedProperty/value``.
    ///
    /// ```swift
    /// list.selectedIndex = 2
    /// ```
    public var wrappedValue: Value {
        get { projectedValue.value }
        nonmutating set { projectedValue.set(newValue) }
        nonmutating _modify {
            let mutation = projectedValue._beginMutation()
            defer { projectedValue._endMutation(mutation) }
            yield &projectedValue.state.pointee.value
        }
    }

    /// The value of the property as a class declares it: what `object.name` reads and
    /// writes when `object` is an instance of a class (structs use ``wrappedValue``).
    ///
    /// A compound write (`state.count += 1`, `state.items.append(x)`, a mutating method,
    /// `state.size.width = 3`) is one atomic read-modify-write, followed by one delivery of
    /// the new value: from any number of threads, no update is lost. The mutation runs with
    /// the property's lock held, so it must not read or write the same property (its
    /// right-hand side is evaluated before, and may); what it drops from the value (an
    /// element removed, a reference replaced) is released there too, so such an object's
    /// `deinit` must not touch the property either. A plain assignment releases the old
    /// value after unlocking.
    ///
    /// When the class conforms to `Observable`, the property takes part in Swift
    /// Observation: a read is recorded for the tracking running on the thread (a SwiftUI
    /// view's body, `withObservationTracking`), and the next store, made any way (this
    /// setter, `$name.set`, `$name.modify`), tells the trackers before and after it.
    ///
    /// ```swift
    /// final class Profile: ObservableState, Observable, @unchecked Sendable {
    ///     @Observed var name = ""   // a SwiftUI view reading `profile.name` re-renders
    /// }
    /// ```
    ///
    /// - Complexity: O(1) to read; a store is ``ObservedProperty/set(_:)``.
    @inlinable
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Self>
    ) -> Value {
        get {
            // Unretained: the storage is assigned once, at the object's `init`, so the
            // property lives as long as `object`, which the caller holds; a retain here would
            // be a write to the property's reference count by every reading thread.
            withUnretained(object[keyPath: storageKeyPath].projectedValue) { property in
                property._value(readThrough: object)
            }
        }
        set { object[keyPath: storageKeyPath].projectedValue.set(newValue) }
        _modify {
            let property = object[keyPath: storageKeyPath].projectedValue
            let mutation = property._beginMutation()
            defer { property._endMutation(mutation) }
            yield &property.state.pointee.value
        }
    }
}
