// Benchmarks of the event bus (issue 5) against its peers, in the same run as the core's.
// Names start with the part's prefix; Scripts/targets/ holds the rows `./run` prints.

import ActionPipe
import Benchmark

/// Registers the event bus (issue 5) benchmarks.
func registerEventBusBenchmarks() {
}
