import Foundation
import Testing

/// A small, seeded, reproducible generator (SplitMix64) for the model-based tests.
///
/// The seed is fixed, so every run (CI's included) checks the same sequences and a failure
/// reproduces from the log. `ACTIONPIPE_SEED` (decimal or `0x` hex) replaces it, as for
/// ``ModelRun``; `ACTIONPIPE_SEED=random` takes one from the clock, for soak runs. Every
/// suite prints the seed when a comparison fails, so a failure can be replayed with
/// `ACTIONPIPE_SEED=<seed> swift test --filter Rel`.
struct RelRandom: RandomNumberGenerator {
    private(set) var state: UInt64

    init(seed: UInt64) { state = seed }

    /// The seed when `ACTIONPIPE_SEED` is not set.
    static let defaultSeed: UInt64 = 0x5EED_AC71_0B1E_0001

    /// The seed for a run of the model suites: `ACTIONPIPE_SEED`, or ``defaultSeed``.
    static func runSeed() -> UInt64 {
        guard
            let text = ProcessInfo.processInfo.environment["ACTIONPIPE_SEED"]?
                .trimmingCharacters(in: .whitespaces)
        else { return defaultSeed }
        if text == "random" {
            return UInt64(UInt(bitPattern: Int(Date().timeIntervalSince1970 * 1_000_000)))
                ^ 0x9E37_79B9_7F4A_7C15
        }
        if text.hasPrefix("0x"), let value = UInt64(text.dropFirst(2), radix: 16) {
            return value
        }
        return UInt64(text) ?? defaultSeed
    }

    /// The seed of sequence `index` of a suite run from `seed`: sequences replay one by one.
    static func sequenceSeed(_ seed: UInt64, _ index: Int) -> UInt64 {
        var mixer = RelRandom(seed: seed &+ UInt64(index) &* 0xD1B5_4A32_D192_ED03)
        return mixer.next()
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &self)
    }

    /// `true` with probability `percent` / 100.
    mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

    /// One of `elements` (which must not be empty).
    mutating func pick<T>(_ elements: [T]) -> T { elements[int(0...elements.count - 1)] }

    /// A pure hash of `text` and `salt` (FNV-1a, then SplitMix64), the same in every process:
    /// providers called concurrently decide from what they are given, not from call order.
    static func hash(_ text: String, _ salt: UInt64) -> UInt64 {
        var value: UInt64 = 0xCBF2_9CE4_8422_2325 ^ salt
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
        var mixer = RelRandom(seed: value)
        return mixer.next()
    }
}

/// Records the seed with a failed expectation, so that the run can be replayed.
func relExpect(
    _ condition: Bool, _ message: @autoclosure () -> String, seed: UInt64,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    if !condition {
        Issue.record(
            "\(message()) [replay: ACTIONPIPE_SEED=\(seed)]", sourceLocation: sourceLocation)
    }
}
