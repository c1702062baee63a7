import ActionPipeConcurrency

@usableFromInline
enum _Target: Sendable {
    case none
    /// Skipped once it is gone.
    case weak(WeakBox<AnyObject & Sendable>)
    /// Held for as long as the handler is registered.
    case strong(AnyObject & Sendable)

    init(_ object: AnyObject & Sendable, _ retention: Retention) {
        self = retention == .weak ? .weak(WeakBox(object)) : .strong(object)
    }

    /// `released` when a weak target is gone.
    @inlinable
    var resolved: (object: AnyObject?, released: Bool) {
        switch self {
        case .none: (nil, false)
        case .strong(let object): (object, false)
        case .weak(let box):
            if let object = box.object { (object, false) } else { (nil, true) }
        }
    }
}
