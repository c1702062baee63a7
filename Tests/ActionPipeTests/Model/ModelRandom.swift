import Foundation

/// A seeded, reproducible generator (SplitMix64) shared by the model-based tests.
///
/// The model tests must replay a failing sequence exactly from its seed, on any platform and
/// Swift version, so they do not use `SystemRandomNumberGenerator` or the standard library's
/// unspecified algorithms for choosing (`randomElement`, `shuffled`): every choice goes
/// through `next()` here.
struct ModelRandom: RandomNumberGenerator {
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
        precondition(bound > 0, "ModelRandom.below needs a positive bound")
        return Int((UInt128(next()) &* UInt128(bound)) >> 64)
    }

    /// `true` with probability `numerator / denominator`.
    mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        below(denominator) < numerator
    }

    /// One element of a non-empty array.
    mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[below(elements.count)]
    }

    /// The seed of each sequence of a suite: `base` mixed with the sequence number, so that
    /// sequence `n` of seed `s` can be replayed alone (`ACTIONPIPE_SEED=s`,
    /// `ACTIONPIPE_SEQUENCE=n`).
    static func sequenceSeed(base: UInt64, sequence: Int) -> UInt64 {
        var mixer = ModelRandom(seed: base ^ (UInt64(sequence) &* 0xD1B5_4A32_D192_ED03))
        return mixer.next()
    }
}

/// How a randomized suite is run: its base seed, how many sequences, which ones.
///
/// `ACTIONPIPE_SEED` (decimal or 0x-hex) replaces the fixed default seed,
/// `ACTIONPIPE_SEQUENCE` runs only that sequence (to replay a failure), and
/// `ACTIONPIPE_MODEL_SCALE` multiplies the number of sequences (for long soak runs).
struct ModelRun {
    let seed: UInt64
    let sequences: [Int]

    init(defaultSeed: UInt64, sequences count: Int) {
        let environment = ProcessInfo.processInfo.environment
        seed = environment["ACTIONPIPE_SEED"].flatMap(Self.parse) ?? defaultSeed
        if let only = environment["ACTIONPIPE_SEQUENCE"].flatMap({ Int($0) }) {
            sequences = [only]
        } else {
            let scale = environment["ACTIONPIPE_MODEL_SCALE"].flatMap { Int($0) } ?? 1
            sequences = Array(0..<(count * max(scale, 1)))
        }
    }

    private static func parse(_ text: String) -> UInt64? {
        if text.hasPrefix("0x") || text.hasPrefix("0X") {
            return UInt64(text.dropFirst(2), radix: 16)
        }
        return UInt64(text)
    }

    /// The text every failure of sequence `n` carries, so that it can be replayed.
    func replay(_ sequence: Int) -> String {
        "ACTIONPIPE_SEED=\(seed) ACTIONPIPE_SEQUENCE=\(sequence)"
    }
}
