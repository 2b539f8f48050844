import API
import OnwardCore

/// "My routes": the person's stacks as tabs, the breadcrumbs of the current stack's drill-down,
/// and what its top shows now. A tap on a service or a journey option pushes it; a crumb goes
/// back to it. Every change is a form posted to the server, so it works without a script; with
/// one, the page follows `/live?me` and redraws when any device changes the routes.
public enum MyRoutesPage {
    public static func render(_ routes: SavedRoutes, result: RouteResultDTO, notice: String? = nil, context: PageContext) -> String {
        let s = context.strings
        let noticeHTML: HTML = notice.map { "<p class=\"form-problem\" role=\"alert\">\($0)</p>" } ?? .empty
        let main: HTML = """
        <div class="page-head">
        <h1>\(s(.myRoutesTitle))</h1>
        <p class="connection" data-connection hidden></p>
        </div>
        \(noticeHTML)
        <div id="me-live" class="live-container" data-live="me&amp;format=html&amp;lang=\(context.language.tag)">
        \(HTML(trusted: fragment(routes, result: result, context: context)))
        </div>
        <p class="more-link"><a href="\(Links.glance)">\(s(.myRoutesGlance))</a> · <a href="\(Links.account)">\(s(.accountTitle))</a></p>
        """
        return Layout.document(title: s(.myRoutesTitle), context: context, address: PageAddress(path: Links.me), section: .me,
                               bodyClass: "page-me", main: main)
    }

    /// In place of "My routes" with no signal: the saved boards whose timetables the phone keeps, as links to their
    /// copies (the tabs and forms need the server).
    public static func offline(boards: [(name: String, link: String)], context: PageContext) -> String {
        let s = context.strings
        let items = boards.map { b -> HTML in "<li><a class=\"stop-item\" href=\"\(b.link)\"><span class=\"stop-name\">\(b.name)</span></a></li>" }
        let body: HTML = boards.isEmpty ? "<p class=\"empty-state\">\(s(.offlineNoBoards))</p>"
            : "<p>\(s(.offlineMyRoutes))</p><ul class=\"stop-list offline-boards\">\(items)</ul>"
        let main: HTML = """
        <div class="page-head"><h1>\(s(.myRoutesTitle))</h1></div>
        <section class="panel results offline-routes" data-offline-note>\(body)</section>
        """
        return Layout.document(title: s(.myRoutesTitle), context: context, address: PageAddress(path: Links.me), section: .me,
                               bodyClass: "page-me", mainAttributes: OfflineCopy.mark, main: main)
    }

    /// The part the live channel redraws.
    public static func fragment(_ routes: SavedRoutes, result: RouteResultDTO, context: PageContext) -> String {
        let s = context.strings
        guard let signedIn = context.person, let stack = routes.current else {
            return """
            <div class="empty-state me-empty" data-summary="\(s(.myRoutesTitle))"><p>\(s(.myRoutesEmpty))</p>
            <p><a class="button" href="\(Links.home)">\(s(.myRoutesFindStation))</a> <a class="button" href="\(Links.journeys())">\(s(.navJourney))</a></p></div>
            """
        }
        // Forms send back the version this fragment shows, which may be newer than the page's.
        var person = signedIn
        person.routesVersion = routes.version
        let tabs = HTML.join(routes.stacks.map { st in
            PersonForm.render(action: "/me/current", fields: [("routeId", st.route.id)], label: st.route.name, person: person,
                              cssClass: "tab", current: st.route.id == stack.route.id)
        })
        let trail = [stack.route] + stack.pushed
        let crumbs = HTML.join(trail.enumerated().map { depth, route in
            depth == trail.count - 1
                ? "<li aria-current=\"location\">\(route.name)</li>"
                : "<li>\(PersonForm.render(action: "/me/routes/\(Links.pathSegment(stack.route.id))/back", fields: [("depth", String(depth))], label: route.name, person: person, cssClass: "crumb"))</li>"
        })
        let html: HTML = """
        <div class="me-routes" data-summary="\(stack.top.name)" data-version="\(routes.version)">
        <nav class="tabs route-tabs" aria-label="\(s(.myRoutesTabsLabel))">\(tabs)</nav>
        <nav class="breadcrumbs" aria-label="\(s(.myRoutesTrailLabel))"><ol>\(crumbs)</ol></nav>
        \(body(result, stack: stack, person: person, context: context))
        \(edit(stack.route, position: routes.stacks.firstIndex { $0.route.id == stack.route.id } ?? 0, count: routes.stacks.count, person: person, strings: s))
        </div>
        """
        return html.rendered
    }

    /// Renaming, moving and removing the current route.
    static func edit(_ route: SavedRoute, position: Int, count: Int, person: PageContext.Person, strings s: Strings) -> HTML {
        let base = "/me/routes/\(Links.pathSegment(route.id))"
        let left: HTML = position > 0
            ? PersonForm.render(action: base + "/move", fields: [("position", String(position - 1))], label: s(.myRoutesMoveLeft), person: person) : .empty
        let right: HTML = position < count - 1
            ? PersonForm.render(action: base + "/move", fields: [("position", String(position + 1))], label: s(.myRoutesMoveRight), person: person) : .empty
        return """
        <details class="route-edit"><summary>\(s(.myRoutesEdit))</summary>
        <form class="rename-route" method="post" action="\(base)/rename">
        <input type="hidden" name="_csrf" value="\(person.csrfToken)"><input type="hidden" name="version" value="\(String(person.routesVersion))">
        <p class="form-field"><label class="field-label" for="route-name">\(s(.myRoutesName))</label>\
        <input id="route-name" name="name" type="text" required maxlength="80"\(HTML.attribute("value", route.name))></p>
        <button type="submit" class="button">\(s(.myRoutesRename))</button>
        </form>
        <div class="account-actions">\(left)\(right)\(PersonForm.render(action: base + "/delete", fields: [], label: s(.myRoutesDelete), person: person,
                                                                          cssClass: "button button-danger"))</div>
        </details>
        """
    }

    static func body(_ result: RouteResultDTO, stack: RouteStack, person: PageContext.Person, context: PageContext) -> HTML {
        let s = context.strings
        guard result.state == .loaded else {
            return "<p class=\"empty-state\" role=\"alert\">\(s(.myRoutesFailed, ["reason": result.reason ?? ""]))</p>"
        }
        let push = "/me/routes/\(Links.pathSegment(stack.route.id))/stack"
        if let board = result.board {
            let rows = (board.departures ?? board.arrivals ?? []).prefix(8).map { e -> HTML in
                let status = RunStatus(api: e.status)
                let label: HTML = """
                \(TimeCell.render(scheduled: e.scheduledDeparture ?? e.scheduledArrival, expected: e.expectedDeparture ?? e.expectedArrival, status: status, strings: s)) \
                <span class="me-line">\(e.routeShortName)</span> <span class="me-headsign">\(e.headsign)</span> \
                <span class="status \(status.cssClass)">\(status.text(delaySeconds: e.delaySeconds, scheduled: e.scheduledDeparture, expected: e.expectedDeparture, strings: s))</span>
                """
                return "<li>\(PersonForm.render(action: push, fields: [("kind", "service"), ("tripId", e.tripId), ("serviceDate", e.serviceDate)], label: label.rendered, person: person, cssClass: "me-row"))</li>"
            }
            let open = Links.board(board.stop.id, arrivals: board.arrivals != nil && board.departures == nil, via: board.via?.id)
            return """
            <ol class="me-rows">\(HTML.join(rows))</ol>
            \(rows.isEmpty ? "<p class=\"empty-state\">\(board.emptyReason ?? s(.boardEmptyDeparturesSoon))</p>" as HTML : .empty)
            <p class="more-link"><a href="\(open)">\(s(.myRoutesOpen))</a></p>
            """
        }
        if let service = result.service {
            return """
            \(HTML(trusted: ServicePage.fragment(service, context: context, routeColor: service.routeColor)))
            <p class="more-link"><a href="\(Links.service(service.tripId, date: service.serviceDate))">\(s(.myRoutesOpen))</a></p>
            """
        }
        if let journeys = result.journeys {
            guard !journeys.journeys.isEmpty else { return "<p class=\"empty-state\">\(journeys.emptyReason ?? s(.journeyNone))</p>" }
            let items = journeys.journeys.enumerated().map { n, j -> HTML in
                let follow: HTML = stack.top.kind == .journeyOption ? .empty
                    : PersonForm.render(action: push, fields: [("kind", "journeyOption"), ("from", journeys.from.id), ("to", journeys.to.id), ("departure", j.departure)],
                                        label: s(.myRoutesFollow), person: person, cssClass: "button")
                // Each option of a saved journey can be watched, as on the journey page.
                return "\(JourneyPage.journey(j, strings: s, watch: "me-watch-days-\(n + 1)"))\(follow)"
            }
            return """
            <ol class="journey-list"\(JourneyPage.watchAttributes(journeys, person: person))>\(HTML.join(items))</ol>
            <p class="more-link"><a href="\(Links.journeys(from: journeys.from.id, to: journeys.to.id))">\(s(.myRoutesOpen))</a></p>
            """
        }
        return .empty
    }
}

/// The glance view: the top of the current stack, compact enough for a watch (200×200 stays legible),
/// redrawn live. No header or footer: only what a glance needs.
public enum GlancePage {
    public static func render(_ result: RouteResultDTO?, context: PageContext) -> String {
        let s = context.strings
        let content: HTML = result.map { HTML(trusted: fragment($0, context: context)) } ?? "<p class=\"glance-empty\"><a href=\"\(Links.signIn)\">\(s(.glanceSignIn))</a></p>"
        let live: HTML = result == nil ? .empty : HTML.attribute("data-live", "me&view=glance&format=html&lang=\(context.language.tag)")
        let page: HTML = """
        \(Layout.opening(title: s(.pageTitle, ["page": s(.glanceTitle)]), context: context))
        <body class="page-glance"\(Layout.scriptStrings(s))>
        <main id="main" class="glance"\(live)>\(content)</main>
        <div id="live-status" class="visually-hidden" role="status" aria-live="polite"></div>
        </body>
        </html>
        """
        return page.rendered + "\n"
    }

    public static func fragment(_ result: RouteResultDTO, context: PageContext) -> String {
        let s = context.strings
        guard let route = result.route else {
            return "<p class=\"glance-empty\" data-summary=\"\(s(.myRoutesTitle))\">\(s(.myRoutesEmpty))</p>"
        }
        var lines: [HTML] = []
        switch result.state {
        case .loaded:
            if let board = result.board {
                lines = (board.departures ?? board.arrivals ?? []).prefix(3).map { e in
                    let status = RunStatus(api: e.status)
                    let time = WallClock.hhmm(e.expectedDeparture ?? e.scheduledDeparture ?? e.expectedArrival ?? e.scheduledArrival) ?? ""
                    return "<li><span class=\"glance-time \(status.cssClass)\">\(time)</span> <span class=\"glance-what\">\(e.routeShortName) \(e.headsign)</span></li>"
                }
            } else if let service = result.service {
                lines = service.calls.filter { $0.status != "departed" }.prefix(3).map { c in
                    "<li><span class=\"glance-time\">\(WallClock.hhmm(c.expectedArrival ?? c.scheduledArrival) ?? "")</span> <span class=\"glance-what\">\(c.stopName)</span></li>"
                }
            } else if let journeys = result.journeys {
                lines = journeys.journeys.prefix(3).map { j in
                    "<li><span class=\"glance-time\">\(WallClock.hhmm(j.departure) ?? "")</span> <span class=\"glance-what\">→ \(WallClock.hhmm(j.arrival) ?? "")</span></li>"
                }
            }
        case .failed, .loading, .noRoutes:
            lines = ["<li class=\"glance-failed\">\(s(.myRoutesFailed, ["reason": result.reason ?? ""]))</li>"]
        }
        let html: HTML = """
        <h1 class="glance-name" data-summary="\(route.name)">\(route.name)</h1>
        <ol class="glance-lines">\(HTML.join(lines))</ol>
        """
        return html.rendered
    }
}
