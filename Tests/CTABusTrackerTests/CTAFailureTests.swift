import CTABusTracker
import DataSources
import Foundation
import OnwardCore
import OnwardTesting
import Testing
import TransitSources

/// Failures through the adapter: what they are called, what `status` says after them,
/// and that the key never shows in any of it.
@Suite struct CTAFailureTests {
    static let key = "SECRET-KEY-0123456789abcdef"
    static let now = utc(2015, 2, 14, 18, 22)

    func make(key: String = Self.key, now: Instant = Self.now, dailyLimit: Int? = 10_000) -> (CTABusTrackerSource, FakeBusTracker, TestNow) {
        let fake = FakeBusTracker(key: key)
        let clock = TestNow(now)
        return (CTABusTrackerSource(key: key, fetcher: fake, now: clock.closure, dailyLimit: dailyLimit, retry: .none), fake, clock)
    }

    /// The error `body` throws; the adapter's API throws `SourceError` only, checked here.
    func failure(_ body: () async throws -> Void) async -> SourceError? {
        do {
            try await body()
            return nil
        } catch let error as SourceError {
            return error
        } catch {
            Issue.record("not a SourceError: \(error)")
            return nil
        }
    }

    /// Every text the adapter gives back about a failure.
    func texts(_ error: SourceError?, _ source: CTABusTrackerSource) -> [String] {
        var texts = source.status(now: Self.now).flatMap { [$0.name, $0.detail ?? ""] }
        if let error { texts += [error.message, error.description, String(describing: error), "\(error)"] }
        return texts
    }

    @Test func anInvalidKeyIsAConfigurationErrorAndTheSourceIsUnavailable() async {
        for body in [CTAErrorBody.json(CTAErrorBody.invalidKey), CTAErrorBody.xml(CTAErrorBody.invalidKey)] {
            let (source, fake, _) = make()
            await fake.stub(.routes, body: body)
            let error = await failure { _ = try await source.routes() }
            #expect(error?.code == .configuration)
            #expect(error?.message == "cta getroutes: the bus tracker refused the API key (Invalid API access key supplied)")
            let status = source.status(now: Self.now)[0]
            #expect(status.state == .unavailable && status.detail == error?.message)
        }
    }

    @Test func theDailyLimitStopsRequestsUntilMidnightInChicago() async throws {
        for body in [CTAErrorBody.json(CTAErrorBody.dailyLimit), CTAErrorBody.xml(CTAErrorBody.dailyLimit)] {
            let (source, fake, clock) = make()
            await fake.stub(.vehicles, ["rt": "22"], body: body)
            let first = await failure { _ = try await source.vehicles(routeID: "cta:22", now: Self.now) }
            #expect(first?.code == .budgetExhausted)
            #expect(source.status(now: Self.now)[0].state == .unavailable)
            // Not asked again today, not even for something else.
            let second = await failure { _ = try await source.routes() }
            #expect(second?.code == .budgetExhausted)
            #expect(second?.message.hasPrefix("cta getroutes: ") == true)
            #expect(await fake.received.count == 1)
            // After midnight in Chicago (06:00 UTC in February) it asks again.
            let nextDay = utc(2015, 2, 15, 6, 0, 1)
            clock.set(nextDay)
            await fake.stub(.routes, body: Data(##"{"bustime-response": {"routes": [{"rt": "22", "rtnm": "Clark", "rtclr": "#cc3300"}]}}"##.utf8))
            #expect(try await source.routes().map(\.id) == ["cta:22"])
            #expect(source.status(now: nextDay)[0].state == .fresh)
        }
    }

    @Test(.needsRecordings) func theAdaptersOwnAllowanceIsCountedAndShown() async throws {
        let (source, fake, _) = make(dailyLimit: 1)
        try await fake.stub(.directions, ["rt": "22"], file: "v2xml_getdirections_rt22.xml")
        #expect(try await source.directions(routeID: "cta:22").count == 2)
        #expect(source.status(now: Self.now)[0].budgetRemaining == 0)
        // A cached answer costs nothing; a new question is refused without a request.
        #expect(try await source.directions(routeID: "cta:22").count == 2)
        let refused = await failure { _ = try await source.directions(routeID: "cta:8") }
        #expect(refused?.code == .budgetExhausted)
        #expect(await fake.received.count == 1)
    }

    @Test func noKeyMeansNoRequest() async {
        let (source, fake, _) = make(key: "")
        let error = await failure { _ = try await source.routes() }
        #expect(error?.code == .configuration && error?.message == "cta getroutes: no API key is configured")
        #expect(await fake.received.isEmpty)
        #expect(source.status(now: Self.now)[0].state == .unavailable)
    }

    @Test func transportFailuresNameTheOperationNotTheURL() async {
        let url = CTARequest.predictions(stopIDs: ["15895"])[0].url(base: CTARequest.defaultBase, key: Self.key)
        let cases: [(SourceError, SourceError.Code, String)] = [
            (SourceError(.network, "fetching \(url.absoluteString) failed: connection refused"), .network,
             "cta getpredictions: the bus tracker could not be reached"),
            (SourceError(.timeout, "\(url) did not answer"), .timeout, "cta getpredictions: the bus tracker did not answer in time"),
        ]
        for (thrown, code, message) in cases {
            let (source, fake, _) = make()
            await fake.stub(.predictions, ["stpid": "15895"], error: thrown)
            let error = await failure { _ = try await source.predictions(stopIDs: ["cta:15895"]) }
            #expect(error?.code == code && error?.message == message)
            #expect(source.status(now: Self.now)[0].state == .failing)
        }
        let (source, fake, _) = make()
        await fake.stub(.predictions, ["stpid": "15895"], body: Data("<html>Bad gateway</html>".utf8), status: 502)
        let error = await failure { _ = try await source.predictions(stopIDs: ["cta:15895"]) }
        #expect(error == SourceError(.httpStatus, "cta getpredictions: the bus tracker answered HTTP 502", status: 502))
    }

    /// Whatever fails, and wherever the text comes from, the key is not in it.
    @Test(.needsRecordings) func theKeyNeverAppears() async throws {
        let url = CTARequest.routes.url(base: CTARequest.defaultBase, key: Self.key).absoluteString
        let bodies: [(String, Data)] = [
            ("invalid key JSON", CTAErrorBody.json(CTAErrorBody.invalidKey)),
            ("invalid key XML", CTAErrorBody.xml(CTAErrorBody.invalidKey)),
            ("daily limit XML", CTAErrorBody.xml(CTAErrorBody.dailyLimit)),
            ("an error quoting the key", CTAErrorBody.json("Unknown key \(Self.key)")),
            ("an error quoting the URL", CTAErrorBody.xml("Bad request \(url.replacingOccurrences(of: "&", with: "&amp;"))")),
            ("malformed JSON", Data(#"{"bustime-response": {"error": [{"msg": "\#(Self.key)"#.utf8)),
            ("malformed XML", Data("<bustime-response><error>\(Self.key)</bustime-response>".utf8)),
        ]
        for (what, body) in bodies {
            let (source, fake, _) = make()
            await fake.stub(.routes, body: body)
            let error = await failure { _ = try await source.routes() }
            #expect(error != nil, "\(what)")
            for text in texts(error, source) {
                #expect(!text.contains(Self.key), "\(what): \(text)")
                #expect(!text.contains("ctabustracker.com"), "\(what): \(text)")
            }
        }
        let thrown: [SourceError] = [
            SourceError(.network, "fetching \(url) failed"), SourceError(.timeout, "\(url) timed out"),
            SourceError(.rejected, "no reply for \(url)"), SourceError(.httpStatus, "\(url) answered 500", status: 500),
        ]
        for error in thrown {
            let (source, fake, _) = make()
            await fake.stub(.routes, error: error)
            let caught = await failure { _ = try await source.routes() }
            for text in texts(caught, source) {
                #expect(!text.contains(Self.key) && !text.contains("ctabustracker.com"), "\(text)")
            }
        }
        // A board whose bulletins failed says so, without the key.
        let (source, fake, _) = make()
        try await fake.stub(.predictions, ["stpid": "15895"], file: "v2xml_getpredictions_rt22_stpid15895.xml")
        try await fake.stub(.stops, ["rt": "22", "dir": "Northbound"], file: "v2xml_getstops_rt22_northbound.xml")
        await fake.stub(.serviceBulletins, ["stpid": "15895"], error: SourceError(.network, "fetching \(url) failed"))
        let board = try await source.board(SourceBoardRequest(stopID: "cta:15895", now: Self.now))
        #expect(board.entries.count == 2 && board.alerts == nil)
        #expect(board.live?.unavailable == ["cta getservicebulletins: the bus tracker could not be reached"])
    }
}
