// ActionPipeScaling: T threads each making the same number of operations on ONE shared
// object, against one object per thread, for the library's read paths and their floors and
// peers. `Benchmarks/run --scaling` builds and runs it; Benchmarks/README.md says how to
// read it and how to take it to a bigger machine.

import Foundation

/// The program: parses the command line, sizes the rows, runs one pass per thread count,
/// prints the table and the targets.
@main
enum ActionPipeScaling {
    /// Runs the benchmark and exits with the verdict's status.
    static func main() {
        let options: Options
        do {
            options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
        } catch {
            guard let message = error.message else {
                print(Options.usage)
                exit(0)
            }
            printError("ActionPipeScaling: \(message)\n\(Options.usage)")
            exit(2)
        }

        var threads = options.threads
        if !threads.contains(1) {
            // S(T) needs a 1-thread figure.
            threads.insert(1, at: 0)
        }
        let rows = makeRows().filter { $0.name == "closures" || options.selects($0.name) }
        let host = Host.current()
        printHeader(options, threads: threads, host: host, rows: rows)

        let iterations: [Int]
        if let fixed = options.iterations {
            iterations = Array(repeating: fixed, count: rows.count)
        } else {
            printError("sizing \(rows.count) rows ...")
            iterations = sizeRows(rows, milliseconds: options.durationMilliseconds)
        }

        var measurements: [[Measurement]] = []
        for (pass, count) in threads.enumerated() {
            let start = monotonicNanoseconds()
            printError("pass #\(pass + 1) of \(threads.count): \(count) thread(s) ...")
            measurements.append(
                runPass(
                    rows: rows, iterations: iterations, threadCount: count,
                    repetitions: options.repetitions))
            let seconds = Double(monotonicNanoseconds() - start) / 1e9
            printError(String(format: "pass #%d took %.1f s", pass + 1, seconds))
        }

        let results = RunResults(
            rows: rows, iterations: iterations, passThreads: threads, measurements: measurements)
        let targets = evaluateTargets(results)
        let verdict = Verdict(targets)
        printTable(results, host: host)
        printTargets(targets, verdict: verdict, host: host)

        if let path = options.jsonPath {
            do {
                try JSONReport(results, targets: targets, verdict: verdict, host: host)
                    .write(to: path)
                print("Results written to \(path).")
            } catch {
                printError("cannot write \(path): \(error)")
                exit(2)
            }
        }
        exit(verdict.exitStatus(strict: options.strict))
    }
}

/// Writes `message` and a newline to the standard error (progress and errors, so the
/// standard output holds the report only).
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
