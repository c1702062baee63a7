// A run's measurements, and the figures derived from them: throughput and S(T).

/// Every measurement of a run: per pass, per row.
struct RunResults: Sendable {
    /// The rows measured, in the table's order.
    let rows: [Row]
    /// Each row's operations per thread.
    let iterations: [Int]
    /// The thread count of each pass, in order.
    let passThreads: [Int]
    /// Per pass, per row (in `rows`' order).
    let measurements: [[Measurement]]

    /// The index of the row named `name`, if it ran.
    func rowIndex(_ name: String) -> Int? {
        rows.firstIndex { $0.name == name }
    }

    /// Row `row`'s aggregate throughput on pass `pass`, in operations per second.
    func operationsPerSecond(row: Int, pass: Int) -> Double {
        measurements[pass][row].operationsPerSecond
    }

    /// Row `row`'s aggregate throughput on pass `pass`, in deliveries (handler calls) per
    /// second.
    func deliveriesPerSecond(row: Int, pass: Int) -> Double {
        operationsPerSecond(row: row, pass: pass) * Double(rows[row].deliveriesPerOperation)
    }

    /// The 1-thread pass where row `row` was fastest: the denominator of its S(T).
    func singleThreadBestPass(row: Int) -> Int? {
        passThreads.indices.filter { passThreads[$0] == 1 }
            .max {
                operationsPerSecond(row: row, pass: $0) < operationsPerSecond(row: row, pass: $1)
            }
    }

    /// The denominator of S(T): row `row`'s best 1-thread throughput across the passes.
    func singleThreadBest(row: Int) -> Double {
        singleThreadBestPass(row: row).map { operationsPerSecond(row: row, pass: $0) } ?? 0
    }

    /// Whether row `row`'s figure on pass `pass` is untrustworthy because a thread was off
    /// its CPU: always on a 1-thread pass (one thread never waits for another, so it was
    /// preempted), and on other passes for every row but the peers (whose locks may block).
    func wasDisturbed(row: Int, pass: Int) -> Bool {
        measurements[pass][row].wasOffCPU && (passThreads[pass] == 1 || rows[row].kind != .peer)
    }

    /// Whether S(T) of row `row` on pass `pass` is untrustworthy: its figure there, or its
    /// 1-thread figure, was disturbed.
    func scalingWasDisturbed(row: Int, pass: Int) -> Bool {
        wasDisturbed(row: row, pass: pass)
            || singleThreadBestPass(row: row).map { wasDisturbed(row: row, pass: $0) } ?? false
    }

    /// S(T) of row `row` on pass `pass`: its throughput there over its best 1-thread
    /// throughput.
    func scaling(row: Int, pass: Int) -> Double {
        let single = singleThreadBest(row: row)
        return single > 0 ? operationsPerSecond(row: row, pass: pass) / single : 0
    }
}
