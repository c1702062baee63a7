// Benchmarks of the operation tree (issue 6) against its peers, in the same run as the core's.
// Names start with the part's prefix; Scripts/targets/ holds the rows `./run` prints.

import ActionPipe
import Benchmark

/// Registers the operation tree (issue 6) benchmarks.
func registerOperationTreeBenchmarks() {
}
