// Benchmarks of the observable state (issue 8) against its peers, in the same run as the core's.
// Names start with the part's prefix; Scripts/targets/ holds the rows `./run` prints.

import ActionPipe
import ActionPipeTesting
import Benchmark
import Observation
import OpenCombine

/// A state object as an app declares it.
final class StateBenchImage: ObservableState, @unchecked Sendable {
    @Observed("url") var url = 0
}

/// A state object a SwiftUI app declares: `Observable`, so its properties take part in
/// Swift Observation.
final class StateBenchObservable: ObservableState, Observable, @unchecked Sendable {
    @Observed("url") var url = 0
}

/// A state object with a replaceable sub-state, for the path benchmark.
final class StateBenchScreen: ObservableState, @unchecked Sendable {
    @Observed("image") var image = StateBenchImage()
}

/// An owner for the `observe(by:)` benchmark.
final class StateBenchOwner: Sendable {}

/// Registers the observable state (issue 8) benchmarks.
func registerObservableStateBenchmarks() {
    // The baseline: what a set replaces, a stored closure the optimiser cannot see through.
    let closure: @Sendable (Int) -> Void = identity({ @Sendable value in blackHole(value) })
    Benchmark("State Baseline stored closure call") { benchmark in
        for i in benchmark.scaledIterations {
            closure(i)
        }
    }

    // Target 1: setting an observed property with one observer.
    let property = identity(ObservedProperty(0, label: "bench"))
    property.observe { value in blackHole(value) }
    Benchmark("State set, 1 observer") { benchmark in
        for i in benchmark.scaledIterations {
            property.value = i
        }
    }

    // The same through the property wrapper of a state object.
    let image = identity(StateBenchImage())
    image.$url.observe { value in blackHole(value) }
    Benchmark("State set @Observed, 1 observer") { benchmark in
        for i in benchmark.scaledIterations {
            image.url = i
        }
    }

    let unobserved = identity(ObservedProperty(0, label: "unobserved"))
    Benchmark("State set, no observer") { benchmark in
        for i in benchmark.scaledIterations {
            unobserved.value = i
        }
    }

    let owned = identity(ObservedProperty(0, label: "owned"))
    let owner = StateBenchOwner()
    owned.observe(owner: owner) { _, value in blackHole(value) }
    Benchmark("State set, 1 observer by owner") { benchmark in
        for i in benchmark.scaledIterations {
            owned.value = i
        }
        blackHole(owner)
    }

    let skipping = identity(ObservedProperty(0, label: "skipping"))
    skipping.observe(.skipEqual) { value in blackHole(value) }
    Benchmark("State set, 1 observer with skipEqual") { benchmark in
        for i in benchmark.scaledIterations {
            skipping.value = i
        }
    }

    let many = identity(ObservedProperty(0, label: "ten"))
    for _ in 0..<10 { many.observe { value in blackHole(value) } }
    Benchmark("State set, 10 observers") { benchmark in
        for i in benchmark.scaledIterations {
            many.value = i
        }
    }

    let screen = identity(StateBenchScreen())
    screen.$image.then(\.$url).observe { value in blackHole(value) }
    Benchmark("State set through a path, 1 observer") { benchmark in
        let leaf = screen.image
        for i in benchmark.scaledIterations {
            leaf.url = i
        }
    }

    // A value with a reference count (heap strings): the set releases the old value.
    let texts = (0..<16).map { "state value number \($0), long enough for the heap" }
    let text = identity(ObservedProperty("", label: "text"))
    text.observe { value in blackHole(value) }
    Benchmark("State set String, 1 observer") { benchmark in
        for i in benchmark.scaledIterations {
            text.value = texts[i & 15]
        }
    }

    let getter = identity(ObservedProperty(7, label: "get"))
    Benchmark("State get") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(getter.value)
        }
    }

    // Reads through the wrapper: of a plain class, and of an `Observable` one (each read
    // checks for a tracking on this thread; none runs here).
    Benchmark("State get @Observed") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(image.url)
        }
    }
    let observable = identity(StateBenchObservable())
    observable.$url.observe { value in blackHole(value) }
    Benchmark("State get @Observed, Observable class") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(observable.url)
        }
    }
    // A read before every set: each set then tells Observation (willSet, didSet), as in an
    // app whose views read the property between changes.
    Benchmark("State read then set @Observed, Observable class, 1 observer") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(observable.url)
            observable.url = i
        }
    }
    Benchmark("State read then set @Observed, 1 observer") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(image.url)
            image.url = i
        }
    }

    let counter = identity(ObservedProperty(0, label: "counter"))
    counter.observe { value in blackHole(value) }
    Benchmark("State modify, 1 observer") { benchmark in
        for _ in benchmark.scaledIterations {
            counter.modify { $0 &+= 1 }
        }
    }

    // A `@MainActor` observer (`on: .mainActor`) of a write made on the main actor: called
    // at once, with nothing else queued for the main actor, as a plain observer is.
    let onMain = identity(ObservedProperty(0, label: "onMain"))
    onMain.observe(on: .mainActor) { value in blackHole(value) }
    Benchmark("State set on the main actor, 1 main-actor observer") { @MainActor benchmark async in
        for i in benchmark.scaledIterations {
            onMain.value = i
        }
    }

    // The same observer, written to from a background task: each write is queued for the
    // main actor, and the run ends when the main actor has delivered them all.
    let hopped = identity(ObservedProperty(0, label: "hopped"))
    hopped.observe(on: .mainActor) { value in blackHole(value) }
    Benchmark("State set off the main actor, 1 main-actor observer, delivered") { benchmark in
        for i in benchmark.scaledIterations {
            hopped.value = i
        }
        await MainActorDeliveries.drain()
    }

    // The peer: OpenCombine's CurrentValueSubject (what `@Published` is built on) with a sink.
    let subject = CurrentValueSubject<Int, Never>(0)
    let cancellable = subject.sink { value in blackHole(value) }
    Benchmark("State Peer OpenCombine CurrentValueSubject, 1 sink") { benchmark in
        for i in benchmark.scaledIterations {
            subject.send(i)
        }
        blackHole(cancellable)
    }
}
