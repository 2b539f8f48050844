import Crypto
import Foundation
import OnwardCore

/// Polls one endpoint (an http(s) URL or a local file), one fetch at a time: fetch, hand new
/// bytes to `apply`, record the outcome in `status` (whose `nextDelay` says when to poll again).
/// The loop that waits between polls is the realtime source's (`RealtimeFeedPolling.run`).
///
/// Nothing here crashes or throws: a failed fetch, an HTTP error status or bytes
/// that `apply` rejects are recorded in `status`, and whatever `apply` last
/// accepted stays in place. `apply` sees each distinct body once; a rejected body
/// is not offered again until upstream changes it.
public actor Poller {
    /// Where this poller reads from.
    public nonisolated let location: FeedLocation
    public nonisolated let configuration: Configuration

    private let fetcher: any HTTPFetching
    private let now: @Sendable () -> Instant
    private let apply: @Sendable (Data) async throws -> Void
    private var random: SendableRandom

    private var state: PollState
    private var conditional = ConditionalRequest()
    /// The SHA-256 of the body `apply` last accepted: a byte-identical 200 is treated as not
    /// modified. A digest, not the body: a static feed's body is hundreds of megabytes.
    private var acceptedDigest: String?
    /// The digest of the body `apply` last rejected and why, so it is not offered again unchanged.
    private var rejected: (digest: String, error: SourceError)?
    /// The file's modification date and size when last read.
    private var fileSignature: FileSignature?
    /// The poll under way, shared by a concurrent `pollOnce()` instead of fetching twice.
    private var inFlight: Task<PollState.Event, Never>?

    /// - Parameters:
    ///   - fetcher: used for http(s) locations; files are read directly.
    ///   - now: the wall-clock time events are stamped with (for health and ages).
    ///   - random: the jitter source for backoff; a seeded generator makes delays deterministic.
    ///   - resuming: what was accepted before (by an earlier run): its validators and the digest
    ///     of its body, so the first request is conditional and a 304 means "still that one".
    ///   - apply: decodes bytes and swaps them in. Throwing rejects them: the fetch
    ///     counts as a failure (`.undecodable` unless a `SourceError` is thrown) and
    ///     the previous state must stay as it was.
    public init(location: FeedLocation, fetcher: any HTTPFetching, configuration: Configuration = Configuration(),
                now: @escaping @Sendable () -> Instant = { Instant.now() },
                random: some RandomNumberGenerator & Sendable = SystemRandomNumberGenerator(),
                resuming: (conditional: ConditionalRequest, digest: String)? = nil,
                apply: @escaping @Sendable (Data) async throws -> Void) {
        if let resuming { conditional = resuming.conditional; acceptedDigest = resuming.digest }
        self.location = location
        self.configuration = configuration
        self.fetcher = fetcher
        self.now = now
        self.random = SendableRandom(random)
        self.apply = apply
        self.state = PollState(interval: configuration.interval, backoff: configuration.backoff)
    }

    /// A snapshot of the poll state: failures, last success, last error, next delay, health.
    public var status: PollState { state }

    /// Fetches once, applies new data and records the outcome. For one-shot use
    /// (a CLI command) and for a "refresh now"; while a poll is already under way
    /// it waits for that one rather than fetching twice.
    @discardableResult
    public func pollOnce() async -> PollState.Event {
        if let inFlight { return await inFlight.value }
        let task = Task { await self.performPoll() }
        inFlight = task
        let event = await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
        inFlight = nil
        return event
    }

    private func performPoll() async -> PollState.Event {
        let event: PollState.Event
        switch location {
        case .url(let url): event = await pollHTTP(url)
        case .file(let path): event = await pollFile(path)
        }
        // A fetch cut short by shutdown says nothing about upstream's health.
        if case .failed = event, Task.isCancelled { return event }
        state.record(event, using: &random)
        return event
    }

    private func pollHTTP(_ url: URL) async -> PollState.Event {
        let request = conditional.applied(to: HTTPRequest(url: url, headers: configuration.headers, timeout: configuration.timeout,
                                                          maxBodyBytes: configuration.maxBodyBytes))
        let response: HTTPResponse
        do { response = try await fetcher.fetch(request) } catch { return .failed(error, at: now()) }
        switch response.status {
        case 304 where acceptedDigest != nil:
            return .notModified(at: now())
        case 304:
            // Validators without a body to go with them: start over with a plain request.
            conditional.reset()
            return .failed(SourceError(.httpStatus, "\(url.safeDescription) answered 304 with no earlier copy", status: 304), at: now())
        case 200..<300:
            let event = await offer(response.body)
            if case .failed = event {} else { conditional.remember(response) }
            return event
        default:
            return .failed(SourceError(.httpStatus, "\(url.safeDescription) answered HTTP \(response.status)", status: response.status), at: now())
        }
    }

    private func pollFile(_ path: String) async -> PollState.Event {
        let signature: FileSignature
        do { signature = try FileSignature(path: path) } catch { return .failed(error, at: now()) }
        if signature == fileSignature {
            if let rejected { return .failed(rejected.error, at: now()) }
            return .notModified(at: now())
        }
        let body: Data
        do { body = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            return .failed(SourceError(.unreadable, "cannot read \(path): \(error.localizedDescription)"), at: now())
        }
        fileSignature = signature
        return await offer(body)
    }

    /// Hands a body to `apply` unless it is the one already accepted or already rejected.
    private func offer(_ body: Data) async -> PollState.Event {
        let digest = Self.digest(body)
        if digest == acceptedDigest { return .notModified(at: now()) }
        if let rejected, rejected.digest == digest { return .failed(rejected.error, at: now()) }
        do {
            try await apply(body)
        } catch {
            let reason = (error as? SourceError)
                ?? SourceError(.undecodable, "\(location.safeName) could not be decoded (\(body.count) bytes): \(error)")
            rejected = (digest, reason)
            return .failed(reason, at: now())
        }
        acceptedDigest = digest
        rejected = nil
        return .succeeded(at: now())
    }

    /// The conditional request's validators as they stand (kept by a caller for its next start).
    public var validators: ConditionalRequest { conditional }

    /// SHA-256 of `body`, in hex: the body's identity here and in a feed's version.
    public static func digest(_ body: Data) -> String {
        FileDigest.hex(SHA256.hash(data: body))
    }
}

/// What tells a file changed without reading it: its modification date and size.
struct FileSignature: Hashable {
    var modified: Date?
    var size: Int64?

    init(path: String) throws(SourceError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw SourceError(.notFound, "no such file: \(path)")
        }
        guard !isDirectory.boolValue else { throw SourceError(.unreadable, "\(path) is a directory, not a feed file") }
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            modified = attributes[.modificationDate] as? Date
            size = (attributes[.size] as? NSNumber)?.int64Value
        } catch {
            throw SourceError(.unreadable, "cannot read \(path): \(error.localizedDescription)")
        }
    }
}

/// A type-erased generator: an existential cannot be passed where `some RandomNumberGenerator` is expected.
struct SendableRandom: RandomNumberGenerator, Sendable {
    private var base: any RandomNumberGenerator & Sendable
    init(_ base: some RandomNumberGenerator & Sendable) { self.base = base }
    mutating func next() -> UInt64 { base.next() }
}
