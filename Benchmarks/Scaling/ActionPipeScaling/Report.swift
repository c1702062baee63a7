// The report: the host, the table of throughputs and S(T), the targets, and the JSON file.

import Foundation

/// What the report says about the machine.
struct Host: Sendable, Codable {
    /// The CPUs the process may run on.
    let cpus: Int
    /// The CPU architecture.
    let architecture: String
    /// The 1, 5 and 15 minute load averages when the run started, where the system tells.
    let loadAverage: String?

    /// This machine, now.
    static func current() -> Host {
        #if arch(x86_64)
            let architecture = "x86_64"
        #elseif arch(arm64)
            let architecture = "arm64"
        #else
            let architecture = "other"
        #endif
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))
            .map { $0.split(separator: " ").prefix(3).joined(separator: " ") }
        return Host(
            cpus: ProcessInfo.processInfo.activeProcessorCount, architecture: architecture,
            loadAverage: load)
    }
}

/// Prints what the run is about to do.
func printHeader(_ options: Options, threads: [Int], host: Host, rows: [Row]) {
    print("ActionPipeScaling: T threads on one shared object, against one object per thread")
    print(
        "Host: \(host.cpus) CPUs, \(host.architecture)"
            + (host.loadAverage.map { ", load average \($0) at start" } ?? ""))
    print(
        "Passes: " + threads.map(String.init).joined(separator: ", ")
            + " threads (each pass starts new threads); best of \(options.repetitions)"
            + " repetitions per row and pass")
    if threads != options.threads {
        print("  (a 1-thread pass was added first: S(T) needs a 1-thread figure)")
    }
    if let iterations = options.iterations {
        print("Operations per thread: \(iterations) for every row (--iterations)")
    } else {
        print(
            "Operations per thread: sized per row for about \(options.durationMilliseconds) ms"
                + " at 1 thread, once, on the main thread; the same at every thread count")
    }
    if !options.filters.isEmpty {
        print("Rows: " + rows.map(\.name).joined(separator: ", ") + " (closures always runs)")
    }
    print("Run it alone on a quiet machine: anything else running skews the figures.")
    print()
}

/// Prints the table: per row, its throughput and S(T) on each pass; then the deliveries of
/// the rows whose operation makes several.
func printTable(_ results: RunResults, host: Host) {
    print("Throughput: million operations per second, all threads together")
    print("  (total operations / wall time of the slowest thread), and S(T) in parentheses.")
    print("S(T) = throughput at T threads / the row's best 1-thread throughput in this run.")
    print()
    let passes = results.passThreads.indices
    let header =
        pad("row", 30) + pad("kind", 11) + pad("ops/thread", 12, right: true)
        + passes.map { pad("#\($0 + 1) T=\(results.passThreads[$0]) ", 18, right: true) }
        .joined()
    print(header)
    for (index, row) in results.rows.enumerated() {
        let cells = passes.map { pass in
            let rate = results.operationsPerSecond(row: index, pass: pass) / 1e6
            let scaling = results.scaling(row: index, pass: pass)
            let mark = results.measurements[pass][index].wasOffCPU ? "!" : " "
            return pad(format("%.2f (%.2f)", rate, scaling) + mark, 18, right: true)
        }
        print(
            pad(row.name, 30) + pad(row.kind.rawValue, 11)
                + pad("\(results.iterations[index])", 12, right: true) + cells.joined())
    }
    if results.measurements.joined().contains(where: \.wasOffCPU) {
        print(
            "! a thread of the best repetition was off its CPU for more than"
                + " \(Int(((1 - minimumCPUShare) * 100).rounded()))% of its time: preempted (a busy machine),"
                + " or, for the peers, waiting for a lock")
    }
    print()
    print("One operation is:")
    for row in results.rows {
        print("  " + pad(row.name, 30) + row.operation)
    }
    let delivering = results.rows.indices.filter { results.rows[$0].deliveriesPerOperation > 1 }
    if !delivering.isEmpty {
        print()
        print("The same rows in million deliveries (handler calls) per second:")
        for index in delivering {
            let cells = passes.map { pass in
                pad(
                    format("%.2f", results.deliveriesPerSecond(row: index, pass: pass) / 1e6)
                        + " ", 18, right: true)
            }
            print("  " + pad(results.rows[index].name, 51) + cells.joined())
        }
    }
    if results.passThreads.contains(where: { $0 > host.cpus }) {
        print()
        print("Passes with more threads than the \(host.cpus) CPUs cannot scale past them.")
    }
    print()
}

/// Prints every target with PASS/FAIL, and the verdict.
func printTargets(_ targets: [TargetResult], verdict: Verdict, host: Host) {
    guard !targets.isEmpty else {
        print("No pass has more than one thread: no target checked.")
        return
    }
    print("Targets (checked on every 2-thread pass; other thread counts are information):")
    for target in targets {
        let kind =
            target.validity
            ? "VALID" : (target.informational ? "info " : "     ")
        let result = target.passed ? "PASS" : "FAIL"
        let isRatio = target.name.contains("NotificationCenter")
        let measured = format(isRatio ? "%.1fx" : "%.2f", target.measured)
        let threshold = format(isRatio ? "%.0fx" : "%.2f", target.threshold)
        var note = target.threads > host.cpus ? "  (more threads than CPUs)" : ""
        if target.disturbed { note += "  (a thread was off its CPU: means nothing)" }
        print(
            "  \(kind) #\(target.pass) " + pad(target.name, 72) + pad(measured, 8, right: true)
                + " >= " + pad(threshold, 6, right: true) + "  \(result)\(note)")
    }
    print()
    if !verdict.checked {
        print("No pass has 2 threads: the targets were not checked.")
    } else if !verdict.machineScaled {
        print(
            "INVALID: closures did not reach S(2) >= \(machineScaling) on every 2-thread pass:"
                + " machine busy: run again")
    } else if !verdict.valid {
        print(
            "INVALID: a thread of a measurement that a target uses was off its CPU:"
                + " machine busy: run again")
    } else {
        print(verdict.passed ? "Every target passed." : "Some targets FAILED.")
    }
}

/// The JSON file of `--json`.
struct JSONReport: Codable {
    /// One row's figures.
    struct RowReport: Codable {
        /// The row's name.
        let name: String
        /// What it compares.
        let kind: RowKind
        /// What one operation is.
        let operation: String
        /// Deliveries (handler calls) per operation.
        let deliveriesPerOperation: Int
        /// Operations per thread per repetition.
        let iterationsPerThread: Int
        /// The denominator of S(T), in operations per second.
        let singleThreadBestOperationsPerSecond: Double
        /// Per pass.
        let passes: [PassReport]
    }

    /// One row on one pass.
    struct PassReport: Codable {
        /// The pass's number, from 1.
        let pass: Int
        /// Its thread count.
        let threads: Int
        /// The best repetition's aggregate operations per second.
        let operationsPerSecond: Double
        /// The same in deliveries per second.
        let deliveriesPerSecond: Double
        /// S(T).
        let scaling: Double
        /// In the best repetition, the smallest share of its time a thread was on its CPU.
        let cpuShare: Double
        /// Every repetition, every thread.
        let repetitions: [[ThreadRun]]
    }

    /// The machine.
    let host: Host
    /// The passes' thread counts.
    let threads: [Int]
    /// How S(T) is computed.
    let scalingBaseline: String
    /// Every row.
    let rows: [RowReport]
    /// Every target.
    let targets: [TargetResult]
    /// Whether the 2-thread passes were valid (nil: no 2-thread pass).
    let valid: Bool?
    /// Whether every checked target passed (nil: no 2-thread pass).
    let passed: Bool?

    /// The report of `results`.
    init(_ results: RunResults, targets: [TargetResult], verdict: Verdict, host: Host) {
        self.host = host
        threads = results.passThreads
        scalingBaseline = "the row's best 1-thread throughput across the passes"
        rows = results.rows.enumerated().map { index, row in
            RowReport(
                name: row.name, kind: row.kind, operation: row.operation,
                deliveriesPerOperation: row.deliveriesPerOperation,
                iterationsPerThread: results.iterations[index],
                singleThreadBestOperationsPerSecond: results.singleThreadBest(row: index),
                passes: results.passThreads.indices.map { pass in
                    PassReport(
                        pass: pass + 1, threads: results.passThreads[pass],
                        operationsPerSecond: results.operationsPerSecond(row: index, pass: pass),
                        deliveriesPerSecond: results.deliveriesPerSecond(row: index, pass: pass),
                        scaling: results.scaling(row: index, pass: pass),
                        cpuShare: results.measurements[pass][index].cpuShare,
                        repetitions: results.measurements[pass][index].repetitions)
                })
        }
        self.targets = targets
        valid = verdict.checked ? verdict.valid : nil
        passed = verdict.checked ? verdict.passed : nil
    }

    /// Writes the report to `path`.
    func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path))
    }
}

/// `text` padded with spaces to `width` characters, on the right or (`right`) on the left.
private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return right ? padding + text : text + padding
}

/// `values` formatted with the printf `pattern`.
private func format(_ pattern: String, _ values: Double...) -> String {
    String(format: pattern, arguments: values)
}
