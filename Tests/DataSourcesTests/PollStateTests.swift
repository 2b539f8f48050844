import DataSources
import OnwardCore
import OnwardTesting
import Testing

@Suite struct PollStateTests {
    let t0 = Instant(epochSeconds: 1_750_000_000)
    let timeout = SourceError(.timeout, "no answer")

    func state() -> PollState {
        PollState(interval: .seconds(30), backoff: Backoff(base: .seconds(5), factor: 2, cap: .seconds(60)))
    }

    @Test func startsUnavailableWithNothingToReport() {
        let s = state()
        #expect(s.nextDelay == .zero)
        #expect(s.consecutiveFailures == 0)
        #expect(s.lastSuccess == nil)
        #expect(s.health(now: t0, maxAge: .seconds(120)) == .unavailable(nil))
    }

    @Test func successWaitsTheInterval() {
        var s = state()
        s.record(.succeeded(at: t0))
        #expect(s.nextDelay == .seconds(30))
        #expect(s.lastSuccess == t0)
        #expect(s.successes == 1)
        #expect(s.lastError == nil)
    }

    @Test func consecutiveFailuresBackOffWithinAGrowingWindowUpToTheCap() {
        var s = state()
        var top = ConstantRandom(.max)  // the top of each window, so growth is visible
        s.record(.succeeded(at: t0), using: &top)
        var delays: [Duration] = []
        for i in 1...5 {
            s.record(.failed(timeout, at: t0.adding(seconds: Int64(i))), using: &top)
            #expect(s.consecutiveFailures == i)
            delays.append(s.nextDelay)
        }
        let ceilings: [Duration] = [.seconds(5), .seconds(10), .seconds(20), .seconds(40), .seconds(60)]
        for (delay, ceiling) in zip(delays, ceilings) {
            #expect(delay <= ceiling && delay > ceiling - .milliseconds(1), "\(delay) vs \(ceiling)")
        }
        #expect(s.lastError == timeout)
        #expect(s.lastSuccess == t0)  // a failure keeps the last good time
    }

    @Test func seededFailureDelaysStayInsideZeroToCap() {
        var s = state()
        var random = SeededRandom(seed: 7)
        for i in 1...20 {
            s.record(.failed(timeout, at: t0.adding(seconds: Int64(i))), using: &random)
            #expect(s.nextDelay >= .zero && s.nextDelay <= .seconds(60))
            #expect(s.nextDelay <= s.backoff.ceiling(afterFailures: i))
        }
    }

    @Test func successResetsTheBackoff() {
        var s = state()
        var top = ConstantRandom(.max)
        for i in 1...3 { s.record(.failed(timeout, at: t0.adding(seconds: Int64(i))), using: &top) }
        #expect(s.nextDelay > .seconds(19))
        s.record(.succeeded(at: t0.adding(seconds: 100)), using: &top)
        #expect(s.consecutiveFailures == 0)
        #expect(s.nextDelay == .seconds(30))
        // The next failure starts again from the base window.
        s.record(.failed(timeout, at: t0.adding(seconds: 130)), using: &top)
        #expect(s.nextDelay <= .seconds(5))
        // The error stays reported after recovery, with when it happened.
        #expect(s.lastFailure == t0.adding(seconds: 130))
        #expect(s.failures == 4)
    }

    @Test func notModifiedKeepsTheLastSuccessButConfirmsFreshness() {
        var s = state()
        s.record(.succeeded(at: t0))
        s.record(.failed(timeout, at: t0.adding(seconds: 30)))
        s.record(.notModified(at: t0.adding(seconds: 60)))
        #expect(s.lastSuccess == t0)
        #expect(s.lastConfirmed == t0.adding(seconds: 60))
        #expect(s.consecutiveFailures == 0)
        #expect(s.nextDelay == .seconds(30))
        #expect(s.notModifiedCount == 1)
        #expect(s.health(now: t0.adding(seconds: 150), maxAge: .seconds(120)) == .fresh)
    }

    @Test func healthTurnsStaleWithItsAgeWhenFetchesKeepFailing() {
        var s = state()
        s.record(.succeeded(at: t0))
        for i in 1...10 { s.record(.failed(timeout, at: t0.adding(seconds: Int64(i * 30)))) }
        #expect(s.health(now: t0.adding(seconds: 120), maxAge: .seconds(120)) == .fresh)
        #expect(s.health(now: t0.adding(seconds: 300), maxAge: .seconds(120)) == .stale(age: .seconds(300)))
    }

    @Test func healthIsUnavailableWithTheErrorUntilTheFirstSuccess() {
        var s = state()
        let notFound = SourceError(.httpStatus, "answered HTTP 404", status: 404)
        s.record(.failed(timeout, at: t0))
        s.record(.failed(notFound, at: t0.adding(seconds: 5)))
        #expect(s.health(now: t0.adding(seconds: 6), maxAge: .seconds(120)) == .unavailable(notFound))
        s.record(.succeeded(at: t0.adding(seconds: 10)))
        #expect(s.health(now: t0.adding(seconds: 11), maxAge: .seconds(120)) == .fresh)
    }

    @Test func aClockThatWentBackwardsCountsAsFresh() {
        var s = state()
        s.record(.succeeded(at: t0))
        #expect(s.health(now: t0.adding(seconds: -50), maxAge: .seconds(10)) == .fresh)
    }
}
