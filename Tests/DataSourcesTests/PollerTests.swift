import DataSources
import Foundation
import OnwardCore
import OnwardTesting
import Testing

/// What an `apply` closure saw and kept: the bodies offered, and the last one it
/// accepted (the "state" a real decoder would swap in). Bodies starting "bad" are rejected.
actor Sink {
    private(set) var offered: [String] = []
    private(set) var current: String?

    func apply(_ data: Data) throws {
        let text = String(decoding: data, as: UTF8.self)
        offered.append(text)
        if text.hasPrefix("bad") { throw DecodeFailure() }
        current = text
    }

    struct DecodeFailure: Error {}
}

/// Wall-clock time the tests set by hand.
final class ManualNow: @unchecked Sendable {
    private let lock = NSLock()
    private var value = Instant(epochSeconds: 1_750_000_000)
    func callAsFunction() -> Instant { lock.withLock { value } }
    func advance(_ seconds: Int64) { lock.withLock { value = value.adding(seconds: seconds) } }
}

@Suite struct PollerHTTPTests {
    let url = URL(string: "https://feeds.example/tripupdates.pb")!
    let fetcher = FakeHTTPFetcher()
    let sink = Sink()
    let now = ManualNow()

    func poller(_ configuration: Poller.Configuration = Poller.Configuration()) -> Poller {
        let sink = sink, now = now
        return Poller(location: .url(url), fetcher: fetcher, configuration: configuration,
                      now: { now() }, random: SeededRandom(seed: 1)) { try await sink.apply($0) }
    }

    @Test func applyIsCalledOncePerNewBodyAnd304SkipsIt() async {
        let server = ETagServer()
        await fetcher.stub(url) { server.reply($0) }
        let poller = poller()

        server.serve("one", etag: "\"1\"")
        #expect(await poller.pollOnce() == .succeeded(at: now()))
        now.advance(30)
        #expect(await poller.pollOnce() == .notModified(at: now()))
        server.serve("two", etag: "\"2\"")
        now.advance(30)
        #expect(await poller.pollOnce() == .succeeded(at: now()))

        #expect(await sink.offered == ["one", "two"])
        #expect(await sink.current == "two")
        let sent = await fetcher.requests.map { $0.headers["If-None-Match"] }
        #expect(sent == [nil, "\"1\"", "\"1\""])
        let status = await poller.status
        #expect(status.successes == 2)
        #expect(status.notModifiedCount == 1)
        #expect(status.lastSuccess == now())
    }

    @Test func anIdenticalBodyFromAServerWithoutValidatorsIsNotReapplied() async {
        await fetcher.stub(url, body: Data("same".utf8))
        let poller = poller()
        await poller.pollOnce()
        #expect(await poller.pollOnce() == .notModified(at: now()))
        #expect(await sink.offered == ["same"])
    }

    @Test func aRejectedBodyIsRecordedAsUndecodableAndTheLastGoodStateStays() async {
        let poller = poller()
        await fetcher.stub(url, body: Data("good 1".utf8))
        await poller.pollOnce()

        await fetcher.stub(url, body: Data("bad bytes".utf8))
        guard case .failed(let error, _) = await poller.pollOnce() else { Issue.record("a rejected body must fail"); return }
        #expect(error.code == .undecodable)
        #expect(await sink.current == "good 1")
        // The same bad body again is not offered again, and still counts as a failure.
        await poller.pollOnce()
        #expect(await sink.offered == ["good 1", "bad bytes"])
        var status = await poller.status
        #expect(status.consecutiveFailures == 2)
        #expect(status.lastError?.code == .undecodable)

        await fetcher.stub(url, body: Data("good 2".utf8))
        await poller.pollOnce()
        status = await poller.status
        #expect(status.consecutiveFailures == 0)
        #expect(await sink.current == "good 2")
    }

    @Test func aRejectedBodysValidatorsAreNotRemembered() async {
        // Were they, the server would answer 304 to the bad body for ever and it would look healthy.
        let server = ETagServer()
        await fetcher.stub(url) { server.reply($0) }
        let poller = poller()
        server.serve("bad", etag: "\"bad\"")
        await poller.pollOnce()
        await poller.pollOnce()
        #expect(await fetcher.requests.map { $0.headers["If-None-Match"] } == [nil, nil])
        #expect(await poller.status.consecutiveFailures == 2)
    }

    @Test func aSourceErrorThrownByApplyIsKeptAsIs() async {
        let stale = SourceError(.stale, "feed header is 2 hours old")
        await fetcher.stub(url, body: Data("old".utf8))
        let now = now
        let poller = Poller(location: .url(url), fetcher: fetcher, now: { now() }) { _ in throw stale }
        #expect(await poller.pollOnce() == .failed(stale, at: now()))
        #expect(await poller.status.lastError == stale)
    }

    @Test func aTimeoutIsRecordedAndNothingIsApplied() async {
        let timeout = SourceError(.timeout, "feeds.example did not answer within 10 seconds")
        await fetcher.stub(url, error: timeout)
        let poller = poller()
        #expect(await poller.pollOnce() == .failed(timeout, at: now()))
        let status = await poller.status
        #expect(status.lastError == timeout)
        #expect(status.consecutiveFailures == 1)
        #expect(status.nextDelay <= .seconds(5))
        #expect(status.health(now: now(), maxAge: .seconds(120)) == .unavailable(timeout))
        #expect(await sink.offered.isEmpty)
    }

    @Test func anErrorStatusIsAFailureWithTheStatus() async {
        await fetcher.stub(url, status: 503, body: Data("<html>maintenance</html>".utf8))
        let poller = poller()
        guard case .failed(let error, _) = await poller.pollOnce() else { Issue.record("503 must fail"); return }
        #expect(error.code == .httpStatus)
        #expect(error.status == 503)
        #expect(await sink.offered.isEmpty)
    }

    @Test func a304WithNoEarlierCopyIsAFailure() async {
        await fetcher.stub(url, status: 304)
        let poller = poller()
        guard case .failed(let error, _) = await poller.pollOnce() else { Issue.record("a bare 304 must fail"); return }
        #expect(error.status == 304)
    }

    @Test func requestsCarryTheConfiguredTimeoutAndHeaders() async {
        await fetcher.stub(url, body: Data("x".utf8))
        let poller = poller(Poller.Configuration(timeout: .seconds(4), headers: ["x-api-key": "secret"]))
        await poller.pollOnce()
        let request = await fetcher.requests.first
        #expect(request?.timeout == .seconds(4))
        #expect(request?.headers == ["x-api-key": "secret"])
    }
}

@Suite struct PollerFileTests {
    let sink = Sink()

    func withTempFile(_ body: (URL) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onward-poller-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder.appendingPathComponent("feed.pb"))
    }

    func poller(_ location: FeedLocation) -> Poller {
        let sink = sink
        // Files never touch the fetcher: the fake fails loudly if one does.
        return Poller(location: location, fetcher: FakeHTTPFetcher()) { try await sink.apply($0) }
    }

    @Test func aFileIsReadAgainOnlyWhenItsDateOrSizeChanges() async throws {
        try await withTempFile { file in
            try Data("first".utf8).write(to: file)
            let poller = poller(.file(path: file.path))
            #expect(await poller.pollOnce().isSuccess)
            #expect(await poller.pollOnce().isNotModified)

            try Data("second, longer".utf8).write(to: file)
            #expect(await poller.pollOnce().isSuccess)

            // Same size, new date: read again.
            try Data("third, longer!".utf8).write(to: file)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: file.path)
            #expect(await poller.pollOnce().isSuccess)
            #expect(await sink.offered == ["first", "second, longer", "third, longer!"])
        }
    }

    @Test func aFileURLWorksLikeAPath() async throws {
        try await withTempFile { file in
            try Data("via url".utf8).write(to: file)
            let location = try #require(FeedLocation(file.absoluteString))
            #expect(await poller(location).pollOnce().isSuccess)
            #expect(await sink.current == "via url")
        }
    }

    @Test func aMissingFileIsNotFoundAndABadOneKeepsTheLastGoodState() async throws {
        try await withTempFile { file in
            let poller = poller(.file(path: file.path))
            guard case .failed(let missing, _) = await poller.pollOnce() else { Issue.record("missing file must fail"); return }
            #expect(missing.code == .notFound)

            try Data("good".utf8).write(to: file)
            await poller.pollOnce()
            try Data("bad!!".utf8).write(to: file)
            guard case .failed(let bad, _) = await poller.pollOnce() else { Issue.record("bad file must fail"); return }
            #expect(bad.code == .undecodable)
            // Unchanged since: still failing, not offered again.
            #expect(!(await poller.pollOnce().isNotModified))
            #expect(await sink.offered == ["good", "bad!!"])
            #expect(await sink.current == "good")
            #expect(await poller.status.consecutiveFailures == 2)
        }
    }
}

extension PollState.Event {
    var isSuccess: Bool { if case .succeeded = self { true } else { false } }
    var isNotModified: Bool { if case .notModified = self { true } else { false } }
}
