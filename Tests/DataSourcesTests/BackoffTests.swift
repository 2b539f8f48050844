import DataSources
import OnwardTesting
import Testing

@Suite struct BackoffTests {
    let backoff = Backoff(base: .seconds(2), factor: 2, cap: .seconds(60))

    @Test func ceilingGrowsByFactorThenStaysAtCap() {
        let ceilings = (0...12).map { backoff.ceiling(afterFailures: $0) }
        #expect(Array(ceilings.prefix(6)) == [.zero, .seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(32)])
        #expect(ceilings[6] == .seconds(60))
        #expect(ceilings.last == .seconds(60))
        // Never decreasing, never over the cap.
        #expect(zip(ceilings, ceilings.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(ceilings.allSatisfy { $0 <= backoff.cap })
    }

    @Test func aVeryLongOutageStaysAtTheCapWithoutOverflow() {
        #expect(backoff.ceiling(afterFailures: 10_000) == .seconds(60))
        #expect(backoff.ceiling(afterFailures: Int.max) == .seconds(60))
    }

    @Test func seededDelaysStayInsideTheJitterWindowAndRepeat() {
        var random = SeededRandom(seed: 42)
        var again = SeededRandom(seed: 42)
        var delays: [Duration] = []
        for failures in 1...40 {
            let delay = backoff.delay(afterFailures: failures, using: &random)
            #expect(delay >= .zero)
            #expect(delay <= backoff.ceiling(afterFailures: failures))
            #expect(delay == backoff.delay(afterFailures: failures, using: &again))
            delays.append(delay)
        }
        // Full jitter: the draws really spread over the window, not all at one end.
        #expect(Set(delays).count > 30)
        #expect(delays.contains { $0 < .seconds(30) })
        #expect(delays.contains { $0 > .seconds(30) })
    }

    @Test func constantRandomPicksTheEndsOfTheWindow() {
        var top = ConstantRandom(.max)
        var bottom = ConstantRandom(0)
        let high = backoff.delay(afterFailures: 3, using: &top)
        #expect(high > .milliseconds(7_999) && high <= .seconds(8))
        #expect(backoff.delay(afterFailures: 3, using: &bottom) == .zero)
        #expect(backoff.delay(afterFailures: 0, using: &top) == .zero)
    }
}
