// The targets: which rows must scale how far, checked on every 2-thread pass, and shown for
// information on every other pass of more than one thread.

/// The rows that read one shared object: each must reach S(2) ≥ `sharedScaling`.
let sharedReadRows = [
    "chain call", "bound action", "publish to 10", "plumbing send", "observed read",
]

/// S(2) the shared read paths must reach.
let sharedScaling = 1.6
/// S(2) the `closures` row must reach for the run to be valid.
let machineScaling = 1.8
/// S(2) `chain per thread` must reach.
let perThreadScaling = 1.8
/// How many times NotificationCenter's deliveries per second a shared bus must deliver.
let busOverCenter = 50.0

/// The outcome of one target on one pass.
struct TargetResult: Sendable, Codable {
    /// What is checked, such as "chain call S(2)".
    let name: String
    /// The pass's number, from 1.
    let pass: Int
    /// The pass's thread count.
    let threads: Int
    /// The measured value.
    let measured: Double
    /// The least value that passes.
    let threshold: Double
    /// Whether `measured` ≥ `threshold`.
    let passed: Bool
    /// `true` for the rows of passes of more than 2 threads, which never fail a run.
    let informational: Bool
    /// `true` for the `closures` row, which decides whether the pass's figures mean anything.
    let validity: Bool
    /// Whether a measurement the target uses had a thread off its CPU (a busy machine): the
    /// target's result means nothing.
    let disturbed: Bool
}

/// Every target of every pass of more than one thread: at 2 threads the thresholds above;
/// at T threads, for information, the same per-thread efficiency (a threshold of T × S(2)'s
/// threshold / 2).
func evaluateTargets(_ results: RunResults) -> [TargetResult] {
    var targets: [TargetResult] = []
    for (pass, threads) in results.passThreads.enumerated() where threads > 1 {
        let informational = threads != 2
        let perThreadFactor = Double(threads) / 2
        /// Adds S(T) ≥ `threshold` (scaled to T threads) for the row named `name`, if it ran.
        func scalingTarget(_ name: String, _ threshold: Double, validity: Bool = false) {
            guard let row = results.rowIndex(name) else { return }
            let measured = results.scaling(row: row, pass: pass)
            let scaled = threshold * perThreadFactor
            targets.append(
                TargetResult(
                    name: "\(name) S(\(threads))", pass: pass + 1, threads: threads,
                    measured: measured, threshold: scaled, passed: measured >= scaled,
                    informational: informational, validity: validity,
                    disturbed: results.scalingWasDisturbed(row: row, pass: pass)))
        }
        scalingTarget("closures", machineScaling, validity: true)
        for name in sharedReadRows {
            scalingTarget(name, sharedScaling)
        }
        scalingTarget("chain per thread", perThreadScaling)
        if let bus = results.rowIndex("publish to 10"),
            let center = results.rowIndex("NotificationCenter post to 10")
        {
            let centerRate = results.deliveriesPerSecond(row: center, pass: pass)
            let measured =
                centerRate > 0
                ? results.deliveriesPerSecond(row: bus, pass: pass) / centerRate : 0
            targets.append(
                TargetResult(
                    name: "publish to 10 / NotificationCenter, deliveries/s, \(threads) threads",
                    pass: pass + 1, threads: threads, measured: measured,
                    threshold: busOverCenter, passed: measured >= busOverCenter,
                    informational: informational, validity: false,
                    disturbed: results.wasDisturbed(row: bus, pass: pass)
                        || results.wasDisturbed(row: center, pass: pass)))
        }
    }
    return targets
}

/// What a run's targets add up to.
struct Verdict: Sendable {
    /// Whether some pass had 2 threads, so the targets were checked.
    let checked: Bool
    /// Whether `closures` scaled on every 2-thread pass, and no measurement a checked target
    /// uses had a thread off its CPU (a quiet enough machine).
    let valid: Bool
    /// Whether `closures` scaled on every 2-thread pass.
    let machineScaled: Bool
    /// Whether every target of the 2-thread passes passed.
    let passed: Bool

    /// The verdict of `targets`.
    init(_ targets: [TargetResult]) {
        let checkedTargets = targets.filter { !$0.informational }
        checked = !checkedTargets.isEmpty
        machineScaled = checkedTargets.filter(\.validity).allSatisfy(\.passed)
        valid = machineScaled && !checkedTargets.contains(where: \.disturbed)
        passed = checkedTargets.filter { !$0.validity }.allSatisfy(\.passed)
    }

    /// The exit status: 0, or in strict mode 3 for an invalid run and 1 for a missed target.
    func exitStatus(strict: Bool) -> Int32 {
        guard strict, checked else { return 0 }
        if !valid { return 3 }
        return passed ? 0 : 1
    }
}
