// The rows: what each thread does, on which object, and what it must have computed.
//
// A row's shared objects are built once, on the main thread, before the first pass; a row's
// per-thread objects are built by each thread of a pass before the start barrier (so they
// come from that thread's allocations, as in an app whose threads make their own objects).
// Every body accumulates what its operations return into a local sink and returns it; the
// harness checks it, so the optimiser cannot drop the work and a fixture cannot silently
// compute something else.

import ActionPipe
import Foundation
import Synchronization

/// What one thread runs for a row: makes `iterations` operations and returns its sink.
/// Built and called on that thread only.
typealias ThreadBody = (_ iterations: Int) -> Int

/// Which kind of comparison a row is.
enum RowKind: String, Sendable, Codable {
    /// What the machine allows: plain code, atomics on private and shared words.
    case baseline
    /// The library, every thread on the same object.
    case shared
    /// The library, each thread on its own object.
    case perThread = "per thread"
    /// Another way to do the same thing, every thread on the same object.
    case peer
}

/// What the sinks of a repetition's threads must add up to.
enum Expectation: Sendable {
    /// Each thread's sink, from the operations per thread.
    case perThread(@Sendable (_ iterations: Int) -> Int)
    /// The wrapping sum of all threads' sinks, from the operations per thread and the
    /// number of threads.
    case total(@Sendable (_ iterations: Int, _ threads: Int) -> Int)
}

/// One row of the table: one operation, made by every thread of a pass.
struct Row: Sendable {
    /// The row's name, as printed and as `--filter` matches it.
    let name: String
    /// What the row compares.
    let kind: RowKind
    /// What one operation is, for the table.
    let operation: String
    /// How many deliveries (handler calls) one operation makes: 10 for the publish rows.
    var deliveriesPerOperation = 1
    /// Builds a thread's body; called on that thread, with its number in the team.
    let makeBody: @Sendable (_ thread: Int) -> ThreadBody
    /// Run by thread 0 before each repetition's start barrier (resets shared state).
    var beforeRepetition: (@Sendable () -> Void)? = nil
    /// What the sinks must be.
    let expectation: Expectation

    /// Stops the program when `sinks` (one per thread, of one repetition of `iterations`
    /// operations each) are not what the row computes.
    func check(_ sinks: [Int], iterations: Int) {
        switch expectation {
        case .perThread(let expected):
            let want = expected(iterations)
            for (thread, sink) in sinks.enumerated() where sink != want {
                fatalError("\(name): thread \(thread) computed \(sink), expected \(want)")
            }
        case .total(let expected):
            let want = expected(iterations, sinks.count)
            let total = sinks.reduce(0, &+)
            guard total == want else {
                fatalError("\(name): the threads computed \(total), expected \(want)")
            }
        }
    }
}

/// 0 + 1 + … + (n − 1), wrapping, as a loop's wrapping sum of its indices is.
func triangle(_ n: Int) -> Int {
    n % 2 == 0 ? (n / 2) &* (n &- 1) : n &* ((n &- 1) / 2)
}

/// The number of pipes, subscribers, stages and closures of the rows.
private enum Sizes {
    /// Pipes in a chain.
    static let pipes = 3
    /// Subscribers of a bus, observers of the notification center, closures of the list.
    static let subscribers = 10
    /// Stages of the plumber.
    static let stages = 4
    /// The value of the observed property.
    static let observedValue = 3
}

/// Every row, in the table's order, with its shared objects built.
func makeRows() -> [Row] {
    [
        closuresRow(),
        atomicOwnLineRow(),
        atomicSharedWordRow(),
        chainCallRow(),
        boundActionRow(),
        publishRow(),
        plumbingSendRow(),
        observedReadRow(),
        chainPerThreadRow(),
        publishPerThreadRow(),
        readPerThreadRow(),
        notificationCenterRow(),
        mutexListRow(),
    ]
}

// MARK: - Baselines

/// Three closures called in a row, each adding one, from a per-thread array the optimiser
/// cannot see into: nothing shared, the limit of scaling on this machine.
private func closuresRow() -> Row {
    Row(
        name: "closures", kind: .baseline, operation: "3 closure calls",
        makeBody: { _ in
            let closures: [(Int) -> Int] = opaque([{ $0 &+ 1 }, { $0 &+ 1 }, { $0 &+ 1 }])
            return { iterations in
                var sink = 0
                for k in 0..<iterations {
                    var value = k
                    for closure in closures {
                        value = closure(value)
                    }
                    sink &+= value
                }
                return sink
            }
        },
        expectation: .perThread { triangle($0) &+ 3 &* $0 })
}

/// One relaxed atomic add on the thread's own counter, alone on its 128 bytes: the floor of
/// any per-thread scheme.
private func atomicOwnLineRow() -> Row {
    Row(
        name: "atomic own line", kind: .baseline, operation: "1 atomic add",
        makeBody: { _ in
            let counter = PaddedCounter()
            return { iterations in
                counter.reset()
                for _ in 0..<iterations {
                    _ = counter.increment()
                }
                return counter.value
            }
        },
        expectation: .perThread { $0 })
}

/// One relaxed atomic add on one word every thread adds to: the floor of a shared counter
/// (such as a reader count or a reference count).
private func atomicSharedWordRow() -> Row {
    let counter = PaddedCounter()
    return Row(
        name: "atomic shared word", kind: .baseline, operation: "1 atomic add",
        makeBody: { _ in
            { iterations in
                // The new values of all threads' adds are 1 … T·n, each once.
                var sink = 0
                for _ in 0..<iterations {
                    sink &+= counter.increment()
                }
                return sink
            }
        },
        beforeRepetition: { counter.reset() },
        expectation: .total { iterations, threads in triangle(iterations &* threads &+ 1) })
}

// MARK: - The library, one shared object

/// A chain of 3 pipes, each adding the argument to the upstream value; returns its head.
private func makeChain() -> ActionPipe {
    let pipes = (1...Sizes.pipes).map { ActionPipe(name: "scaling\($0)") }
    for pipe in pipes {
        pipe.on(\.scalingAdd) { process in (process.upstream ?? 0) &+ process.arguments }
    }
    do {
        try pipes[0].append(pipes[1]).append(pipes[2])
    } catch {
        fatalError("cannot build the chain: \(error)")
    }
    return pipes[0]
}

/// The expected sink of `iterations` chain calls with the arguments 0, 1, ….
private func chainSink(_ iterations: Int) -> Int { Sizes.pipes &* triangle(iterations) }

/// The body of a thread calling `head.scalingAdd(k)`.
private func chainBody(_ head: ActionPipe) -> ThreadBody {
    { iterations in
        var sink = 0
        for k in 0..<iterations {
            sink &+= head.scalingAdd(k) ?? 0
        }
        return sink
    }
}

/// `head.scalingAdd(k)` on one chain all threads share.
private func chainCallRow() -> Row {
    let head = makeChain()
    return Row(
        name: "chain call", kind: .shared, operation: "call of 3 pipes",
        makeBody: { _ in chainBody(head) }, expectation: .perThread(chainSink))
}

/// The same chain through an action each thread binds once (`let add = head.scalingAdd`).
private func boundActionRow() -> Row {
    let head = makeChain()
    return Row(
        name: "bound action", kind: .shared, operation: "call of 3 pipes",
        makeBody: { _ in
            let add = head.scalingAdd
            return { iterations in
                var sink = 0
                for k in 0..<iterations {
                    sink &+= add(k) ?? 0
                }
                return sink
            }
        },
        expectation: .perThread(chainSink))
}

/// A bus with 10 synchronous subscribers, each adding the event's value to the publishing
/// thread's sink.
private func makeBus() -> EventBus {
    let bus = EventBus(name: "scaling")
    for _ in 0..<Sizes.subscribers {
        bus.subscribe(BusTopic(ScalingEvent.self, .tick)) { event in event.sink.add(event.value) }
    }
    return bus
}

/// The body of a thread publishing events with the values 0, 1, … on `bus`: its sink is
/// what the subscribers added plus the handled counts the publishes returned.
private func publishBody(_ bus: EventBus) -> ThreadBody {
    let box = ThreadSinkBox()
    return { iterations in
        let before = box.sink.total
        var handled = 0
        for k in 0..<iterations {
            let event = ScalingEvent(subtype: .tick, value: k, sink: box.sink)
            handled &+= bus.publish(event).handledCount
        }
        return (box.sink.total &- before) &+ handled
    }
}

/// The expected sink of `iterations` publishes to 10 subscribers.
private func publishSink(_ iterations: Int) -> Int {
    Sizes.subscribers &* (triangle(iterations) &+ iterations)
}

/// `bus.publish(event)` on one bus all threads share.
private func publishRow() -> Row {
    let bus = makeBus()
    return Row(
        name: "publish to 10", kind: .shared, operation: "publish, 10 deliveries",
        deliveriesPerOperation: Sizes.subscribers, makeBody: { _ in publishBody(bus) },
        expectation: .perThread(publishSink))
}

/// `plumber.send(k, from: 1)` through 4 stages, each adding one, into a sink, on one
/// plumber all threads share.
private func plumbingSendRow() -> Row {
    let plumber = PipelinePlumber<Int>(name: "scaling")
    for index in 0..<Sizes.stages {
        plumber.addStage("add\(index)") { packet in
            packet.payload &+= 1
            return .pass
        }
    }
    plumber.sink { _ in }
    return Row(
        name: "plumbing send", kind: .shared, operation: "send through 4 stages",
        makeBody: { _ in
            { iterations in
                var sink = 0
                for k in 0..<iterations {
                    sink &+= plumber.send(k, from: 1).delivered?.payload ?? 0
                }
                return sink
            }
        },
        expectation: .perThread { triangle($0) &+ Sizes.stages &* $0 })
}

/// A state object whose observed value is `Sizes.observedValue`, with no observer.
private func makeState() -> ScalingState {
    let state = ScalingState()
    state.value = Sizes.observedValue
    return state
}

/// The body of a thread reading `state.value`.
private func readBody(_ state: ScalingState) -> ThreadBody {
    { iterations in
        var sink = 0
        for _ in 0..<iterations {
            sink &+= state.value
        }
        return sink
    }
}

/// Reading an `@Observed` Int of one state object all threads share.
private func observedReadRow() -> Row {
    let state = makeState()
    return Row(
        name: "observed read", kind: .shared, operation: "read of @Observed Int",
        makeBody: { _ in readBody(state) },
        expectation: .perThread { Sizes.observedValue &* $0 })
}

// MARK: - The library, one object per thread

/// `head.scalingAdd(k)`, each thread on a chain of its own.
private func chainPerThreadRow() -> Row {
    Row(
        name: "chain per thread", kind: .perThread, operation: "call of 3 pipes",
        makeBody: { _ in chainBody(makeChain()) }, expectation: .perThread(chainSink))
}

/// `bus.publish(event)`, each thread on a bus of its own with 10 subscribers.
private func publishPerThreadRow() -> Row {
    Row(
        name: "publish per thread", kind: .perThread, operation: "publish, 10 deliveries",
        deliveriesPerOperation: Sizes.subscribers, makeBody: { _ in publishBody(makeBus()) },
        expectation: .perThread(publishSink))
}

/// Reading `state.value`, each thread on a state object of its own.
private func readPerThreadRow() -> Row {
    Row(
        name: "read per thread", kind: .perThread, operation: "read of @Observed Int",
        makeBody: { _ in readBody(makeState()) },
        expectation: .perThread { Sizes.observedValue &* $0 })
}

// MARK: - Peers

/// `NotificationCenter.post` to 10 block observers (`queue: nil`, so synchronous), on one
/// center all threads share. The notification's object is the posting thread's sink, which
/// every observer adds one to.
private func notificationCenterRow() -> Row {
    let center = NotificationCenter()
    let name = Notification.Name("ActionPipeScaling")
    // The center keeps block observers until they are removed: the tokens are not needed.
    for _ in 0..<Sizes.subscribers {
        _ = center.addObserver(forName: name, object: nil, queue: nil) { notification in
            (notification.object as? ThreadSinkBox)?.sink.add(1)
        }
    }
    return Row(
        name: "NotificationCenter post to 10", kind: .peer, operation: "post, 10 deliveries",
        deliveriesPerOperation: Sizes.subscribers,
        makeBody: { _ in
            let box = ThreadSinkBox()
            return { iterations in
                let before = box.sink.total
                for _ in 0..<iterations {
                    center.post(name: name, object: box)
                }
                return box.sink.total &- before
            }
        },
        expectation: .perThread { Sizes.subscribers &* $0 })
}

/// A hand-written bus: 10 closures in a `Mutex`-guarded array, copied out under the lock
/// and called outside it, on one list all threads share.
private func mutexListRow() -> Row {
    let list = MutexClosureList(count: Sizes.subscribers)
    return Row(
        name: "mutex list of 10", kind: .peer, operation: "lock, copy out, 10 calls",
        deliveriesPerOperation: Sizes.subscribers,
        makeBody: { _ in
            { iterations in
                var sink = 0
                for _ in 0..<iterations {
                    sink &+= list.callAll()
                }
                return sink
            }
        },
        expectation: .perThread { Sizes.subscribers &* $0 })
}
