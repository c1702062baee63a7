import Foundation
import Testing

/// The one seeded, reproducible generator (SplitMix64) of the randomized tests.
///
/// A failing sequence must replay exactly from its seed, on any platform and Swift version,
/// so every choice goes through the methods here, with the same arithmetic everywhere; the
/// standard library's choosing algorithms (`randomElement(using:)`, `shuffled(using:)`,
/// `Int.random(in:using:)`) are unspecified and may change between releases. ``SeededRun``
/// says which seed a suite runs.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0), by multiply-shift: no modulo bias worth
    /// caring about for the small bounds of the models, and the same on every platform.
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "SeededRandom.below needs a positive bound")
        return Int((UInt128(next()) &* UInt128(bound)) >> 64)
    }

    /// A number in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.count)
    }

    /// `true` with probability `numerator / denominator`.
    mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        below(denominator) < numerator
    }

    /// One element of a non-empty array.
    mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[below(elements.count)]
    }

    /// One element of `elements`, or `nil` if there is none.
    mutating func pickIfAny<Element>(_ elements: [Element]) -> Element? {
        elements.isEmpty ? nil : pick(elements)
    }

    /// The seed of sequence `sequence` of a suite run from `base`, so that one sequence can
    /// be replayed alone (`ACTIONPIPE_SEED=base ACTIONPIPE_SEQUENCE=sequence`).
    static func sequenceSeed(base: UInt64, sequence: Int) -> UInt64 {
        var mixer = SeededRandom(seed: base ^ (UInt64(sequence) &* 0xD1B5_4A32_D192_ED03))
        return mixer.next()
    }

    /// A pure hash of `text` and `salt` (FNV-1a, then SplitMix64), the same in every process:
    /// code called concurrently decides from what it is given, not from the order of calls.
    static func hash(_ text: String, _ salt: UInt64) -> UInt64 {
        var value: UInt64 = 0xCBF2_9CE4_8422_2325 ^ salt
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
        var mixer = SeededRandom(seed: value)
        return mixer.next()
    }
}

/// How a seeded suite runs: its seed, and which of its sequences.
///
/// - `ACTIONPIPE_SEED`: the seed, decimal or `0x` hex, instead of the suite's fixed default
///   (so CI checks the same sequences every run); `random` takes one from the clock, for
///   soak runs.
/// - `ACTIONPIPE_SEQUENCE`: run only this sequence, to replay a failure.
/// - `ACTIONPIPE_MODEL_SCALE`: multiply the number of sequences, for soak runs.
///
/// Every failure carries ``replay(_:)``, so a failure is reproducible from the log alone.
struct SeededRun: Sendable {
    let seed: UInt64
    let sequences: [Int]

    init(defaultSeed: UInt64, sequences count: Int) {
        let environment = ProcessInfo.processInfo.environment
        var seed = defaultSeed
        if let text = environment["ACTIONPIPE_SEED"]?.trimmingCharacters(in: .whitespaces) {
            if let parsed = Self.parseSeed(text) {
                seed = parsed
            } else {
                Issue.record("ACTIONPIPE_SEED=\(text): not decimal, 0x hex or random")
            }
        }
        self.seed = seed
        if let text = environment["ACTIONPIPE_SEQUENCE"] {
            if let only = Int(text), only >= 0 {
                sequences = [only]
            } else {
                Issue.record("ACTIONPIPE_SEQUENCE=\(text): not a sequence number")
                sequences = []
            }
        } else {
            let scale = environment["ACTIONPIPE_MODEL_SCALE"].flatMap { Int($0) } ?? 1
            sequences = Array(0..<(count * max(scale, 1)))
        }
    }

    private static func parseSeed(_ text: String) -> UInt64? {
        if text == "random" {
            return SeededRandom.sequenceSeed(
                base: UInt64(bitPattern: Int64(Date().timeIntervalSince1970 * 1_000_000)),
                sequence: 0)
        }
        if text.hasPrefix("0x") || text.hasPrefix("0X") {
            return UInt64(text.dropFirst(2), radix: 16)
        }
        return UInt64(text)
    }

    /// The generator of sequence `sequence`.
    func random(_ sequence: Int) -> SeededRandom {
        SeededRandom(seed: SeededRandom.sequenceSeed(base: seed, sequence: sequence))
    }

    /// The text every failure of sequence `sequence` carries, so that it can be replayed.
    func replay(_ sequence: Int) -> String {
        "ACTIONPIPE_SEED=\(seed) ACTIONPIPE_SEQUENCE=\(sequence)"
    }

    /// Records an issue unless `condition` holds, with the seed and sequence to replay it.
    func expect(
        _ condition: Bool, _ message: @autoclosure () -> String, sequence: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        if !condition {
            Issue.record(
                "\(message()) [replay: \(replay(sequence))]", sourceLocation: sourceLocation)
        }
    }

    /// Records `error`, thrown by sequence `sequence`, with the seed and sequence to replay it.
    func record(
        _ error: any Error, sequence: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        Issue.record(error, "[replay: \(replay(sequence))]", sourceLocation: sourceLocation)
    }
}
