import API
import OnwardCore

/// Browsing a source organised by routes (the bus tracker): its routes, a route's
/// directions, then a direction's stops, each linking on to the next and, at the
/// end, to the stop's live board.
public enum BrowsePage {
    /// A source's routes.
    public static func routes(_ dto: RoutesDTO, context: PageContext) -> String {
        let s = context.strings
        let heading = s(.browseRoutesTitle, ["source": dto.source])
        let items = dto.routes.map { r -> HTML in
            let badge = LineBadge.render(shortName: r.shortName, longName: r.longName, color: r.color, strings: s)
            return "<li><a class=\"stop-item\" href=\"\(Links.route(r.id))\">\(badge) <span class=\"stop-name\">\(r.longName)</span></a></li>"
        }
        let main: HTML = """
        <h1>\(heading)</h1>
        <section class="panel results">
        <p class="result-count">\(s(.browseRouteCount, ["count": String(dto.routes.count)]))</p>
        <ul class="stop-list">\(items)</ul>
        </section>
        """
        return Layout.document(title: heading, context: context, address: PageAddress(path: Links.routes(source: dto.source)),
                               bodyClass: "page-browse", main: main)
    }

    /// One direction's stops (a route's own page, with its directions, is `RoutePage`).
    public static func direction(_ dto: RouteDetailDTO, context: PageContext) -> String {
        let s = context.strings
        let name = CanonicalID.split(dto.route)?.local ?? dto.route
        let source = CanonicalID.split(dto.route)?.source ?? ""
        let direction = dto.direction ?? ""
        let heading = s(.browseStopsTitle, ["route": name, "direction": direction])
        let stops = dto.stops ?? []
        let list: HTML = stops.isEmpty ? "<p class=\"empty-state\">\(s(.browseNoStops))</p>" : StopSearch.list(stops, strings: s)
        let main: HTML = """
        <p class="breadcrumb"><a href="\(Links.routes(source: source))">\(s(.browseAllRoutes))</a> › <a href="\(Links.route(dto.route))">\(name)</a></p>
        <h1>\(heading)</h1>
        <section class="panel results">
        \(list)
        </section>
        """
        return Layout.document(title: heading, context: context, address: PageAddress(path: Links.route(dto.route, direction: direction)),
                               bodyClass: "page-browse", main: main)
    }
}
