import ActionPipeConcurrency

/// The tasks suspended until a count (values, sleepers, jobs) reaches theirs, kept in a
/// locked state and resumed after unlocking.
struct _CountWaits<Result: Sendable> {
    typealias Continuation = UnsafeContinuation<Result, Never>

    private var nextID: UInt64 = 0
    fileprivate var waiting: [(id: UInt64, count: Int, continuation: Continuation)] = []
    /// Waits (and `TestClock`'s sleeps) cancelled before they were registered.
    var cancelledEarly: Set<UInt64> = []

    var count: Int { waiting.count }

    /// A new id for a wait or a sleep.
    mutating func makeID() -> UInt64 {
        nextID += 1
        return nextID
    }

    /// Takes the waits that `count` satisfies.
    mutating func take(reaching count: Int) -> [Continuation] {
        guard !waiting.isEmpty else { return [] }
        let ready = waiting.filter { $0.count <= count }.map(\.continuation)
        waiting.removeAll { $0.count <= count }
        return ready
    }
}

/// A locked state that tasks wait on until its count reaches theirs.
protocol _CountWaiting: SendableMetatype {
    associatedtype WaitResult: Sendable
    var waits: _CountWaits<WaitResult> { get set }
    /// What the waits count.
    var waitedCount: Int { get }
    /// What a wait returns.
    var waitResult: WaitResult { get }
}

extension LockedValue where Value: _CountWaiting {
    /// Suspends until the count reaches `count` or the task is cancelled; returns the result.
    func wait(for count: Int) async -> Value.WaitResult {
        let id = withLock { $0.waits.makeID() }
        let result = await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                let ready = withLock { state -> Value.WaitResult? in
                    if state.waits.cancelledEarly.remove(id) != nil { return state.waitResult }
                    if state.waitedCount >= count { return state.waitResult }
                    state.waits.waiting.append((id, count, continuation))
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            typealias Waiter = UnsafeContinuation<Value.WaitResult, Never>
            let (waiter, result) = withLock { state -> (Waiter?, Value.WaitResult?) in
                guard let index = state.waits.waiting.firstIndex(where: { $0.id == id }) else {
                    state.waits.cancelledEarly.insert(id)
                    return (nil, nil)
                }
                return (state.waits.waiting.remove(at: index).continuation, state.waitResult)
            }
            if let waiter, let result { waiter.resume(returning: result) }
        }
        // Drop a mark left by a cancellation that came after the wait ended.
        withLock { _ = $0.waits.cancelledEarly.remove(id) }
        return result
    }
}
