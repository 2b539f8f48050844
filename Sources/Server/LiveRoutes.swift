import API
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import OnwardCore
import ServiceLifecycle
import Services
import Storage
import Synchronization
import Transit
import TransitSources
import Trips

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
    /// Renders a commute's journey for the web app (`format=html`).
    let commuteFragment: @Sendable (CommuteDTO, Request) -> String
    /// Renders a person's routes (or, with `view=glance`, the top of the current stack) for the web app (`format=html`).
    var meFragment: @Sendable (SavedRoutes, RouteResultDTO?, PeopleService.Signed, Request) -> String = { _, _, _, _ in "" }

    func add(to router: Router<OnwardRequestContext>) {
        router.ws("live") { request, _ in
            guard originAllowed(request) else {
                throw Problem(status: .forbidden, code: "origin-not-allowed", title: "Origin not allowed",
                              detail: "Live updates are only for pages served by this server.")
            }
            if let id = commuteID(request) {
                guard await deps.commutes.exists(id) else { throw CommuteRoutes.notFound }
                return .upgrade([:])
            }
            if Self.wantsMe(request) {
                guard try await auth.caller(request) != nil else { throw Authenticator.signInRequired }
                return .upgrade([:])
            }
            if let trip = Self.tripID(request) {
                guard let caller = try await auth.caller(request) else { throw Authenticator.signInRequired }
                // Not a member: as for a trip that does not exist.
                _ = try await deps.trips.trip(trip, for: caller.signed.account.id)
                _ = try Self.tripRadius(request)
                return .upgrade([:])
            }
            _ = try subject(request)
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            if let id = commuteID(context.request) {
                return try await commuteLive(context.request).run(id, inbound: inbound, outbound: outbound)
            }
            if Self.wantsMe(context.request) {
                guard let caller = try await auth.caller(context.request) else { return }
                return try await meLive(context.request, caller.signed).run(caller.signed, inbound: inbound, outbound: outbound)
            }
            if let trip = Self.tripID(context.request) {
                guard let caller = try await auth.caller(context.request) else { return }
                return try await TripLive(deps: deps, tripID: trip).run(caller.signed, radius: try Self.tripRadius(context.request),
                                                                         inbound: inbound, outbound: outbound)
            }
            let subject = try subject(context.request)
            let wantsHTML = context.request.uri.queryParameters.get("format") == "html"
            let updates = self.updates(of: subject)
            let changes = updates?.subscribe()
            // On shutdown the socket closes; the page reconnects to the next server.
            try await cancelWhenGracefulShutdown {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    // Reading until the client closes; what it sends is not used.
                    group.addTask { for try await _ in inbound {} }
                    group.addTask {
                        var last: String?
                        func send() async throws {
                            guard let text = await message(subject, html: wantsHTML, version: updates?.version), text != last else { return }
                            try await outbound.write(.text(text))
                            last = text
                        }
                        try await send()
                        if let changes {
                            for await _ in changes { try await send() }
                        } else {
                            // A source asked on demand announces no changes: ask again every `sourceRefresh`.
                            // Its cache and request coalescing keep this to one upstream request per board
                            // per refresh, however many people watch it.
                            while !Task.isCancelled {
                                try await Task.sleep(for: deps.settings.sourceRefresh)
                                try await send()
                            }
                        }
                    }
                    try await group.next()
                    group.cancelAll()
                }
            }
        }
    }

    /// The change announcements of the subject's source, or nil for a source asked on demand
    /// (or an ID no source has: its error message is sent once).
    func updates(of subject: LiveSubject) -> (any SourceUpdates)? {
        switch subject {
        case .board(let q): deps.sources.resolve(q.stopID, as: .stop)?.source.updates
        case .service(let id, _, _): deps.sources.resolve(id, as: .service)?.source.updates
        }
    }

    /// The subject's state now, as one JSON text (version left out, so an unchanged state is not sent again).
    /// From a source that announces changes it is computed once per subject, state version and second,
    /// and shared by every subscriber: a thousand phones on one board cost one board, not a thousand.
    func message(_ subject: LiveSubject, html: Bool, version: Int?) async -> String? {
        let queries = deps.queries()
        guard let version else { return await render(subject, html: html, queries: queries) }
        return await shared.answer(LiveKey(subject: subject, html: html), version: version, second: queries.now.epochSeconds) {
            await render(subject, html: html, queries: queries)
        }
    }

    private func render(_ subject: LiveSubject, html: Bool, queries: Queries) async -> String? {
        var m = LiveMessage(type: "board", version: 0, stale: false)
        do {
            switch subject {
            case .board(let q):
                m.board = try await queries.board(q)
            case .service(let tripID, let date, let languages):
                m.type = "service"
                m.service = try await queries.service(tripID, date: date, languages: languages)
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
        let q = try RequestParameters(request)
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

    /// A commute's channel, with the web app's rendering when it asks for `format=html`.
    func commuteLive(_ request: Request) -> CommuteLive {
        guard request.uri.queryParameters.get("format") == "html" else { return CommuteLive(commutes: deps.commutes, html: nil) }
        let render = commuteFragment
        return CommuteLive(commutes: deps.commutes, html: { render($0, request) })
    }

    var auth: Authenticator { deps.auth }

    /// `me`: the signed-in person's routes (by the session cookie or `Authorization: Bearer`).
    static func wantsMe(_ request: Request) -> Bool { request.uri.queryParameters["me"] != nil }

    static func tripID(_ request: Request) -> String? { request.uri.queryParameters.get("trip") }

    /// The viewer's radius in metres (`radius`, default 2,000).
    static func tripRadius(_ request: Request) throws -> Double {
        let radius = try RequestParameters(request).double("radius") ?? MapVisibility.defaultRadiusMetres
        guard radius >= 1, radius <= 100_000 else { throw PeopleService.invalid("radius must be from 1 to 100000 metres", "radius") }
        return radius
    }

    func meLive(_ request: Request, _ signed: PeopleService.Signed) -> MeLive {
        let glance = request.uri.queryParameters.get("view") == "glance"
        let languages = (try? RequestParameters(request))?.languages ?? ["en"]
        guard request.uri.queryParameters.get("format") == "html" else { return MeLive(deps: deps, glance: glance, languages: languages, html: nil) }
        let render = meFragment
        return MeLive(deps: deps, glance: glance, languages: languages, html: { render($0, $1, signed, request) })
    }

    /// `commute=ID`: a commute's own channel (its ID is never printed: the access log drops query strings).
    func commuteID(_ request: Request) -> String? {
        (try? RequestParameters(request))?.string("commute")
    }

    func originAllowed(_ request: Request) -> Bool {
        Self.originAllowed(request.headers[.origin], host: request.head.authority, allowed: deps.settings.allowedOrigins)
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
        if let id = commuteID(request) { return !deps.commutes.mayExist(id) }
        // Whether the credentials are current is checked by the upgrade itself.
        let signedOut = Authenticator.bearer(request) == nil && request.cookies[Authenticator.cookieName] == nil
        if Self.wantsMe(request) { return signedOut }
        // Membership, like the credentials, is checked by the upgrade itself.
        if Self.tripID(request) != nil { return signedOut || (try? Self.tripRadius(request)) == nil }
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

    func answer(_ key: LiveKey, version: Int, second: Int64, compute: () async -> String?) async -> String? {
        if let hit = table.withLock({ t -> String?? in t.version == version && t.second == second ? t.messages[key] : nil }) { return hit }
        let fresh = await compute()
        table.withLock { t in
            if t.version != version || t.second != second { t = Table(version: version, second: second) }
            t.messages[key] = fresh
        }
        return fresh
    }
}
