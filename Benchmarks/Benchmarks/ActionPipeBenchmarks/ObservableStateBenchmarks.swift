// Benchmarks of the observable state (issue 8) against its peers, in the same run as the core's.
// Names start with the part's prefix; Scripts/targets/ holds the rows `./run` prints.

import ActionPipe
import Benchmark

/// Registers the observable state (issue 8) benchmarks.
func registerObservableStateBenchmarks() {
}
