// The command line of ActionPipeScaling.

/// What the command line asks for.
struct Options: Sendable {
    /// The thread counts, one pass each, in order (repeats allowed: `1,2,1,2`).
    var threads: [Int] = [1, 2, 1, 2]
    /// How long one 1-thread measurement of a row should take; each row's operation count
    /// per thread is sized to it once, before the first pass.
    var durationMilliseconds = 300
    /// When set, every row does this many operations per thread, with no sizing.
    var iterations: Int?
    /// Substrings of row names; when not empty, only rows whose name contains one of them
    /// run (and `closures`, which decides whether the run is valid).
    var filters: [String] = []
    /// Where to write the results as JSON, if anywhere.
    var jsonPath: String?
    /// Whether a missed target (exit 1) or a busy machine (exit 3) sets the exit status.
    var strict = false
    /// How many times each measurement is made; the best is kept.
    var repetitions = 3

    /// The usage text of `--help`.
    static let usage = """
        usage: ActionPipeScaling [--threads 1,2,1,2] [--duration-ms 300 | --iterations N]
                                 [--filter SUBSTRING]... [--json PATH] [--strict]

          --threads LIST     thread counts, one pass each, in this order (default 1,2,1,2);
                             every pass starts new threads
          --duration-ms N    size each row so that one 1-thread measurement takes about
                             N ms (default 300); sized once, on the main thread, then fixed
          --iterations N     every row does N operations per thread instead
          --filter SUBSTR    only rows whose name contains SUBSTR (repeatable); the
                             `closures` row always runs: it decides whether the run is valid
          --json PATH        also write the results as JSON to PATH
          --strict           exit 1 when a target fails, 3 when the machine was too busy
                             to measure (closures below their scaling threshold, or a
                             thread off its CPU in a measurement a target uses)

        Exit status: 0, or with --strict 1 (a target failed) or 3 (run invalid);
        2 for a bad command line.
        """

    /// Parses `arguments` (without the program's name).
    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        var remaining = arguments[...]
        /// The value after the option `name`.
        func value(for name: String) throws(UsageError) -> String {
            guard let value = remaining.popFirst() else {
                throw UsageError("\(name) needs a value")
            }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--threads":
                let list = try value(for: argument)
                let counts = list.split(separator: ",").map { Int($0) }
                guard !counts.isEmpty, counts.allSatisfy({ ($0 ?? 0) >= 1 }) else {
                    throw UsageError("--threads wants positive integers, such as 1,2,1,2")
                }
                options.threads = counts.map { $0! }
            case "--duration-ms":
                options.durationMilliseconds = try positive(try value(for: argument), argument)
            case "--iterations":
                options.iterations = try positive(try value(for: argument), argument)
            case "--filter":
                options.filters.append(try value(for: argument))
            case "--json":
                options.jsonPath = try value(for: argument)
            case "--strict":
                options.strict = true
            case "--help", "-h":
                throw UsageError(nil)
            default:
                throw UsageError("unknown argument '\(argument)'")
            }
        }
        return options
    }

    /// `text` as a positive integer, or a usage error naming `option`.
    private static func positive(_ text: String, _ option: String) throws(UsageError) -> Int {
        guard let number = Int(text), number > 0 else {
            throw UsageError("\(option) wants a positive integer, not '\(text)'")
        }
        return number
    }

    /// Whether the row named `name` is selected by the filters.
    func selects(_ name: String) -> Bool {
        filters.isEmpty || filters.contains { name.contains($0) }
    }
}

/// A command line that cannot be run: the message, or `nil` for `--help`.
struct UsageError: Error {
    /// What is wrong; `nil` when the usage was asked for.
    let message: String?

    /// An error with `message`.
    init(_ message: String?) { self.message = message }
}
