import API
import OnwardCore

/// The home page: search (a plain form, search-as-you-type with the script),
/// nearby stations on request, the reader's recent stations, and optionally
/// every station of a small network.
public enum HomePage {
    /// - Parameter stations: stations to list for browsing (the server may
    ///   pass all of a small network's stations, or none).
    /// - Parameter routes: a signed-in person's saved routes, listed first: one tap opens one.
    public static func render(context: PageContext, stations: [StopDTO] = [], routes: SavedRoutes? = nil) -> String {
        let s = context.strings
        var mine: HTML = .empty
        if let person = context.person, let routes {
            let items = routes.stacks.map { st in
                "<li>\(PersonForm.render(action: "/me/current", fields: [("routeId", st.route.id)], label: st.route.name, person: person, cssClass: "me-row"))</li>" as HTML
            }
            mine = """
            <section class="panel" aria-labelledby="mine-title">
            <div class="panel-head"><h2 id="mine-title">\(s(.myRoutesTitle))</h2><a href="\(Links.me)">\(s(.myRoutesOpen))</a></div>
            \(items.isEmpty ? "<p class=\"empty-state\">\(s(.myRoutesEmpty))</p>" as HTML : "<ul class=\"me-rows\">\(HTML.join(items))</ul>")
            </section>
            """
        }
        let browse: HTML = stations.isEmpty ? .empty : """
        <section class="panel" aria-labelledby="browse-title">
        <h2 id="browse-title">\(s(.browseTitle))</h2>
        \(StopSearch.list(stations, strings: s))
        </section>
        """
        let main: HTML = """
        <section class="hero">
        <h1>\(s(.homeTitle))</h1>
        <p class="lede">\(s(.homeIntro))</p>
        \(StopSearch.form(id: "q", name: "q", label: s(.searchLabel), placeholder: s(.searchPlaceholder), value: nil,
                          action: Links.search, target: "/stops/{id}", button: s(.searchButton)))
        </section>
        \(mine)
        <section class="panel" id="nearby" aria-labelledby="nearby-title" data-nearby="\(Links.nearbyAPI)" hidden>
        <div class="panel-head">
        <h2 id="nearby-title">\(s(.nearbyTitle))</h2>
        <button type="button" class="button" data-locate>\(locationIcon)<span>\(s(.nearbyUseLocation))</span></button>
        </div>
        <p class="panel-status" data-nearby-status hidden></p>
        <ul class="stop-list" data-nearby-list hidden></ul>
        </section>
        <section class="panel" id="recent" aria-labelledby="recent-title" hidden>
        <div class="panel-head">
        <h2 id="recent-title">\(s(.recentTitle))</h2>
        <button type="button" class="button button-quiet" data-recent-clear>\(s(.recentClear))</button>
        </div>
        <ul class="stop-list" data-recent-list></ul>
        </section>
        \(browse)
        """
        return Layout.document(title: "", context: context, address: PageAddress(path: Links.home), section: .home,
                               bodyClass: "page-home", main: main)
    }

    static let locationIcon: HTML = """
    <svg class="icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">\
    <path d="M12 2 4 20l8-4 8 4z" transform="rotate(45 12 12)"/></svg>
    """
}

/// Search results, for the form without the script (`GET /search?q=`).
public enum SearchPage {
    public static func render(query: String, results: StopsDTO, context: PageContext) -> String {
        let s = context.strings
        let q = query.trimmingWhitespace
        let heading = q.isEmpty ? s(.searchTitle) : s(.searchResultsTitle, ["query": q])
        let body: HTML
        if q.isEmpty {
            body = "<p class=\"empty-state\">\(s(.searchEmptyQuery))</p>"
        } else if results.stops.isEmpty {
            body = "<div class=\"empty-state\"><p><strong>\(s(.searchNoResults, ["query": q]))</strong></p><p>\(s(.searchHint))</p></div>"
        } else {
            let count = results.stops.count == 1 ? s(.searchResultsOne) : s(.searchResultsMany, ["count": String(results.stops.count)])
            body = "<p class=\"result-count\">\(count)</p>\n\(StopSearch.list(results.stops, strings: s))"
        }
        let main: HTML = """
        <h1>\(heading)</h1>
        \(StopSearch.form(id: "q", name: "q", label: s(.searchLabel), placeholder: s(.searchPlaceholder), value: q.isEmpty ? nil : q,
                          action: Links.search, target: "/stops/{id}", button: s(.searchButton)))
        <section class="panel results">
        \(body)
        </section>
        """
        return Layout.document(title: heading, context: context,
                               address: PageAddress(path: Links.search, query: q.isEmpty ? [] : [.init("q", q)]),
                               bodyClass: "page-search", main: main)
    }
}
