import Foundation

/// Exponential backoff with "full jitter" (as in the AWS architecture note on
/// backoff): after the n-th consecutive failure the delay is drawn uniformly from
/// `[0, min(cap, base × factorⁿ⁻¹)]`. Jitter spreads retries from many clients so a
/// recovering upstream is not hit by all of them at once.
public struct Backoff: Sendable, Hashable {
    /// The ceiling after the first failure.
    public var base: Duration
    /// How much the ceiling grows per further failure.
    public var factor: Double
    /// The ceiling never exceeds this, however many failures.
    public var cap: Duration

    public init(base: Duration = .seconds(5), factor: Double = 2, cap: Duration = .seconds(300)) {
        self.base = max(base, .zero)
        self.factor = max(factor, 1)
        self.cap = max(cap, .zero)
    }

    /// The upper end of the jitter window after `failures` consecutive failures:
    /// zero for none, then growing by `factor` and clamped to `cap`, so it never decreases.
    public func ceiling(afterFailures failures: Int) -> Duration {
        guard failures > 0 else { return .zero }
        // Computed in Double so a long outage cannot overflow; anything past the cap is the cap.
        let seconds = base.inSeconds * pow(factor, Double(failures - 1))
        guard seconds.isFinite, seconds < cap.inSeconds else { return cap }
        return .seconds(seconds)
    }

    /// A jittered delay after `failures` consecutive failures, drawn with `random`
    /// (inject a seeded generator to make it deterministic).
    public func delay(afterFailures failures: Int, using random: inout some RandomNumberGenerator) -> Duration {
        let ceiling = ceiling(afterFailures: failures)
        guard ceiling > .zero else { return .zero }
        // 53 random bits give a fraction in [0, 1) that maps the same way on every platform,
        // unlike Double.random(in:using:), whose use of the generator is unspecified.
        let fraction = Double(random.next() >> 11) * 0x1p-53
        return .seconds(ceiling.inSeconds * fraction)
    }
}
