import DataSources
import Foundation
import OnwardCore
import OnwardTesting
import Testing

/// The wall clock an `UpstreamClient` reads in tests, moved by hand.
final class UpstreamTestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var value = Instant(epochSeconds: 1_750_000_000)
    var now: Instant { lock.withLock { value } }
    func advance(_ seconds: Int64) { lock.withLock { value = value.adding(seconds: seconds) } }
}

/// Records every wait an `UpstreamClient` asks for and returns at once, so retry
/// tests never sleep in real time and can check the delays asked for.
final class RecordingSleeper: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Duration] = []
    var sleeps: [Duration] { lock.withLock { recorded } }
    func sleep(_ duration: Duration) { lock.withLock { recorded.append(duration) } }
}

/// A fetcher that answers from a script, one outcome per request in order (the
/// last repeated), and records every request.
actor ScriptedFetcher: HTTPFetching {
    private var script: [Result<HTTPResponse, SourceError>]
    private(set) var requests: [HTTPRequest] = []

    init(_ script: [Result<HTTPResponse, SourceError>]) {
        precondition(!script.isEmpty)
        self.script = script
    }

    /// Answers every request with 200 and `body`.
    init(body: String) { self.init([.success(HTTPResponse(status: 200, body: Data(body.utf8)))]) }

    var count: Int { requests.count }

    /// Replaces what the following requests get.
    func answer(_ script: [Result<HTTPResponse, SourceError>]) { self.script = script }

    func fetch(_ request: HTTPRequest) async throws(SourceError) -> HTTPResponse {
        requests.append(request)
        let outcome = script.count > 1 ? script.removeFirst() : script[0]
        return try outcome.get()
    }
}

/// A fetcher whose requests all wait until the test releases them: a fetch
/// "in flight" for as long as the test needs.
actor GatedFetcher: HTTPFetching {
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var released = false
    private(set) var requests: [HTTPRequest] = []
    let body: String

    init(body: String = "ok") { self.body = body }

    var count: Int { requests.count }

    func fetch(_ request: HTTPRequest) async throws(SourceError) -> HTTPResponse {
        requests.append(request)
        if !released { await withCheckedContinuation { waiting.append($0) } }
        return HTTPResponse(status: 200, body: Data("\(body) for \(request.url.path)".utf8))
    }

    /// Makes the following requests wait again.
    func hold() { released = false }

    /// Lets every waiting and future request answer.
    func release() {
        released = true
        for continuation in waiting { continuation.resume() }
        waiting.removeAll()
    }
}

extension HTTPResponse {
    var bodyUTF8: String { String(decoding: body, as: UTF8.self) }
    static func ok(_ text: String) -> HTTPResponse { HTTPResponse(status: 200, body: Data(text.utf8)) }
}

/// Waits, yielding, until `condition` holds; records an issue if it never does.
/// For "the other callers are now waiting" states a test cannot await directly.
func eventually(_ what: String, within limit: Duration = .seconds(30),
                sourceLocation: SourceLocation = #_sourceLocation, _ condition: () async -> Bool) async {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if await condition() { return }
        await Task.yield()
        try? await Task.sleep(for: .milliseconds(1))
    }
    Issue.record("timed out waiting until \(what)", sourceLocation: sourceLocation)
}

/// An `UpstreamClient` over `fetcher` with a hand-moved clock and a sleeper that does not sleep.
func makeClient(_ fetcher: any HTTPFetching, name: String = "test-source", requestLimit: Int? = nil,
                retry: RetryPolicy = RetryPolicy(), secrets: [String] = [],
                clock: UpstreamTestClock = UpstreamTestClock(), sleeper: RecordingSleeper = RecordingSleeper()) -> UpstreamClient {
    UpstreamClient(configuration: .init(name: name, requestLimit: requestLimit, retry: retry, secrets: secrets),
                   fetcher: fetcher, now: { clock.now }, sleep: { sleeper.sleep($0) },
                   random: ConstantRandom(.max))  // jitter at the top of each window
}
