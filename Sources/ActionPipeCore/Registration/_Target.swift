import ActionPipeConcurrency
import Synchronization

/// How a handler refers to its target object.
@usableFromInline
enum _Target: Sendable {
    /// A closure handler without a target.
    case none
    /// A target held weakly; the handler is skipped once it is gone.
    case weak(WeakBox<AnyObject & Sendable>)
    /// A target held strongly, for as long as the handler is registered.
    case strong(AnyObject & Sendable)

    /// The target to pass to the handler; `nil` with `released == true` when a weak target
    /// is gone.
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
