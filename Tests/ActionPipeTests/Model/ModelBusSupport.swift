import ActionPipe
import Synchronization

/// The model's event type with subtypes 0, 1 and 2.
struct ModelBusAlpha: BusEvent {
    let subtype: Int
    let serial: Int
}

/// The model's event type without subtypes.
struct ModelBusBeta: BusEvent {
    let serial: Int
}

/// The error a model subscriber throws.
struct ModelBusError: Error, CustomStringConvertible {
    let subscription: Int
    var description: String { "subscription \(subscription) refused" }
}

/// The topics of the model: three exact subtypes and "any" of Alpha, and Beta's two keys.
enum ModelBusKey: Int, CaseIterable, Sendable, CustomStringConvertible {
    case alpha0, alpha1, alpha2, alphaAny, beta, betaAny

    var isAlpha: Bool { rawValue <= 3 }

    /// The library's key for this topic.
    var key: BusEventKey {
        switch self {
        case .alpha0, .alpha1, .alpha2: BusTopic(ModelBusAlpha.self, rawValue).key
        case .alphaAny: BusTopic(anySubtypeOf: ModelBusAlpha.self).key
        case .beta: BusTopic(ModelBusBeta.self).key
        case .betaAny: BusTopic(anySubtypeOf: ModelBusBeta.self).key
        }
    }

    /// Whether an event of this key also is an event of `other` (they would both match it).
    func overlaps(_ other: ModelBusKey) -> Bool {
        if self == other { return true }
        if isAlpha != other.isAlpha { return false }
        return self == .alphaAny || other == .alphaAny || self == .betaAny || other == .betaAny
    }

    func matches(_ event: ModelBusPublished) -> Bool {
        switch (self, event) {
        case (.alphaAny, .alpha): true
        case (.alpha0, .alpha(0, _)), (.alpha1, .alpha(1, _)), (.alpha2, .alpha(2, _)): true
        case (.beta, .beta), (.betaAny, .beta): true
        default: false
        }
    }

    var description: String { key.description }
}

/// An event the model publishes.
enum ModelBusPublished: Equatable, CustomStringConvertible {
    case alpha(subtype: Int, serial: Int)
    case beta(serial: Int)

    var serial: Int {
        switch self {
        case .alpha(_, let serial), .beta(let serial): serial
        }
    }

    var description: String {
        switch self {
        case .alpha(let subtype, let serial): "Alpha.\(subtype)#\(serial)"
        case .beta(let serial): "Beta#\(serial)"
        }
    }
}

/// What one handler received: the event (or the union's last event) and, for unions, the
/// key that fired it and the serials of its events in key order.
struct ModelBusDelivery: Sendable, Equatable, CustomStringConvertible {
    var subscription: Int
    var serial: Int
    var lastKey: BusEventKey? = nil
    var union: [Int]? = nil

    var description: String {
        var text = "s\(subscription)←\(serial)"
        if let lastKey { text += " via \(lastKey)" }
        if let union { text += " \(union)" }
        return text
    }

    static func serial(of event: any BusEvent) -> Int {
        if let alpha = event as? ModelBusAlpha { return alpha.serial }
        if let beta = event as? ModelBusBeta { return beta.serial }
        return -1
    }
}

/// The thread-safe record of deliveries, in order.
final class ModelBusRecorder: Sendable {
    private let entries = TestLock<[ModelBusDelivery]>([])

    func record(_ delivery: ModelBusDelivery) { entries.withLock { $0.append(delivery) } }

    func take() -> [ModelBusDelivery] {
        entries.withLock { entries in
            defer { entries.removeAll() }
            return entries
        }
    }
}

/// A subscriber object of the model; the test decides when it goes away.
final class ModelBusOwner: Sendable {
    let generation: Int
    init(generation: Int) { self.generation = generation }
}

/// Hands a subscription's own token to its handler (for handlers that cancel themselves).
final class ModelBusTokenBox: Sendable {
    private let storage = TestLock<RegistrationToken?>(nil)

    var token: RegistrationToken? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}

/// A weak reference to a model subscriber.
struct ModelBusWeakOwner {
    weak var object: ModelBusOwner?
}
