// Benchmarks of the plumbing (issue 7) against its peers, in the same run as the core's.
// Names start with the part's prefix; Scripts/targets/ holds the rows `./run` prints.

import ActionPipe
import Benchmark

/// Registers the plumbing (issue 7) benchmarks.
func registerPlumbingBenchmarks() {
}
