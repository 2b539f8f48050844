import DataSources
import Foundation
import OnwardCore
import Testing

@Suite struct UpstreamClientRetryTests {
    let url = URL(string: "https://upstream.example/predictions?stpid=4727")!
    let sleeper = RecordingSleeper()

    @Test func aGetFailingTwiceWith503ThenSucceedingTakesThreeRequests() async throws {
        let fetcher = ScriptedFetcher([.success(HTTPResponse(status: 503)), .success(HTTPResponse(status: 503)), .success(.ok("ok"))])
        let client = makeClient(fetcher, sleeper: sleeper)
        let result = try await client.fetch(HTTPRequest(url: url))
        #expect(result.response.status == 200)
        #expect(await fetcher.count == 3)
        // Two jittered waits, within the backoff's first two ceilings (0.5 s, 1 s); none slept for real.
        let sleeps = sleeper.sleeps
        #expect(sleeps.count == 2)
        #expect(sleeps.count == 2 && sleeps[0] <= .milliseconds(500) && sleeps[1] <= .seconds(1))
        let counters = await client.counters
        #expect(counters.upstreamRequests == 3)
        #expect(counters.retries == 2)
    }

    @Test func retriesStopAtTwoAndTheLastAnswerIsReturned() async throws {
        let fetcher = ScriptedFetcher([.success(HTTPResponse(status: 500))])
        let client = makeClient(fetcher, sleeper: sleeper)
        let result = try await client.fetch(HTTPRequest(url: url))
        #expect(result.response.status == 500)
        #expect(await fetcher.count == 3)
    }

    @Test func aConfigurationCannotAskForMoreThanTwoRetries() {
        #expect(RetryPolicy(maxRetries: 10).maxRetries == 2)
        #expect(RetryPolicy(maxRetries: -1).maxRetries == 0)
    }

    @Test func aPostThatWritesIsNeverRetried() async throws {
        let fetcher = ScriptedFetcher([.failure(SourceError(.network, "connection reset")), .success(.ok("ok"))])
        let client = makeClient(fetcher, sleeper: sleeper)
        await #expect(throws: SourceError(.network, "connection reset")) {
            try await client.fetch(HTTPRequest(method: .post, url: url, body: Data("send".utf8)))
        }
        #expect(await fetcher.count == 1)
        #expect(sleeper.sleeps.isEmpty)
        #expect(await client.counters.failures == 1)
    }

    @Test func aDeleteIsNeverRetried() async throws {
        let fetcher = ScriptedFetcher([.failure(SourceError(.network, "connection reset"))])
        let client = makeClient(fetcher, sleeper: sleeper)
        #expect(!HTTPRequest(method: .delete, url: url).isRetrySafe)
        await #expect(throws: SourceError.self) { try await client.fetch(HTTPRequest(method: .delete, url: url)) }
        #expect(await fetcher.count == 1)
        #expect(sleeper.sleeps.isEmpty)
    }

    @Test func aPostMarkedAsAReadIsRetried() async throws {
        let fetcher = ScriptedFetcher([.failure(SourceError(.timeout, "no answer")), .success(.ok("<board/>"))])
        let client = makeClient(fetcher, sleeper: sleeper)
        let soap = HTTPRequest(method: .post, url: url, body: Data("<GetDepartureBoardRequest/>".utf8), isIdempotentRead: true)
        #expect(try await client.fetch(soap).response.bodyUTF8 == "<board/>")
        #expect(await fetcher.count == 2)
    }

    @Test func aPermanentFailureIsNotRetried() async throws {
        let notFound = ScriptedFetcher([.success(HTTPResponse(status: 404))])
        #expect(try await makeClient(notFound, sleeper: sleeper).fetch(HTTPRequest(url: url)).response.status == 404)
        #expect(await notFound.count == 1)

        let badKey = ScriptedFetcher([.failure(SourceError(.configuration, "invalid API key"))])
        await #expect(throws: SourceError.self) { try await makeClient(badKey, sleeper: sleeper).fetch(HTTPRequest(url: url)) }
        #expect(await badKey.count == 1)
        #expect(sleeper.sleeps.isEmpty)
    }

    @Test func a429WaitsAsLongAsRetryAfterSays() async throws {
        let fetcher = ScriptedFetcher([.success(HTTPResponse(status: 429, headers: ["Retry-After": "3"])), .success(.ok("ok"))])
        let client = makeClient(fetcher, sleeper: sleeper)
        #expect(try await client.fetch(HTTPRequest(url: url)).response.status == 200)
        #expect(sleeper.sleeps == [.seconds(3)])
    }

    @Test func aRetryAfterBeyondTheCapIsReturnedAtOnce() async throws {
        let fetcher = ScriptedFetcher([.success(HTTPResponse(status: 429, headers: ["Retry-After": "3600"])), .success(.ok("ok"))])
        let client = makeClient(fetcher, sleeper: sleeper)
        let result = try await client.fetch(HTTPRequest(url: url))
        #expect(result.response.status == 429)
        #expect(result.response.headers["retry-after"] == "3600")
        #expect(await fetcher.count == 1)
        #expect(sleeper.sleeps.isEmpty)
    }

    @Test func retryAfterReadsSecondsAndHTTPDates() {
        let now = Instant(epochSeconds: 1_445_412_470)  // Wed, 21 Oct 2015 07:27:50 GMT
        #expect(RetryPolicy.retryAfter("120", now: now) == .seconds(120))
        #expect(RetryPolicy.retryAfter(" 0 ", now: now) == .zero)
        #expect(RetryPolicy.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT", now: now) == .seconds(10))
        #expect(RetryPolicy.retryAfter("Wed, 21 Oct 2015 07:00:00 GMT", now: now) == .zero)
        #expect(RetryPolicy.retryAfter("soon", now: now) == nil)
    }

    @Test func aNetworkErrorIsRetriedAndTheLastErrorThrown() async throws {
        let fetcher = ScriptedFetcher([.failure(SourceError(.network, "refused"))])
        let client = makeClient(fetcher, sleeper: sleeper)
        do {
            _ = try await client.fetch(HTTPRequest(url: url))
            Issue.record("expected a network error")
        } catch {
            #expect(error.code == .network)
        }
        #expect(await fetcher.count == 3)
        #expect(sleeper.sleeps.count == 2)
    }
}
