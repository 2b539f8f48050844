import API
import Foundation
import OnwardCore

/// A route's page: its map (each direction's way and stops, its vehicles moving as the live channel redraws the list),
/// the list of its vehicles on their way now with their next stops (the map's text), and its directions to browse.
/// The live part, `#route-live`, is rendered alone by `fragment(_:context:)` for live updates.
public enum RoutePage {
    public static func render(_ detail: RouteDetailDTO, map: RouteMapDTO?, vehicles: RouteVehiclesDTO?, context: PageContext,
                              tiles: LineMap.Tiles? = nil) -> String {
        let s = context.strings
        let source = CanonicalID.split(detail.route)?.source ?? ""
        let name = map.map { $0.route.shortName.isEmpty ? $0.route.longName : $0.route.shortName }
            ?? CanonicalID.split(detail.route)?.local ?? detail.route
        let heading = s(.routeTitle, ["route": name])
        let badge: HTML = map.map { m in
            "<p class=\"eyebrow\">\(LineBadge.render(shortName: m.route.shortName, longName: m.route.longName, color: m.route.color, strings: s))\(m.route.longName.isEmpty || m.route.longName == name ? HTML.empty : " <span class=\"route-name\">\(m.route.longName)</span>")</p>"
        } ?? .empty
        let directions = (detail.directions ?? []).map { d -> HTML in
            "<li><a class=\"stop-item\" href=\"\(Links.route(detail.route, direction: d.id))\"><span class=\"stop-name\">\(d.name)</span></a></li>"
        }
        let live: HTML = vehicles.map { v in
            """
            <div class="live-bar">
            <span class="connection" data-connection hidden></span>
            <a class="refresh-link" href="\(Links.route(detail.route))">\(s(.boardRefresh))</a>
            </div>
            \(mapSection(map, tiles: tiles, strings: s))\
            <div id="route-live" class="live-container" data-live="\(liveQuery(detail.route, language: context.language))">
            \(HTML(trusted: fragment(v, context: context)))
            </div>
            """
        } ?? mapSection(map, tiles: tiles, strings: s)
        let main: HTML = """
        <p class="breadcrumb"><a href="\(Links.routes(source: source))">\(s(.browseAllRoutes))</a></p>
        <div class="page-head">\(badge)<h1>\(heading)</h1></div>
        \(live)
        <section class="panel results" aria-labelledby="route-directions">
        <h2 id="route-directions" class="section-title">\(s(.routeDirections))</h2>
        <ul class="stop-list">\(directions)</ul>
        </section>
        """
        return Layout.document(title: heading, context: context, address: PageAddress(path: Links.route(detail.route)),
                               bodyClass: "page-browse page-route", main: main)
    }

    /// The map, when the route has two stops with coordinates to draw; its vehicles come from `#route-live`.
    static func mapSection(_ map: RouteMapDTO?, tiles: LineMap.Tiles?, strings s: Strings) -> HTML {
        guard let map else { return .empty }
        var seen = Set<String>()
        let stops = map.lines.flatMap(\.stops).compactMap { stop -> LineMap.Stop? in
            seen.insert(stop.id).inserted ? LineMap.Stop(latitude: stop.latitude, longitude: stop.longitude, name: stop.name) : nil
        }
        guard stops.count >= 2 else { return .empty }
        // Every direction's way: a direction without the feed's shape is drawn through its own stops, in order.
        let shapes = map.lines.compactMap { line -> String? in
            if let shape = line.shape { return shape }
            let points = line.stops.map { PathPoint(latitude: $0.latitude, longitude: $0.longitude) }
            return points.count >= 2 ? points.encodedPolyline : nil
        }
        return LineMap.render(id: "route-map", livePart: "route-live", label: s(.routeMapLabel), note: (s(.routeMapNote), s(.routeMapPlain)),
                              stops: stops, shapes: shapes, color: map.route.color, tiles: tiles)
    }

    /// The content of `#route-live`, also sent as the `html` of live messages: the vehicles on their way, each with
    /// where it is for the map (`data-vehicle-lat/-lon`, by its run) and its next stop in words.
    public static func fragment(_ dto: RouteVehiclesDTO, context: PageContext) -> String {
        let s = context.strings
        let count = s(.routeVehicleCount, ["count": String(dto.vehicles.count)])
        // "Live data from 08:12" on the route's clock.
        let offset = TimeZone(identifier: dto.timeZone).map { $0.secondsFromGMT(for: context.now.date) }
        let body: HTML
        if dto.live == nil {
            body = "<p class=\"empty-state\">\(s(.routeVehiclesNoLive))</p>"
        } else if dto.vehicles.isEmpty {
            body = "<p class=\"empty-state\">\(s(.routeVehiclesNone))</p>"
        } else {
            body = "<p class=\"result-count\">\(count)</p><ul class=\"route-vehicles\">\(dto.vehicles.map { item($0, strings: s) })</ul>"
        }
        let html: HTML = """
        <div class="route-fragment" data-summary="\(dto.live == nil ? "" : count)">
        <h2 class="section-title">\(s(.routeVehiclesTitle))</h2>
        \(dto.live == nil ? HTML.empty : LiveNotice.render(dto.live, utcOffset: offset, context: context))\(body)
        </div>
        """
        return html.rendered
    }

    static func item(_ v: RouteVehiclesDTO.Item, strings s: Strings) -> HTML {
        let headsign = v.headsign.map { s(.routeVehicleTo, ["headsign": $0]) } ?? v.vehicle?.label ?? v.tripId ?? ""
        var words: [String] = []
        if let next = v.next, let name = next.name {
            let time = WallClock.hhmm(next.due) ?? ""
            words.append(s(next.atStop ? .routeVehicleAt : .routeVehicleNext, ["stop": name, "time": time]))
            if let delay = next.delaySeconds, delay >= 60 { words.append(s(.statusLate, ["minutes": String(delay / 60)])) }
        }
        if v.basis == "liveTimes" { words.append(s(.routeVehiclePlaced)) }
        let label = ([headsign] + words).joined(separator: " · ")
        let key = (v.tripId ?? "") + "@" + (v.serviceDate ?? "") + (v.vehicle?.id.map { "#" + $0 } ?? "")
        let title: HTML = v.tripId.map { id in "<a href=\"\(Links.service(id, date: v.serviceDate))\">\(headsign)</a>" } ?? "\(headsign)"
        return """
        <li class="route-vehicle" data-vehicle-key="\(key)" data-vehicle-lat="\(String(v.latitude))" data-vehicle-lon="\(String(v.longitude))" \
        data-vehicle-label="\(label)"\(v.basis == "liveTimes" ? HTML(trusted: " data-vehicle-basis=\"liveTimes\"") : .empty)>\
        <span class="vehicle-title">\(title)</span> <span class="vehicle-next">\(words.joined(separator: " · "))</span>\
        \(OccupancyView.badge(v.vehicle?.occupancy, strings: s))</li>
        """
    }

    /// The query of the page's live subscription: `route=…&lang=…&format=html`.
    public static func liveQuery(_ routeID: String, language: Language) -> String {
        String(Links.queryString([("route", routeID), ("lang", language.tag), ("format", "html")]).dropFirst())
    }
}
