import API
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import OnwardCore
import ServiceLifecycle
import Synchronization
import Transit
import TransitSources

/// What a live client watches: a board or a service.
public enum LiveSubject: Sendable, Hashable {
    case board(Queries.BoardQuery)
    case service(tripID: String, date: ServiceDate?, languages: [String])
}

/// One live message: the current state of the subject, as JSON and, for the
/// web app, as the page fragment to swap in.
struct LiveMessage: Encodable {
    var type: String
    var version: Int
    var board: BoardDTO?
    var service: ServiceDTO?
    var html: String?
    var updatedAt: String?
    var stale: Bool
    var error: Problem?
}

/// `GET /live` upgraded to a WebSocket: the first message is the current state,
/// then one after each realtime update that changes it. A client that falls
/// behind skips to the newest state (never a backlog). Only pages from this
/// server (or configured origins) may connect.
struct LiveRoutes {
    let deps: ServerDependencies
    let shared = LiveMessageCache()
    /// Renders a subject's page fragment for the web app (`format=html`).
    let fragment: @Sendable (LiveSubject, Queries, _ board: BoardDTO?, _ service: ServiceDTO?) -> String?

    func add(to router: Router<OnwardRequestContext>) {
        router.ws("live") { request, _ in
            guard originAllowed(request) else {
                throw Problem(status: .forbidden, code: "origin-not-allowed", title: "Origin not allowed",
                              detail: "Live updates are only for pages served by this server.")
            }
            _ = try subject(request)
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            let subject = try subject(context.request)
            let wantsHTML = context.request.uri.queryParameters.get("format") == "html"
            if isSourceSubject(subject) {
                try await cancelWhenGracefulShutdown {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask { for try await _ in inbound {} }
                        group.addTask { try await pollSource(subject, html: wantsHTML, outbound: outbound) }
                        try await group.next()
                        group.cancelAll()
                    }
                }
                return
            }
            let updates = deps.store.subscribe()
            // On shutdown the subscription ends and the socket closes; the page reconnects to the next server.
            try await cancelWhenGracefulShutdown {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    // Reading until the client closes; what it sends is not used.
                    for try await _ in inbound {}
                }
                group.addTask {
                    var last: String?
                    if let text = message(subject, html: wantsHTML) {
                        try await outbound.write(.text(text))
                        last = text
                    }
                    for await _ in updates {
                        guard let text = message(subject, html: wantsHTML), text != last else { continue }
                        try await outbound.write(.text(text))
                        last = text
                    }
                }
                try await group.next()
                group.cancelAll()
            }
            }
        }
    }

    /// The subject's state now, as one JSON text (version left out, so an unchanged state is not sent again).
    /// Computed once per subject, state version and second, and shared by every subscriber:
    /// a thousand phones on one board cost one board, not a thousand.
    func message(_ subject: LiveSubject, html: Bool) -> String? {
        let queries = deps.queries()
        let key = LiveKey(subject: subject, html: html)
        return shared.answer(key, version: queries.state.version, second: queries.now.epochSeconds) {
            render(subject, html: html, queries: queries)
        }
    }

    private func render(_ subject: LiveSubject, html: Bool, queries: Queries) -> String? {
        var m = LiveMessage(type: "board", version: 0, stale: queries.live?.stale ?? false)
        m.updatedAt = queries.live?.updatedAt
        do {
            switch subject {
            case .board(let q):
                m.board = try queries.board(q)
            case .service(let tripID, let date, let languages):
                m.type = "service"
                m.service = try queries.service(tripID: tripID, date: date, languages: languages)
            }
            if html { m.html = fragment(subject, queries, m.board, m.service) }
        } catch {
            m.type = "error"
            m.error = Problem.from(error)
        }
        return (try? JSONEncoder.api.encode(m)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether the subject belongs to a source behind the protocol (National Rail, the bus tracker).
    func isSourceSubject(_ subject: LiveSubject) -> Bool {
        let queries = deps.queries()
        switch subject {
        case .board(let q): return deps.sourceOwns(q.stopID, as: .stop, queries)
        case .service(let id, _, _): return deps.sourceOwns(id, as: .service, queries)
        }
    }

    /// A live-only source has no feed that announces changes: its subject is asked again
    /// every `sourceRefresh` and sent when the answer changed. The adapters' caches and
    /// request coalescing keep this to one upstream request per board per refresh,
    /// however many people watch it.
    func pollSource(_ subject: LiveSubject, html: Bool, outbound: WebSocketOutboundWriter) async throws {
        var last: String?
        while !Task.isCancelled {
            if let text = await sourceMessage(subject, html: html), text != last {
                try await outbound.write(.text(text))
                last = text
            }
            try await Task.sleep(for: deps.sourceRefresh)
        }
    }

    func sourceMessage(_ subject: LiveSubject, html: Bool) async -> String? {
        let queries = deps.queries()
        let sq = deps.sourceQueries()
        var m = LiveMessage(type: "board", version: 0, stale: false)
        do {
            switch subject {
            case .board(let q):
                m.board = try await sq.board(q)
            case .service(let tripID, let date, let languages):
                m.type = "service"
                m.service = try await sq.service(tripID, date: date, languages: languages)
            }
            let live = m.board?.live ?? m.service?.live
            m.stale = live?.stale ?? false
            m.updatedAt = live?.updatedAt
            if html { m.html = fragment(subject, queries, m.board, m.service) }
        } catch {
            m.type = "error"
            m.error = Problem.from(error)
        }
        return (try? JSONEncoder.api.encode(m)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// `board=STOP&kind=departures|arrivals&to=STOP` or `service=TRIP&date=YYYY-MM-DD`, with `lang`.
    func subject(_ request: Request) throws -> LiveSubject {
        let q = try Params(request)
        if let stop = q.string("board") {
            let arrivals = q.string("kind") == "arrivals"
            // A fixed moment comes as `at` (ISO 8601 with offset), so no time zone is needed here.
            return .board(Queries.BoardQuery(stopID: stop, arrivals: arrivals, via: q.string(arrivals ? "from" : "to"),
                                             at: try q.moment(in: .gmt, now: deps.now()), windowMinutes: try q.int("window", in: 1...Queries.maxWindowMinutes),
                                             limit: try q.int("limit", in: 1...Queries.maxLimit), languages: q.languages))
        }
        if let trip = q.string("service") {
            let date = try q.date("date")
            return .service(tripID: trip, date: date, languages: q.languages)
        }
        throw QueryError(.invalidParameter, "give board=STOP_ID or service=TRIP_ID", parameter: "board")
    }

    func originAllowed(_ request: Request) -> Bool {
        Self.originAllowed(request.headers[.origin], host: request.head.authority, allowed: deps.allowedOrigins)
    }

    /// A browser always sends an Origin on a WebSocket: only this server's own pages
    /// (and configured origins) may subscribe. Any other value is refused, including
    /// `null` (a sandboxed frame, a file, a redirect) and `file://`. A request with no
    /// Origin at all is not from a browser, and such a client could send any Origin it
    /// liked, so it is not refused; nor is a `ws:` or `wss:` origin, which no page has
    /// (WebSocket client libraries send one, e.g. swift-websocket's `ws://HOST`).
    static func originAllowed(_ origin: String?, host: String?, allowed: Set<String>) -> Bool {
        guard let origin, !origin.hasPrefix("ws://"), !origin.hasPrefix("wss://") else { return true }
        if allowed.contains(origin) { return true }
        guard let host, !host.isEmpty else { return false }
        return origin == "http://\(host)" || origin == "https://\(host)"
    }

    /// Whether a WebSocket upgrade request for `/live` will be refused (origin or parameters),
    /// so it can be answered over plain HTTP with its problem document: a refused upgrade
    /// itself can only be an empty 400.
    func refusesUpgrade(_ request: Request) -> Bool {
        guard request.uri.path == "/live" else { return false }
        guard originAllowed(request) else { return true }
        return (try? subject(request)) == nil
    }
}

struct LiveKey: Hashable, Sendable {
    var subject: LiveSubject
    var html: Bool
}

/// The live messages of this second and state version, by subject.
final class LiveMessageCache: Sendable {
    private struct Table {
        var version = -1
        var second: Int64 = -1
        var messages: [LiveKey: String?] = [:]
    }

    private let table = Mutex(Table())

    func answer(_ key: LiveKey, version: Int, second: Int64, compute: () -> String?) -> String? {
        if let hit = table.withLock({ t -> String?? in t.version == version && t.second == second ? t.messages[key] : nil }) { return hit }
        let fresh = compute()
        table.withLock { t in
            if t.version != version || t.second != second { t = Table(version: version, second: second) }
            t.messages[key] = fresh
        }
        return fresh
    }
}
