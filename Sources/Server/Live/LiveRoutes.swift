import API
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import OnwardCore
import Services
import Storage
import Transit
import TransitSources
import Trips

/// `GET /live` upgraded to a WebSocket: the first message is the current state,
/// then one after each realtime update that changes it. A client that falls
/// behind skips to the newest state (never a backlog). Only pages from this
/// server (or configured origins) may connect.
struct LiveRoutes {
    let deps: ServerDependencies
    let shared = LiveMessageCache()
    /// Renders a subject's page fragment for the web app (`format=html`).
    let fragment: @Sendable (LiveSubject, Queries, LiveMessage) -> String?
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
            let request = context.request
            let pump = LivePump(inbound: inbound, outbound: outbound)
            if let id = commuteID(request) {
                guard let (first, updates) = await deps.commutes.watch(id) else { return }
                return try await pump.run(commuteLive(request, id: id, first: first), changes: [LiveChanges(updates) { .update($0) }])
            }
            if Self.wantsMe(request) {
                guard let caller = try await auth.caller(request) else { return }
                let accountId = caller.signed.account.id
                // Subscribed before the first read, so no change falls between the two.
                var changes = [LiveChanges(deps.people.hub.subscribe(accountId)) { MeLive.Input.routes($0) }]
                if let watches = deps.watches { changes.append(LiveChanges(watches.notices.subscribe(accountId)) { .watchNotice($0) }) }
                let channel = meLive(request, caller.signed)
                if channel.followsLiveData {
                    // Live data changes what a board or a service shows; a source asked on demand is asked again each refresh.
                    changes += deps.sources.sources.compactMap(\.updates).map { LiveChanges($0.subscribe()) { _ in .liveData } }
                }
                return try await pump.run(channel, changes: changes, every: channel.followsLiveData ? (deps.settings.sourceRefresh, .liveData) : nil,
                                          until: deps.people.sessionEnds.watch(caller.signed.session))
            }
            if let trip = Self.tripID(request) {
                guard let caller = try await auth.caller(request) else { return }
                let person = caller.signed.account.id
                // Subscribed before the first read, so no change falls between the two.
                let signals = deps.trips.hub.subscribe(trip: trip, person: person)
                let ended = deps.people.sessionEnds.watch(caller.signed.session)
                guard let opened = try await deps.trips.openLive(trip, for: person) else { return }
                let channel = TripLive(trips: deps.trips, trip: opened, viewer: .init(person: person, radius: try Self.tripRadius(request)))
                return try await pump.run(channel, changes: [LiveChanges(signals) { .signal($0) }], every: (deps.settings.tripRecheck, .tick), until: ended)
            }
            let subject = try subject(request)
            let updates = self.updates(of: subject)
            let channel = BoardLive(subject: subject, html: request.uri.queryParameters.get("format") == "html", updates: updates,
                                    message: { await message($0, html: $1, version: $2) })
            // A source asked on demand announces no changes: ask again every `sourceRefresh`. Its cache and request
            // coalescing keep this to one upstream request per board per refresh, however many people watch it.
            guard let updates else { return try await pump.run(channel, every: (deps.settings.sourceRefresh, ())) }
            try await pump.run(channel, changes: [LiveChanges(updates.subscribe()) { _ in () }])
        }
    }

    /// `board=STOP&kind=departures|arrivals&to=STOP`, `service=TRIP&date=YYYY-MM-DD` or `route=ROUTE`, with `lang`.
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
        if let route = q.string("route") { return .route(routeID: route, languages: q.languages) }
        throw QueryError(.invalidParameter, "give board=STOP_ID, service=TRIP_ID or route=ROUTE_ID", parameter: "board")
    }

    /// A commute's channel, with the web app's rendering when it asks for `format=html`.
    func commuteLive(_ request: Request, id: String, first: CommuteDTO) -> CommuteLive {
        guard request.uri.queryParameters.get("format") == "html" else { return CommuteLive(commutes: deps.commutes, id: id, first: first, html: nil) }
        let render = commuteFragment
        return CommuteLive(commutes: deps.commutes, id: id, first: first, html: { render($0, request) })
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
        let accountId = signed.account.id
        guard request.uri.queryParameters.get("format") == "html" else {
            return MeLive(deps: deps, accountId: accountId, glance: glance, languages: languages, html: nil)
        }
        let render = meFragment
        return MeLive(deps: deps, accountId: accountId, glance: glance, languages: languages, html: { render($0, $1, signed, request) })
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
