import ActionPipe
import Testing

/// Removing pipes from a long chain keeps the others in order (the chain's member slots
/// are emptied and compacted, so n removals cost O(n) in all).
@Suite("Composition: many removals from one chain")
struct ChainRemovalTests {
    @Test("removing 79 of 100 pipes, in three passes, keeps the rest in order and calling")
    func manyRemovals() throws {
        let pipes = (0..<100).map { ActionPipe(name: "p\($0)") }
        for (index, pipe) in pipes.enumerated() {
            pipe.on(\.tPing) { process in (process.upstream ?? 0) + index }
        }
        for pipe in pipes.dropFirst() { try pipes[0].append(pipe) }
        var kept = Array(0..<100)
        // Every other pipe, then every third of the rest, then the tail: the slots are
        // compacted between passes, and positions must follow.
        for pass in [
            { (i: Int) in i % 2 == 1 }, { (i: Int) in i % 3 == 0 }, { (i: Int) in i > 60 },
        ] {
            for index in kept where index != 0 && pass(index) {
                #expect(pipes[index].removeFromChain())
            }
            kept = kept.filter { $0 == 0 || !pass($0) }
            #expect(pipes[0].chainNames == kept.map { "p\($0)" })
            #expect(pipes[0].tPing(0) == kept.reduce(0, +))
        }
        #expect(kept.count == 21)
        // A removed pipe is alone, and can join again at the end.
        #expect(pipes[1].chainNames == ["p1"])
        try pipes[0].append(pipes[1])
        #expect(pipes[0].chainNames == kept.map { "p\($0)" } + ["p1"])
        #expect(pipes[kept.last!].isInSameChain(as: pipes[1]))
        // Removing the head leaves the rest in order.
        #expect(pipes[0].removeFromChain())
        #expect(pipes[kept[1]].chainNames == kept.dropFirst().map { "p\($0)" } + ["p1"])
    }
}
