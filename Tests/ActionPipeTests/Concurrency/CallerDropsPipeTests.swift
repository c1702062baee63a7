import ActionPipe
import Foundation
import Testing

extension Actions {
    fileprivate var dropFirst: Action<Int, Int> { .init() }
    fileprivate var dropThrowing: ThrowingAction<Int, Int, DropError> { .init() }
}

private enum DropError: Error { case never }

/// An object a handler captures, to see when it is released.
private final class DropTracked: Sendable {}

/// The only handle of a pipe, which a handler of its own call drops.
private final class DropHolder: @unchecked Sendable {
    // `@unchecked`: written by the handler on the calling thread only.
    var pipe: ActionPipe?
}

/// `pipe.x(…)` does not hold the pipe for the length of the call (a retain would be a write
/// every calling thread shares): the call's pinned snapshot holds what it needs. So a pipe
/// whose last handle goes during its own call (dropped by a handler, or only ever held by
/// the call's temporary) must still finish the call, run every later handler of its chain,
/// and then be freed, with everything its handlers captured.
@Suite("Read side: a pipe whose last handle goes during its own call")
struct CallerDropsPipeTests {
    @Test("a handler that drops its own pipe's last handle: the chain's later pipes still run")
    func handlerDropsOwnPipe() async {
        weak var weakHead: ActionPipe?
        weak var tracked: DropTracked?
        var result: Int?
        do {
            let holder = DropHolder()
            let tail = ActionPipe(name: "tail")
            do {
                let head = ActionPipe(name: "head")
                weakHead = head
                holder.pipe = head
                #expect(throws: Never.self) { try head.append(tail) }
            }
            do {
                let object = DropTracked()
                tracked = object
                holder.pipe!.on(\.dropFirst) { process in
                    withExtendedLifetime(object) {}
                    holder.pipe = nil  // the last handle of the pipe this call was made on
                    return process.arguments + 1
                }
            }
            tail.on(\.dropFirst) { process in (process.upstream ?? 0) * 10 }
            result = holder.pipe!.dropFirst(4)
            #expect(holder.pipe == nil)
        }
        #expect(result == 50)
        #expect(weakHead == nil)
        #expect(await eventually { tracked == nil })
    }

    @Test("a pipe held only by the call: the call runs, then the pipe and its captures go")
    func temporaryPipe() async {
        weak var tracked: DropTracked?
        weak var weakPipe: ActionPipe?
        func makePipe() -> ActionPipe {
            let pipe = ActionPipe(name: "temporary")
            weakPipe = pipe
            let object = DropTracked()
            tracked = object
            pipe.on(\.dropFirst) { process in
                withExtendedLifetime(object) {}
                return process.arguments * 2
            }
            return pipe
        }
        #expect(makePipe().dropFirst(21) == 42)
        #expect(weakPipe == nil)
        #expect(await eventually { tracked == nil })
    }

    @Test("the same for a throwing action")
    func throwingHandlerDropsOwnPipe() async throws {
        weak var weakPipe: ActionPipe?
        let holder = DropHolder()
        do {
            let pipe = ActionPipe(name: "throwing")
            weakPipe = pipe
            holder.pipe = pipe
        }
        holder.pipe!.on(\.dropThrowing).handle { (process) throws(DropError) in
            holder.pipe = nil
            return process.arguments + 1
        }
        #expect(try holder.pipe!.dropThrowing(1) == 2)
        #expect(weakPipe == nil)
    }

    @Test("many threads call a pipe while its handles come and go: every call answers")
    func callsRaceTheLastHandle() async {
        let rounds = 2_000
        let answered = Counter()
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for round in 0..<rounds {
                        let holder = DropHolder()
                        holder.pipe = ActionPipe(name: "race")
                        holder.pipe!.on(\.dropFirst) { process in
                            if process.arguments % 2 == 0 { holder.pipe = nil }
                            return process.arguments
                        }
                        if holder.pipe!.dropFirst(worker &+ round) == worker &+ round {
                            answered.increment()
                        }
                    }
                }
            }
        }
        #expect(answered.value == 4 * rounds)
    }
}
