import API

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

    /// A route's directions, or one direction's stops.
    public static func route(_ dto: RouteDetailDTO, context: PageContext) -> String {
        let s = context.strings
        let name = dto.route.split(separator: ":", maxSplits: 1).last.map(String.init) ?? dto.route
        let source = dto.route.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        let heading: String
        let list: HTML
        if let stops = dto.stops, let direction = dto.direction {
            heading = s(.browseStopsTitle, ["route": name, "direction": direction])
            list = stops.isEmpty ? "<p class=\"empty-state\">\(s(.browseNoStops))</p>" : StopSearch.list(stops, strings: s)
        } else {
            heading = s(.browseDirectionsTitle, ["route": name])
            let items = (dto.directions ?? []).map { d -> HTML in
                "<li><a class=\"stop-item\" href=\"\(Links.route(dto.route, direction: d.id))\"><span class=\"stop-name\">\(d.name)</span></a></li>"
            }
            list = "<ul class=\"stop-list\">\(items)</ul>"
        }
        let main: HTML = """
        <p class="breadcrumb"><a href="\(Links.routes(source: source))">\(s(.browseAllRoutes))</a></p>
        <h1>\(heading)</h1>
        <section class="panel results">
        \(list)
        </section>
        """
        let path = dto.direction.map { Links.route(dto.route, direction: $0) } ?? Links.route(dto.route)
        return Layout.document(title: heading, context: context, address: PageAddress(path: path), bodyClass: "page-browse", main: main)
    }
}
