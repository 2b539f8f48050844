/// A deterministic random generator (SplitMix64) for tests of jitter and shuffles.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A generator that always returns the same value: `.max` gives the top of every
/// jitter window, `0` the bottom, so a test can name exact delays.
public struct ConstantRandom: RandomNumberGenerator, Sendable {
    public var value: UInt64
    public init(_ value: UInt64) { self.value = value }
    public mutating func next() -> UInt64 { value }
}
