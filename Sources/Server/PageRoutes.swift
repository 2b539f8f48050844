import API
import Foundation
import HTTPTypes
import Hummingbird
import OnwardCore
import Services
import Storage
import Transit
import TransitSources
import WebPages

/// The web app: server-rendered pages (HTML from `WebPages`), their assets,
/// error pages, and the page fragments live updates carry.
struct PageRoutes: Sendable {
    let deps: ServerDependencies
    /// Board pages as someone signed out sees them, by request, this second (see `ResponseCache`).
    let boards = ResponseCache()

    func add(to router: Router<OnwardRequestContext>) {
        router.get("/") { request, _ in
            let queries = deps.queries()
            // A small network's stations are listed for browsing, in line order; a big one's would be a wall of names.
            // A signed-in person's routes come first on the home page.
            let person = try await signedIn(request, queries)
            return page(HomePage.render(context: person?.context ?? pageContext(request, queries), stations: await queries.listedStationsInLineOrder(),
                                        routes: person?.routes), request)
        }
        router.get("search") { request, _ in
            let queries = deps.queries()
            let q = try RequestParameters(request)
            let text = q.string("q") ?? ""
            let results = text.isEmpty ? StopsDTO([]) : try await queries.searchStops(String(text.prefix(100)), limit: 30)
            return page(SearchPage.render(query: text, results: results, context: await personalContext(request, queries)), request)
        }
        router.get("stops/{stopId}") { request, context in
            let queries = deps.queries()
            let stopID = try context.pathID("stopId")
            // Signed out, the page is the same for everyone who asks the same way this second:
            // many people watch a busy stop. (Signed in, it names the person and carries their token.)
            let visitorKey = request.cookies[Authenticator.cookieName] == nil
                ? request.uri.description + "|" + (request.headers[.acceptLanguage] ?? "") + "|" + (request.headers[.cookie] ?? "") : nil
            // Resolved once: the cache's version comes from it, and the board is asked of it.
            let stop = try queries.resolvedStop(stopID)
            if let visitorKey, let version = stop.version, let hit = boards.cached(visitorKey, version: version, second: queries.now.epochSeconds) {
                return page(hit, request)
            }
            let q = try RequestParameters(request)
            let ctx = await personalContext(request, queries)
            // Without JavaScript the "calling at" box sends a name: the query layer takes a name as the API does,
            // and one that matches several stops (or none) is answered with the places it may mean.
            var query: Queries.BoardQuery
            do { query = try await queries.boardQuery(q, stop: stop, arrivals: q.string("arrivals") == "1") } catch let e as QueryError
                where e.code == .stopNotFound && e.parameter != nil {
                let address = PageAddress(path: request.uri.path, query: RequestParameters.formDecoded(request.uri.query ?? "").map { .init($0.key, $0.value) })
                var response = page(ErrorPage.choose(Self.choices(e, typed: q.string(e.parameter!) ?? ""), parameter: e.parameter!, context: ctx,
                                                     address: address), request)
                response.status = .notFound
                return response
            }
            query.languages = ctx.language.alertLanguages
            if query.windowMinutes == nil && query.limit == nil { query.limit = Queries.defaultLimit }
            // The copy a phone keeps for no signal: the timetable's next hours; its live part asks for the usual board.
            let offline = q.string(OfflineCopy.parameter) == "1"
            if offline {
                (query.at, query.windowMinutes, query.limit, query.timetableOnly) = (nil, OfflineCopy.boardHours * 60, Queries.maxLimit, true)
            }
            let board = try await queries.board(query, stop: stop)
            let moment = query.at, window = offline ? nil : query.windowMinutes
            let zone = TimeZone.named(board.stop.timeZone)
            let page = BoardPage.render(board, context: ctx,
                                        options: .init(windowMinutes: window, limit: offline ? nil : query.limit,
                                                       names: names(board.alerts.map { $0.highPriority + $0.other } ?? [], board: board, queries),
                                                       at: moment.map { LocalTime($0, in: zone).iso8601 }, offlineCopy: offline))
            let body = ByteBuffer(string: page)
            if let visitorKey, let version = stop.version, ctx.person == nil {
                boards.keep(body, for: visitorKey, version: version, second: queries.now.epochSeconds)
            }
            return self.page(body, request)
        }
        router.get("journeys") { request, _ in try await journeyPage(request) }
        router.get("services/{tripId}") { request, context in
            let queries = deps.queries()
            let q = try RequestParameters(request)
            let date = try q.date("date")
            let ctx = await personalContext(request, queries)
            let service = try await queries.service(try context.pathID("tripId"), date: date, languages: ctx.language.alertLanguages)
            var response = page(ServicePage.render(service, context: ctx, names: names(service.alerts ?? [], queries),
                                                   routeColor: service.routeColor, tiles: tiles,
                                                   routeMap: deps.sources.resolve(service.routeId, as: .route)?.source.capabilities.contains(.browse) ?? false),
                                request)
            // The operator's base tiles are images from their server: allowed on the pages with a map.
            if let policy = SecurityHeaders.policy(allowingTiles: deps.settings.maps.tileURL) { response.headers[.contentSecurityPolicy] = policy }
            return response
        }
        router.get("sources/{source}/routes") { request, context in
            let routes = try await deps.queries().routes(source: try context.pathID("source"))
            return page(BrowsePage.routes(routes, context: await personalContext(request, deps.queries())), request)
        }
        router.get("routes/{routeId}") { request, context in
            let queries = deps.queries()
            let id = try context.pathID("routeId")
            let detail = try await queries.route(id, direction: nil)
            // The map and the vehicles where the source has them; the directions are the page either way.
            let map = try? await queries.routeMap(id), vehicles = try? await queries.routeVehicles(id)
            var response = page(RoutePage.render(detail, map: map, vehicles: vehicles, context: await personalContext(request, queries),
                                                 tiles: tiles), request)
            if let policy = SecurityHeaders.policy(allowingTiles: deps.settings.maps.tileURL) { response.headers[.contentSecurityPolicy] = policy }
            return response
        }
        router.get("routes/{routeId}/directions/{direction}") { request, context in
            let detail = try await deps.queries().route(try context.pathID("routeId"), direction: try context.pathID("direction"))
            return page(BrowsePage.direction(detail, context: await personalContext(request, deps.queries())), request)
        }
        router.get("alerts") { request, _ in
            let queries = deps.queries()
            let q = try RequestParameters(request)
            let ctx = await personalContext(request, queries)
            let (stop, route) = try await queries.alertScope(q)
            let alerts = try await queries.alerts(stopID: stop, routeID: route, languages: ctx.language.alertLanguages)
            return page(AlertsPage.render(alerts, context: ctx, names: names(alerts.alerts, queries)), request)
        }
        router.get("commute") { request, _ in page(CommutePage.render(context: await personalContext(request, deps.queries())), request) }
        PeoplePages(deps: deps, pages: self).add(to: router)
        TripPages(deps: deps, pages: self).add(to: router)
        MapRoutes(deps: deps).add(to: router)
        router.get(RouterPath(Assets.manifestPath)) { _, _ in
            Response(status: .ok, headers: [.contentType: Assets.manifestContentType, .cacheControl: "public, max-age=86400"],
                     body: .init(byteBuffer: ByteBuffer(string: Assets.manifest)))
        }
        for icon in Assets.icons {
            router.get(RouterPath(icon.path)) { _, _ in
                Response(status: .ok, headers: [.contentType: icon.contentType, .cacheControl: "public, max-age=86400"],
                         body: .init(byteBuffer: ByteBuffer(bytes: icon.bytes)))
            }
        }
        router.get(RouterPath(Assets.serviceWorkerPath)) { _, _ in
            Response(status: .ok, headers: [.contentType: Assets.jsContentType, .cacheControl: "no-cache"],
                     body: .init(byteBuffer: ByteBuffer(string: Assets.serviceWorker)))
        }
        for (path, type, body) in [(Assets.cssPath, Assets.cssContentType, Assets.css), (Assets.jsPath, Assets.jsContentType, Assets.javascript),
                                   (Assets.iconPath, Assets.iconContentType, Assets.icon)] {
            // Pages link assets with ?v=<content hash>, so browsers may keep them for a year.
            router.get(RouterPath(path)) { _, _ in
                Response(status: .ok, headers: [.contentType: type, .cacheControl: "public, max-age=31536000, immutable"],
                         body: .init(byteBuffer: ByteBuffer(string: body)))
            }
        }
    }

    /// An error page for a browser: the traveller-facing text comes from the string tables, never the error.
    @Sendable func errorPage(_ problem: Problem, _ request: Request) -> Response? {
        let queries = deps.queries()
        let ctx = pageContext(request, queries)
        let segments = request.uri.path.split(separator: "/").map(String.init)
        let html: String
        switch (problem.code, segments.first) {
        case ("stop-not-found", "stops"): html = ErrorPage.stopNotFound(segments.count > 1 ? segments[1].removingPercentEncoding ?? segments[1] : "", context: ctx)
        case ("trip-not-found", _): html = ErrorPage.serviceNotFound(segments.count > 1 ? segments[1].removingPercentEncoding ?? segments[1] : "", context: ctx)
        case ("not-running", _):
            html = ErrorPage.serviceNotRunning(segments.count > 1 ? segments[1].removingPercentEncoding ?? segments[1] : "",
                                               date: request.uri.queryParameters.get("date") ?? "", context: ctx)
        default: html = ErrorPage.render(status: problem.status, context: ctx)
        }
        var response = page(html, request)
        response.status = .init(code: problem.status)
        return response
    }

    /// A person's routes (or, with `view=glance`, the top of the current stack) as `/live?me` carries them for the web app.
    @Sendable func meFragment(_ routes: SavedRoutes, _ result: RouteResultDTO?, _ signed: PeopleService.Signed, _ request: Request) -> String {
        var ctx = pageContext(request, deps.queries())
        ctx.person = PageContext.Person(displayName: signed.account.displayName, csrfToken: signed.session.csrfToken, routesVersion: routes.version)
        if request.uri.queryParameters.get("view") == "glance" {
            return GlancePage.fragment(result ?? RouteResultDTO(state: .noRoutes), context: ctx)
        }
        // The routes page shows the current stack's top: the glance's result is not computed for it, so it is here.
        return MyRoutesPage.fragment(routes, result: result ?? RouteResultDTO(state: .loading), context: ctx)
    }

    /// A commute's journey as its live messages carry it, in the request's language.
    @Sendable func commuteFragment(_ commute: CommuteDTO, _ request: Request) -> String {
        CommutePage.journeyFragment(commute, strings: pageContext(request, deps.queries()).strings)
    }

    /// The fragment a live update carries, rendered exactly as the page renders it.
    @Sendable func liveFragment(_ subject: LiveSubject, _ queries: Queries, _ message: LiveMessage) -> String? {
        switch subject {
        case .board(let q):
            guard let board = message.board else { return nil }
            let ctx = PageContext(language: Language(tag: q.languages.first ?? "en") ?? .en, attribution: [deps.settings.attribution], now: queries.now)
            return BoardPage.fragment(board, context: ctx, options: .init(windowMinutes: q.windowMinutes, limit: q.limit,
                                                                           names: names(board.alerts.map { $0.highPriority + $0.other } ?? [], board: board, queries)))
        case .service(_, _, let languages):
            guard let service = message.service else { return nil }
            let ctx = PageContext(language: Language(tag: languages.first ?? "en") ?? .en, attribution: [deps.settings.attribution], now: queries.now)
            return ServicePage.fragment(service, context: ctx, names: names(service.alerts ?? [], queries), routeColor: service.routeColor)
        case .route(_, let languages):
            guard let vehicles = message.route else { return nil }
            let ctx = PageContext(language: Language(tag: languages.first ?? "en") ?? .en, attribution: [deps.settings.attribution], now: queries.now)
            return RoutePage.fragment(vehicles, context: ctx)
        }
    }

    // MARK: - Helpers

    /// The operator's base tiles for the maps (`map_tile_url`), if configured.
    var tiles: LineMap.Tiles? { deps.settings.maps.tileURL.map { LineMap.Tiles(url: $0, attribution: deps.settings.maps.tileAttribution) } }

    /// The signed-in person: the page context with them in it (name, the session's anti-forgery token, their
    /// routes' version), their session and their routes; nil without a current session. A storage failure throws.
    func signedIn(_ request: Request, _ queries: Queries) async throws -> (context: PageContext, signed: PeopleService.Signed, routes: SavedRoutes)? {
        guard request.cookies[Authenticator.cookieName] != nil, let caller = try await deps.auth.caller(request) else { return nil }
        let routes = try await deps.people.routes(caller.signed.account.id)
        var ctx = pageContext(request, queries)
        ctx.person = PageContext.Person(displayName: caller.signed.account.displayName, csrfToken: caller.signed.session.csrfToken,
                                        routesVersion: routes.version)
        return (ctx, caller.signed, routes)
    }

    /// The page context, with the signed-in person when there is one. For pages that only link to the
    /// person's things (the header, save buttons): if storage cannot say who it is, the page still shows,
    /// as for someone signed out. Pages of the person's own (My routes, glance, account) use `signedIn`.
    func personalContext(_ request: Request, _ queries: Queries) async -> PageContext {
        (try? await signedIn(request, queries))??.context ?? pageContext(request, queries)
    }

    /// Language from ?lang=, then the cookie, then Accept-Language; theme from its cookie.
    func pageContext(_ request: Request, _ queries: Queries) -> PageContext {
        let cookies = Self.cookies(request)
        let language = Language.resolve(query: request.uri.queryParameters.get("lang"), cookie: cookies["lang"],
                                        acceptLanguage: request.headers[.acceptLanguage])
        let theme: String? = request.uri.queryParameters.get("theme").map { String($0) } ?? cookies["theme"]
        return PageContext(language: language, theme: Theme(value: theme), attribution: [deps.settings.attribution], now: queries.now)
    }

    /// An HTML answer; a ?lang= or ?theme= choice (the switches' links, without JavaScript) is remembered in a cookie.
    func page(_ html: String, _ request: Request) -> Response { page(ByteBuffer(string: html), request) }

    func page(_ html: ByteBuffer, _ request: Request) -> Response {
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"]
        if let lang = request.uri.queryParameters.get("lang"), let language = Language(tag: String(lang)) {
            headers.append(HTTPField(name: .setCookie, value: "lang=\(language.tag); Path=/; Max-Age=31536000; SameSite=Lax"))
        }
        if let theme = request.uri.queryParameters.get("theme") {
            headers.append(HTTPField(name: .setCookie, value: "theme=\(Theme(value: String(theme)).rawValue); Path=/; Max-Age=31536000; SameSite=Lax"))
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: html))
    }

    static func cookies(_ request: Request) -> [String: String] {
        var result: [String: String] = [:]
        for header in request.headers[values: .cookie] {
            for part in header.split(separator: ";") {
                let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if pair.count == 2 { result[pair[0]] = pair[1] }
            }
        }
        return result
    }

    /// Names for the routes and stops alerts mention, so a card says "NS" and "Blok M", not IDs
    /// (and the board's own stop by the name it shows).
    private func names(_ alerts: [AlertDTO], board: BoardDTO? = nil, _ queries: Queries) -> EntityNames {
        var names = queries.names(of: alerts)
        if let board { names.stops[board.stop.id] = names.stops[board.stop.id] ?? board.stop.name }
        return names
    }
}

extension PageRoutes {
    /// A name that matched several stops, or none, as the places a page offers to pick.
    static func choices(_ e: QueryError, typed: String) -> PlaceChoices.Problem {
        PlaceChoices.Problem(text: typed, choices: e.candidates.map { PlaceChoices.Choice(id: $0.id, name: $0.name, isStation: $0.detail == "station") },
                             nearest: e.candidatesAreNearest)
    }

    /// The journey planner page. A place is the stop picked from the suggestions
    /// (`fromId`), else the typed text matched as on the board search; what cannot be
    /// matched or planned is said on the page, with the form kept as it was.
    func journeyPage(_ request: Request) async throws -> Response {
        let queries = deps.queries()
        let q = try RequestParameters(request)
        let ctx = await personalContext(request, queries)
        var form = JourneyPage.Form()
        form.fromText = q.string("from") ?? ""
        form.fromID = q.string("fromId") ?? ""
        form.toText = q.string("to") ?? ""
        form.toID = q.string("toId") ?? ""
        form.date = q.string("date") ?? ""
        form.time = q.string("time") ?? ""
        form.arriveBy = q.string("arriveBy") == "1"
        form.wheelchair = q.string("wheelchair") == "1"
        form.lessCrowded = q.string("lessCrowded") == "1"
        form.reliable = q.string("reliable") == "1"
        var answer: JourneysDTO?
        var problem: String?
        var choice: (parameter: String, problem: PlaceChoices.Problem)?
        let from = form.fromID.isEmpty ? form.fromText : form.fromID, to = form.toID.isEmpty ? form.toText : form.toID
        if !from.isEmpty && !to.isEmpty {
            // The API's reading of a journey request; a page shows the hour's options (without a
            // window, the first departure's), and arriving by a time only when one is given.
            let timed = !form.date.isEmpty || !form.time.isEmpty
            let options: [String: String?] = [
                "from": String(from.prefix(100)), "to": String(to.prefix(100)), "date": q.string("date"), "time": q.string("time"),
                "arriveBy": form.arriveBy && timed ? "true" : nil, "window": form.arriveBy ? nil : "60", "limit": "8",
                "wheelchair": form.wheelchair ? "true" : nil, "lessCrowded": form.lessCrowded ? "true" : nil,
                "reliable": form.reliable ? "true" : nil,
            ]
            do {
                let query = try await queries.journeyQuery(try RequestParameters(options: options))
                answer = try await queries.plan(query)
                // The form keeps the names the places resolved to.
                if let a = answer { (form.fromText, form.fromID, form.toText, form.toID) = (a.from.name, a.from.id, a.to.name, a.to.id) }
            } catch where error.code == .stopNotFound && (error.parameter == "from" || error.parameter == "to") {
                choice = (error.parameter!, Self.choices(error, typed: error.parameter == "from" ? from : to))
            } catch {
                problem = error.message
            }
        } else if !from.isEmpty, let place = try? await queries.matchStop(String(from.prefix(100))) {
            (form.fromText, form.fromID) = (place.name, place.id)
        }
        return page(JourneyPage.render(form: form, answer: answer, problem: problem, choice: choice, context: ctx), request)
    }
}
