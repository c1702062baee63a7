/// One registered observer of a property: its identity and its sink, in an object so that a
/// delivery reads the closures through a reference the list keeps alive, without retaining
/// them (a `let` of a class instance is borrowed, not copied).
@usableFromInline
final class _ObsObserver<Value: Sendable>: Sendable {
    @usableFromInline let id: UInt64
    @usableFromInline let sink: _ObsSink<Value>

    init(id: UInt64, sink: _ObsSink<Value>) {
        self.id = id
        self.sink = sink
    }

    /// Delivers `value`; `false` when the observer is gone.
    @inlinable @inline(__always)
    func deliver(_ value: Value) -> Bool {
        // `let`s of a borrowed object: the closures are called without copying (retaining)
        // their contexts.
        if sink.isPlain {
            sink.plain(value)
            return true
        }
        return sink.deliver(value)
    }
}

/// A property's observers at one moment, in registration order: immutable once made, replaced
/// as a whole when an observer is added or removed. It owns (retains) its observers; deliveries
/// read it unretained, protected by their thread's hazard slot (see `_obsHazards`).
/// The header is the count.
@usableFromInline
final class _ObsList<Value: Sendable>: ManagedBuffer<Int, Unmanaged<_ObsObserver<Value>>> {
    /// A list of `observers`, as the retained bit pattern a property stores; 0 for none.
    static func make(_ observers: [_ObsObserver<Value>]) -> UInt {
        guard !observers.isEmpty else { return 0 }
        let list = unsafeDowncast(
            create(minimumCapacity: observers.count) { _ in observers.count }, to: _ObsList.self)
        list.withUnsafeMutablePointerToElements { elements in
            for (index, observer) in observers.enumerated() {
                (elements + index).initialize(to: .passRetained(observer))
            }
        }
        return UInt(bitPattern: Unmanaged.passRetained(list).toOpaque())
    }

    /// The list at `bits` (non-zero), unretained.
    @inlinable @inline(__always)
    static func at(_ bits: UInt) -> Unmanaged<_ObsList<Value>> {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
    }

    /// The observers of the list at `bits`, retained (empty for 0); for writers.
    static func observers(_ bits: UInt) -> [_ObsObserver<Value>] {
        guard bits != 0 else { return [] }
        return at(bits)._withUnsafeGuaranteedRef { list in
            list.withUnsafeMutablePointers { count, elements in
                (0..<count.pointee).map { elements[$0].takeUnretainedValue() }
            }
        }
    }

    /// How many observers the list at `bits` has.
    static func count(_ bits: UInt) -> Int {
        guard bits != 0 else { return 0 }
        return at(bits)._withUnsafeGuaranteedRef { $0.header }
    }

    deinit {
        withUnsafeMutablePointers { count, elements in
            for index in 0..<count.pointee { elements[index].release() }
        }
    }
}
