/// A path from a property through sub-states to a property of a sub-state, observed as one
/// value: `screen.$image.then(\.$url)` is "the url of whichever image state the screen holds".
/// When a sub-state is replaced, observers move to the new one and receive its value at once.
public struct ObservedPath<Value: Sendable>: Sendable {
    let current: @Sendable () -> Value
    /// `current` without keeping the root property alive: `nil` once it is gone.
    let weakCurrent: @Sendable () -> Value?
    let subscribe:
        @Sendable ((Value) -> _ObsObserver<Value>) -> (token: RegistrationToken, value: Value)
    /// The label of the last property on the path, for reports.
    let label: String

    /// The value at the end of the path now.
    public var value: Value { current() }

    /// Extends the path to the property at `keyPath` of the sub-state at its end.
    ///
    /// - Complexity: O(1).
    public func then<Next>(
        _ keyPath: KeyPath<Value, ObservedProperty<Next>> & Sendable
    ) -> ObservedPath<Next> where Value: AnyObject {
        let outer = self
        let outerWeakCurrent = weakCurrent
        return ObservedPath<Next>(
            current: { outer.current()[keyPath: keyPath].value },
            weakCurrent: { outerWeakCurrent()?[keyPath: keyPath].value },
            subscribe: { makeObserver in
                _ObsPathLink<Value, Next>(outerWeakCurrent, keyPath).start(outer, makeObserver)
            },
            label: "\(label).\(String(describing: Next.self))")
    }
}

extension ObservedPath: _ObsSource {
    @usableFromInline
    func _subscribe(
        _ makeObserver: (Value) -> _ObsObserver<Value>
    ) -> (token: RegistrationToken, value: Value) {
        subscribe(makeObserver)
    }
}

extension ObservedPath {
    /// A path that is just `property`.
    ///
    /// - Complexity: O(1).
    public init(_ property: ObservedProperty<Value>) {
        current = { property.value }
        weakCurrent = { [weak property] in property?.value }
        subscribe = { property._subscribe($0) }
        label = property.label
    }
}

extension ObservedProperty {
    /// A path through this property's sub-state to the property at `keyPath`: observing it
    /// follows replacements of the sub-state.
    ///
    /// - Complexity: O(1).
    public func then<Next>(
        _ keyPath: KeyPath<Value, ObservedProperty<Next>> & Sendable
    ) -> ObservedPath<Next> where Value: AnyObject {
        ObservedPath(self).then(keyPath)
    }
}
