import API
import Foundation
import OnwardCore

/// One service: its line, destination and date, then its calling points as a
/// vertical line diagram with the vehicle's last known position on it.
///
/// The realtime part (cancellation, alerts, live notice, vehicle, diagram) is
/// in `#service-live`, rendered alone by `fragment(_:context:)` for live updates.
public enum ServicePage {
    /// The whole page.
    /// - Parameter routeMap: whether the route has a page with its map and all its vehicles, to link to.
    /// - Parameter routeColor: the route's colour (GTFS hex), when the server
    ///   knows it: the service's wire type does not carry it.
    public static func render(_ service: ServiceDTO, context: PageContext, names: EntityNames = EntityNames(),
                              routeColor: String? = nil, tiles: LineMap.Tiles? = nil, routeMap: Bool = false) -> String {
        let s = context.strings
        let line = service.routeShortName.isEmpty ? service.routeLongName : service.routeShortName
        let title = s(.serviceTitle, ["line": line, "destination": service.headsign])
        var meta: [HTML] = []
        if let date = ServiceDate(iso: service.serviceDate) {
            meta.append("<time datetime=\"\(service.serviceDate)\">\(s.date(date))</time>")
        }
        if let first = service.calls.first {
            meta.append("<span>\(s(.serviceFrom, ["stop": first.stopName]))</span>")
        }
        if routeMap {
            meta.append("<a class=\"route-map-link\" href=\"\(Links.route(service.routeId))#route-map\">\(s(.routeAllVehicles, ["line": line]))</a>")
        }
        let longName: HTML = service.routeLongName.isEmpty || service.routeLongName == line ? .empty
            : "<span class=\"route-name\">\(service.routeLongName)</span>"
        let main: HTML = """
        <div class="page-head service-head">
        <p class="eyebrow">\(LineBadge.render(shortName: service.routeShortName, longName: service.routeLongName, color: routeColor, strings: s))\
        \(longName)</p>
        <h1>\(title)</h1>
        <p class="service-meta">\(HTML.join(meta, separator: "<span aria-hidden=\"true\"> · </span>"))</p>
        </div>
        <div class="live-bar">
        <span class="connection" data-connection hidden></span>
        <a class="refresh-link" href="\(address(service).link)">\(s(.boardRefresh))</a>
        </div>
        \(map(service, routeColor: routeColor, tiles: tiles, strings: s))\
        <div id="service-live" class="live-container" data-live="\(liveQuery(service, language: context.language))">
        \(HTML(trusted: fragment(service, context: context, names: names, routeColor: routeColor)))
        </div>
        """
        return Layout.document(title: title, context: context, address: address(service), bodyClass: "page-service", main: main)
    }

    /// The content of `#service-live`, also sent as the `html` of live messages.
    public static func fragment(_ service: ServiceDTO, context: PageContext, names: EntityNames = EntityNames(),
                                routeColor: String? = nil) -> String {
        let s = context.strings
        let offset = service.calls.first.flatMap { WallClock(iso: $0.scheduledDeparture) }?.utcOffset
        var parts: [HTML] = []
        if service.cancelled == true {
            parts.append("""
            <div class="banner banner-bad" data-cancelled="true"><strong>\(s(.serviceCancelled))</strong> <span>\(s(.serviceCancelledNote))</span></div>
            """)
        }
        if let alerts = service.alerts, !alerts.isEmpty {
            parts.append("""
            <section class="alerts alerts-high" aria-label="\(s(.alertsService))">
            \(AlertView.list(alerts, headingLevel: 2, names: names, strings: s))
            </section>
            """)
        }
        parts.append(LiveNotice.render(service.live, utcOffset: offset, context: context))
        let position = VehiclePosition(service)
        if let position {
            parts.append("""
            <p class="vehicle-line">\(vehicleIcon)<span>\(position.sentence(service, now: context.now, strings: s))</span></p>
            """)
        }
        // How full the vehicle is, with its carriages where the feed gives them (even when its position is unknown).
        if let occupancy = service.vehicle?.occupancy, occupancy.level != nil {
            parts.append("""
            <div class="vehicle-occupancy"><span class="occupancy-heading">\(s(.occupancyHeading)):</span> \(OccupancyView.badge(occupancy, strings: s))\
            \(OccupancyView.carriages(occupancy, strings: s))</div>
            """)
        }
        parts.append(diagram(service, position: position, color: routeColor, strings: s))
        // A train that divides: each other portion runs on from where it divides, with calls of its own.
        for branch in service.branches ?? [] {
            var portion = service
            portion.calls = branch.calls
            portion.branches = nil
            let at = service.calls.first { $0.stopId == branch.afterStopId }?.stopName ?? branch.afterStopId
            parts.append("""
            <h2 class="section-title">\(s(.serviceBranch, ["headsign": branch.headsign, "stop": at]))</h2>
            \(diagram(portion, position: nil, color: routeColor, strings: s))
            """)
        }
        let summary = position.map { position -> String in
            s(.liveSummaryService, ["detail": position.where_(service, strings: s)])
        } ?? s(.liveSummaryService, ["detail": ""]).trimmingWhitespace
        // The map's vehicle: where the feed says it is, else where its live times place it (said in its label).
        let reported: (Double, Double, String?)? = service.vehicle.flatMap { v in v.latitude.flatMap { lat in v.longitude.map { (lat, $0, v.label) } } }
        let placed = service.placedVehicle.map { ($0.latitude, $0.longitude, nil as String?) }
        let vehicle: HTML = (reported ?? placed).map { lat, lon, label in
            HTML(trusted: " data-vehicle-lat=\"\(lat)\" data-vehicle-lon=\"\(lon)\"")
                + HTML.attribute("data-vehicle-label", position?.sentence(service, now: context.now, strings: s) ?? label)
                + (reported == nil ? HTML(trusted: " data-vehicle-basis=\"liveTimes\"") : .empty)
        } ?? .empty
        return """
        <div class="service-fragment" data-summary="\(HTML.escapeAttribute(summary))" data-vehicle-key="\(HTML.escapeAttribute(service.tripId))"\(vehicle)>
        \(HTML.join(parts, separator: "\n").rendered)
        </div>
        """
    }

    /// The map above the live part: the shape (or the stops joined), the stops and, moved by the script at each live
    /// redraw, the vehicle. Nothing without at least two stops with coordinates. Reachable by keyboard (Leaflet's own
    /// focus and keys); the calls below are its text.
    static func map(_ service: ServiceDTO, routeColor: String?, tiles: LineMap.Tiles?, strings s: Strings) -> HTML {
        let stops = service.calls.compactMap { c in c.latitude.flatMap { lat in c.longitude.map { LineMap.Stop(latitude: lat, longitude: $0, name: c.stopName) } } }
        guard stops.count >= 2 else { return .empty }
        return LineMap.render(id: "service-map", livePart: "service-live", label: s(.serviceMapLabel),
                              note: (s(.serviceMapNote), s(.serviceMapPlain)), stops: stops, shapes: service.shape.map { [$0] } ?? [],
                              color: routeColor, tiles: tiles)
    }

    /// The query of the page's live subscription: `service=…&date=…&lang=…&format=html`.
    public static func liveQuery(_ service: ServiceDTO, language: Language) -> String {
        String(Links.queryString([("service", service.tripId), ("date", service.serviceDate), ("lang", language.tag),
                                  ("format", "html")]).dropFirst())
    }

    static func address(_ service: ServiceDTO) -> PageAddress {
        PageAddress(path: "/services/" + Links.pathSegment(service.tripId), query: [.init("date", service.serviceDate)])
    }

    // MARK: The line diagram

    static func diagram(_ service: ServiceDTO, position: VehiclePosition?, color: String?, strings s: Strings) -> HTML {
        guard !service.calls.isEmpty else { return "<p class=\"empty-state\">\(s(.serviceNoCalls))</p>" }
        let calls = service.calls
        // Calls before the vehicle are behind it, whatever their own status says.
        let passedBefore = position?.index ?? 0
        let items = calls.enumerated().map { i, call -> HTML in
            let status = service.cancelled == true && call.status != "departed" ? RunStatus.cancelled : RunStatus(api: call.status)
            let passed = status == .departed || i < passedBefore
            let isNext = position.map { $0.index == i } ?? false
            let classes = ["call", passed ? "is-passed" : nil, isNext ? "is-current" : nil,
                           status == .skipped ? "is-skipped" : nil, status == .cancelled ? "is-cancelled" : nil,
                           i == 0 ? "is-first" : nil, i == calls.count - 1 ? "is-last" : nil].compactMap { $0 }
            // The minutes of the status agree with the departure time shown (the arrival at the last call).
            let last = i == calls.count - 1
            let nameText: HTML = status.isStruck ? "<s>\(call.stopName)</s>" : "\(call.stopName)"
            var notes: [HTML] = []
            if let platform = call.platform, !platform.isEmpty {
                notes.append(BoardPage.platformBadge(platform, changed: call.platformChanged == true, long: true, strings: s))
            }
            if call.pickup == "none", i < calls.count - 1, i > 0 { notes.append("<span class=\"note\">\(s(.serviceSetDownOnly))</span>") }
            if call.dropOff == "none", i > 0, i < calls.count - 1 { notes.append("<span class=\"note\">\(s(.servicePickUpOnly))</span>") }
            var marker: HTML = .empty
            if let position, position.index == i {
                marker = """
                <span class="vehicle-marker \(position.atStop ? "at-stop" : "between")" role="img" \
                aria-label="\(s(.vehicleMarker)): \(position.where_(service, strings: s))">\(vehicleIcon)</span>
                """
            }
            return """
            <li class="\(classes.joined(separator: " "))" data-status="\(status.rawValue)">\(marker)\
            <span class="call-dot" aria-hidden="true"></span>\
            <div class="call-main"><a class="call-name" href="\(Links.board(call.stopId))">\(nameText)</a>\
            \(notes.isEmpty ? HTML.empty : "<span class=\"call-notes\">\(HTML.join(notes, separator: " "))</span>")</div>\
            <div class="call-times">\(times(call, index: i, count: calls.count, status: status, strings: s))</div>\
            <div class="call-status">\(status.badge(delaySeconds: call.delaySeconds, scheduled: last ? call.scheduledArrival : call.scheduledDeparture,
                                                  expected: last ? call.expectedArrival : call.expectedDeparture, strings: s))\
            \(last ? HTML.empty : OccupancyView.badge(call.occupancy, strings: s))\(UsualDelayView.note(call.usualDelay, strings: s))</div>\
            </li>
            """
        }
        return """
        <ol class="calls"\(HTML.attribute("data-color", RouteColor.hex(color))) aria-label="\(s(.serviceCallsLabel))">
        \(HTML.join(items, separator: "\n"))
        </ol>
        """
    }

    /// Arrival and departure: one time when they read the same, else both;
    /// the first call only departs and the last only arrives.
    static func times(_ call: CallDTO, index: Int, count: Int, status: RunStatus, strings s: Strings) -> HTML {
        let showArrival = index > 0
        let showDeparture = index < count - 1
        // Compared as shown: the expected times only count when they are shown.
        let same = WallClock.hhmm(call.scheduledArrival) == WallClock.hhmm(call.scheduledDeparture)
            && (!status.showsExpectedTime || WallClock.hhmm(call.expectedArrival) == WallClock.hhmm(call.expectedDeparture))
        func one(_ key: L10nKey?, _ scheduled: String, _ expected: String?) -> HTML {
            let label: HTML = key.map { "<span class=\"time-label\">\(s($0))</span> " } ?? .empty
            return "<span class=\"call-time\">\(label)\(TimeCell.render(scheduled: scheduled, expected: expected, status: status, strings: s))</span>"
        }
        if showArrival && showDeparture && !same {
            return one(.serviceArrival, call.scheduledArrival, call.expectedArrival)
                + one(.serviceDeparture, call.scheduledDeparture, call.expectedDeparture)
        }
        if showDeparture { return one(nil, call.scheduledDeparture, call.expectedDeparture) }
        return one(nil, call.scheduledArrival, call.expectedArrival)
    }

    static let vehicleIcon: HTML = """
    <svg class="icon vehicle-icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">\
    <path d="M7 3h10a3 3 0 0 1 3 3v9a3 3 0 0 1-3 3l1.5 2.5h-2.3L14.7 18H9.3l-1.5 2.5H5.5L7 18a3 3 0 0 1-3-3V6a3 3 0 0 1 3-3zm-1 4v4h12V7zm2 7.2a1.3 1.3 0 1 0 0 2.6 1.3 1.3 0 0 0 0-2.6zm8 0a1.3 1.3 0 1 0 0 2.6 1.3 1.3 0 0 0 0-2.6z"/>\
    </svg>
    """
}

/// Where the vehicle is along the calls: at a call, or on the way to it.
struct VehiclePosition {
    /// The call the report refers to.
    var index: Int
    /// Stopped at that call (else on the way to it, or arriving).
    var atStop: Bool
    var incoming: Bool
    /// Placed by its live times (the feed gives no position), and said so.
    var placed = false

    init?(_ service: ServiceDTO) {
        if service.vehicle?.stopId == nil, let p = service.placedVehicle, let i = service.calls.firstIndex(where: { $0.stopId == p.stopId }) {
            index = i
            atStop = p.atStop
            incoming = false
            placed = true
            return
        }
        guard let v = service.vehicle, let stop = v.stopId,
              let i = service.calls.firstIndex(where: { $0.stopId == stop }) else { return nil }
        index = i
        // GTFS-Realtime's default status is "in transit to"; before the first call it can only be at it.
        atStop = v.stopStatus == "stoppedAt" || i == 0
        incoming = v.stopStatus == "incomingAt"
    }

    /// "Stopped at Blok M", "On its way to Blok A".
    func where_(_ service: ServiceDTO, strings s: Strings) -> String {
        let name = service.calls[index].stopName
        if atStop { return s(.vehicleStoppedAt, ["stop": name]) }
        return s(incoming ? .vehicleIncomingAt : .vehicleInTransitTo, ["stop": name])
    }

    /// With the vehicle's label and the age of the report: "Train 27 · On its way to Blok A · reported 2 min ago".
    func sentence(_ service: ServiceDTO, now: Instant, strings s: Strings) -> String {
        var parts: [String] = []
        if let label = service.vehicle?.label, !label.isEmpty { parts.append(label) }
        parts.append(where_(service, strings: s))
        if placed { parts.append(s(.vehiclePlacedByTimes)) }
        if let ago = LocalClock.reportedAgo(service.vehicle?.reportedAt, now: now, strings: s) { parts.append(ago) }
        return parts.joined(separator: " · ")
    }
}
