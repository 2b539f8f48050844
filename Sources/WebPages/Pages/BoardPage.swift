import API
import Foundation
import OnwardCore

/// A station's departure or arrival board.
///
/// Everything realtime changes (the live-data notice, the alerts, the rows)
/// is in one container, `#board-live`, whose content `fragment(_:context:options:)`
/// renders alone: the page and the WebSocket updates share one renderer.
public enum BoardPage {
    public struct Options: Sendable {
        /// The window the board covers, for "No departures in the next 60 minutes";
        /// the live subscription asks for the same (`window=`).
        public var windowMinutes: Int?
        /// The most rows the page asked for; the live subscription asks for the same (`limit=`).
        public var limit: Int?
        /// Names for the routes and stops the alerts mention.
        public var names: EntityNames
        /// The moment the page was asked for (ISO 8601 with offset), when it is
        /// not "now": the live subscription asks for the same (`at=`), so a board
        /// for later today stays on that time as live data comes in.
        public var at: String?
        /// The copy a signed-in person's phone keeps for when it has no signal (`OfflineCopy`): the timetable's next
        /// hours, marked as such, each row with its time so the page drops the rows gone by while it stays offline.
        public var offlineCopy = false

        public init(windowMinutes: Int? = nil, limit: Int? = nil, names: EntityNames = EntityNames(), at: String? = nil,
                    offlineCopy: Bool = false) {
            self.windowMinutes = windowMinutes; self.limit = limit; self.names = names; self.at = at; self.offlineCopy = offlineCopy
        }
    }

    /// The whole page.
    public static func render(_ board: BoardDTO, context: PageContext, options: Options = Options()) -> String {
        let s = context.strings
        let arrivals = isArrivals(board)
        let stop = board.stop
        let title = s(arrivals ? .boardTitleArrivals : .boardTitleDepartures, ["stop": stop.name])
        var kind = [stop.kind == "station" ? s(.boardStationLabel) : s(.boardStopLabel)]
        if let code = stop.code, !code.isEmpty { kind.append(code) }
        // A live-only source's board says whose it is (a timetable's is the network's own).
        if board.isLiveOnly, let source = board.sourceName ?? board.source { kind.append(s(.boardSourceLabel, ["source": source])) }
        // A source that cannot answer arrivals or a calling-at filter is not offered them.
        let offersArrivals = board.sourceCapabilities?.contains("arrivals") ?? true
        let offersFilter = board.sourceCapabilities?.contains("callingAt") ?? true

        func tab(_ key: L10nKey, _ href: String, _ current: Bool) -> HTML {
            "<a class=\"tab\" href=\"\(href)\"\(HTML.attribute("aria-current", current ? "page" : nil))>\(s(key))</a>"
        }
        var hidden: [(String, String)] = []
        if arrivals { hidden.append(("arrivals", "1")) }
        let viaParam = arrivals ? "from" : "to"
        let filter = StopSearch.form(
            id: "via", name: viaParam, label: s(arrivals ? .boardComingFrom : .boardCallingAt),
            placeholder: s(.boardFilterPlaceholder), value: board.via?.name, action: "/stops/" + Links.pathSegment(stop.id),
            target: "/stops/" + Links.pathSegment(stop.id) + (arrivals ? "?arrivals=1&from={id}" : "?to={id}"),
            button: s(.boardFilterApply), hidden: hidden, cssClass: "search filter")
        let activeFilter: HTML = board.via.map { via in
            """
            <p class="filter-active"><span>\(s(arrivals ? .boardFilteredFrom : .boardFilteredTo, ["stop": via.name]))</span> \
            <a class="chip-link" href="\(Links.board(stop.id, arrivals: arrivals))">\(s(.boardFilterClear))</a></p>
            """
        } ?? .empty

        let main: HTML = """
        <div class="page-head">
        <p class="eyebrow">\(kind.joined(separator: " · "))</p>
        <h1>\(stop.name)</h1>
        \(offersArrivals ? """
            <nav class="tabs" aria-label="\(s(.boardTabsLabel))">\
            \(tab(.boardDepartures, Links.board(stop.id), !arrivals))\(tab(.boardArrivals, Links.board(stop.id, arrivals: true), arrivals))</nav>
            """ as HTML : .empty)
        </div>
        \(offersFilter ? """
            <details class="filter-box"\(HTML.flag("open", board.via != nil))>
            <summary>\(s(arrivals ? .boardComingFrom : .boardCallingAt))</summary>
            \(filter)
            </details>
            """ as HTML : .empty)
        \(activeFilter)
        \(PersonForm.save([("kind", "board"), ("stopId", stop.id)] + (board.via.map { [("to", $0.id)] } ?? []) + (arrivals ? [("arrivals", "1")] : []),
                          label: .saveBoard, context: context))
        <div class="live-bar">
        <span class="connection" data-connection hidden></span>
        <a class="refresh-link" href="\(address(board).link)">\(s(.boardRefresh))</a>
        </div>
        <div id="board-live" class="live-container" data-live="\(liveQuery(board, language: context.language, options: options))">
        \(HTML(trusted: fragment(board, context: context, options: options)))
        </div>
        <p class="more-link"><a href="\(Links.alerts(stop: stop.id))">\(s(.boardViewAlerts))</a></p>
        <p class="more-link"><a href="\(Links.journeys(from: stop.id, to: board.via?.id))">\(s(.journeyPlanFromHere))</a></p>
        """
        // The script records the visit for the home page's "Recent stations".
        let recent = HTML.attribute("data-recent-id", stop.id) + HTML.attribute("data-recent-name", stop.name)
        return Layout.document(title: title, context: context, address: address(board), bodyClass: "page-board",
                               mainAttributes: recent + (options.offlineCopy ? OfflineCopy.mark : .empty), main: main)
    }

    /// The content of `#board-live`: live-data notice, high-priority alerts,
    /// the table (or the empty state), then the other alerts. Sent as the
    /// `html` of live messages.
    public static func fragment(_ board: BoardDTO, context: PageContext, options: Options = Options()) -> String {
        let s = context.strings
        let arrivals = isArrivals(board)
        let entries = (arrivals ? board.arrivals : board.departures) ?? []
        let offset = utcOffset(board, at: context.now)

        var parts: [HTML] = [options.offlineCopy ? OfflineCopy.notice(board.live, utcOffset: offset, strings: s)
                                                 : LiveNotice.render(board.live, utcOffset: offset, context: context)]
        if let high = board.alerts?.highPriority, !high.isEmpty {
            parts.append("""
            <section class="alerts alerts-high" aria-label="\(s(.alertsImportant))">
            \(AlertView.list(high, headingLevel: 2, names: options.names, strings: s))
            </section>
            """)
        }
        if entries.isEmpty {
            parts.append("<p class=\"empty-state board-empty\">\(emptyText(board, arrivals: arrivals, options: options, strings: s))</p>")
        } else {
            parts.append(table(board, entries: entries, arrivals: arrivals, context: context, utcOffset: offset, timed: options.offlineCopy))
        }
        if let other = board.alerts?.other, !other.isEmpty {
            parts.append("""
            <section class="alerts alerts-other" aria-labelledby="other-alerts-title">
            <h2 id="other-alerts-title" class="section-title">\(s(.alertsOther))</h2>
            \(AlertView.list(other, headingLevel: 3, names: options.names, strings: s))
            </section>
            """)
        }
        return """
        <div class="board-fragment" data-summary="\(HTML.escapeAttribute(summary(entries, arrivals: arrivals, strings: s)))">
        \(HTML.join(parts, separator: "\n").rendered)
        </div>
        """
    }

    /// The query of the page's live subscription:
    /// `board=…&kind=…[&to=…|&from=…][&at=…][&window=…][&limit=…]&lang=…&format=html`.
    public static func liveQuery(_ board: BoardDTO, language: Language, options: Options = Options()) -> String {
        let arrivals = isArrivals(board)
        var pairs = [("board", board.stop.id), ("kind", arrivals ? "arrivals" : "departures")]
        if let via = board.via { pairs.append((arrivals ? "from" : "to", via.id)) }
        if let at = options.at { pairs.append(("at", at)) }
        if let window = options.windowMinutes { pairs.append(("window", String(window))) }
        if let limit = options.limit { pairs.append(("limit", String(limit))) }
        pairs += [("lang", language.tag), ("format", "html")]
        return String(Links.queryString(pairs).dropFirst())
    }

    // MARK: Parts

    static func isArrivals(_ board: BoardDTO) -> Bool { board.arrivals != nil && board.departures == nil }

    static func address(_ board: BoardDTO) -> PageAddress {
        let arrivals = isArrivals(board)
        var query: [PageAddress.Pair] = []
        if arrivals { query.append(.init("arrivals", "1")) }
        if let via = board.via { query.append(.init(arrivals ? "from" : "to", via.id)) }
        return PageAddress(path: "/stops/" + Links.pathSegment(board.stop.id), query: query)
    }

    /// The stop's UTC offset now, for the "as of" and "updated" times.
    static func utcOffset(_ board: BoardDTO, at now: Instant) -> Int? {
        TimeZone(identifier: board.stop.timeZone).map { $0.secondsFromGMT(for: now.date) }
    }

    /// - Parameter timed: each row carries its time (`data-at`, ISO 8601), for an offline copy's script.
    static func table(_ board: BoardDTO, entries: [BoardEntryDTO], arrivals: Bool, context: PageContext, utcOffset: Int?, timed: Bool = false) -> HTML {
        let s = context.strings
        let caption = s(arrivals ? .boardCaptionArrivals : .boardCaptionDepartures, ["stop": board.stop.name])
        // A live-only source's board is as of its own now (when the upstream made it), not ours.
        let madeAt = board.isLiveOnly ? board.live?.updatedAt.flatMap(WallClock.init(iso:)) : nil
        let zone = TimeZone(identifier: board.stop.timeZone)
        let upstreamTime = madeAt.flatMap { w in zone.map { LocalClock.hhmm(w.instant, utcOffset: $0.secondsFromGMT(for: w.instant.date)) } }
        let asOf = upstreamTime.map { s(.boardAsOf, ["time": $0]) }
            ?? utcOffset.map { s(.boardAsOf, ["time": LocalClock.hhmm(context.now, utcOffset: $0)]) }
        var badges = LineBadge.Cache()
        let rows = entries.map { row($0, board: board, arrivals: arrivals, strings: s, badges: &badges, timed: timed) }
        return """
        <table class="board">
        <caption><span class="visually-hidden">\(caption)</span>\(asOf.map { "<span class=\"as-of\">\($0)</span>" as HTML })</caption>
        <thead><tr>\
        <th scope="col" class="col-time">\(s(.columnTime))</th>\
        <th scope="col" class="col-line">\(s(.columnLine))</th>\
        <th scope="col" class="col-dest">\(s(arrivals ? .columnOrigin : .columnDestination))</th>\
        <th scope="col" class="col-platform">\(s(.columnPlatform))</th>\
        <th scope="col" class="col-status">\(s(.columnStatus))</th>\
        </tr></thead>
        <tbody id="board-rows">
        \(HTML.join(rows, separator: "\n"))
        </tbody>
        </table>
        """
    }

    static func row(_ e: BoardEntryDTO, board: BoardDTO, arrivals: Bool, strings s: Strings, badges: inout LineBadge.Cache, timed: Bool = false) -> HTML {
        let badge = badges.badge(shortName: e.routeShortName, longName: e.routeLongName, color: e.routeColor, strings: s)
        let status = RunStatus(api: e.status)
        let scheduled = arrivals ? e.scheduledArrival : e.scheduledDeparture
        let expected = arrivals ? e.expectedArrival : e.expectedDeparture
        let classes = ["row", status == .cancelled ? "is-cancelled" : nil, status == .skipped ? "is-skipped" : nil,
                       status == .departed ? "is-departed" : nil].compactMap { $0 }.joined(separator: " ")

        // Where it goes (or, on an arrivals board, where it comes from), linked to the service.
        let place = arrivals ? e.origin : e.headsign
        let placeText: HTML = status.isStruck ? "<s>\(place)</s>" : "\(place)"
        var dest: HTML = "<a class=\"row-link\" href=\"\(Links.service(e.tripId, date: e.serviceDate))\">\(placeText)</a>"
        // On a phone the line and platform columns fold into this cell.
        var notes: [HTML] = ["<span class=\"narrow-only\">\(badge)</span>"]
        if let platform = e.platform, !platform.isEmpty {
            notes.append("<span class=\"narrow-only\">\(platformBadge(platform, changed: e.platformChanged == true, long: true, strings: s))</span>")
        }
        // With a filter, when it reaches (or left) the filter's stop, named in the banner above.
        if board.via != nil, let time = WallClock.hhmm(arrivals ? e.departureFromOrigin : e.arrivalAtDestination) {
            notes.append("<span class=\"via-time\">\(s(arrivals ? .boardDepartsFrom : .boardArrivesAt, ["time": time]))</span>")
        }
        if let headway = e.headwaySeconds, e.exactTimes != true, headway > 0 {
            notes.append("<span class=\"note\">\(s(.everyMinutes, ["minutes": String(max(1, headway / 60))]))</span>")
        }
        if let operatorName = e.operatorName { notes.append("<span class=\"operator\">\(operatorName)</span>") }
        if let calls = e.callingAt, !calls.isEmpty, board.via == nil {
            notes.append("<span class=\"calling-at\">\(s(.boardCallingAtList, ["stops": calls.map(\.stopName).joined(separator: ", ")]))</span>")
        }
        if let reason = e.reason { notes.append("<span class=\"reason\">\(reason)</span>") }
        if e.addedTrip == true { notes.append("<span class=\"badge badge-added\">\(s(.addedTrip))</span>") }
        // How full: under the destination, where a phone has room for the words.
        if e.occupancy?.level != nil { notes.append(OccupancyView.badge(e.occupancy, strings: s)) }
        // Its map: the service page's, opened at the map, for a source that places its vehicles on one.
        if board.sourceCapabilities?.contains("vehicles") == true && board.sourceCapabilities?.contains("serviceDetails") == true
            && status != .cancelled && !board.isLiveOnly {
            notes.append("<a class=\"row-map\" href=\"\(Links.service(e.tripId, date: e.serviceDate))#service-map\" aria-label=\"\(s(.boardMapLabel, ["headsign": e.headsign]))\">\(s(.boardMap))</a>")
        }
        // How late it usually is at this hour, from the delay history (not on a row already gone or cancelled).
        if status != .cancelled && status != .departed && e.usualDelay?.enough == true { notes.append(UsualDelayView.note(e.usualDelay, strings: s)) }
        dest += "<span class=\"row-notes\">\(HTML.join(notes, separator: " "))</span>"

        var statusHTML = status.badge(delaySeconds: e.delaySeconds, arrivals: arrivals, scheduled: scheduled, expected: expected, strings: s)
        // A prediction with no timetable time (the bus tracker) counts down from when it was made: "3 min", "Due".
        if scheduled == nil, status == .onTime, let exp = expected.flatMap(WallClock.init(iso:)),
           let made = board.live?.updatedAt.flatMap(WallClock.init(iso:)) {
            let minutes = max(0, Int(exp.instant.epochSeconds - made.instant.epochSeconds) / 60)
            statusHTML = "<span class=\"status status-on-time\">\(minutes <= 1 ? s(.statusDue) : s(.statusInMinutes, ["minutes": String(minutes)]))</span>"
        }
        if let alerts = e.alerts, !alerts.isEmpty {
            statusHTML += " <span class=\"row-alert\" title=\"\(s(.rowHasAlert))\"><span aria-hidden=\"true\">!</span>"
                + "<span class=\"visually-hidden\">\(s(.rowHasAlert))</span></span>"
        }
        let platform = e.platform.flatMap { $0.isEmpty ? nil : platformBadge($0, changed: e.platformChanged == true, strings: s) }
        return """
        <tr class="\(classes)" data-status="\(status.rawValue)"\(HTML.attribute("data-at", timed ? scheduled : nil))>\
        <td class="col-time">\(TimeCell.render(scheduled: scheduled, expected: expected, status: status, strings: s))</td>\
        <td class="col-line">\(badge)</td>\
        <td class="col-dest">\(dest)</td>\
        <td class="col-platform">\(platform)</td>\
        <td class="col-status">\(statusHTML)</td>\
        </tr>
        """
    }

    /// A platform number; a changed one is highlighted and says so.
    /// - Parameter long: "Platform 3" in full (else the number alone, under a "Platform" column).
    static func platformBadge(_ platform: String, changed: Bool, long: Bool = false, strings s: Strings) -> HTML {
        let label: HTML = long ? "\(s(.platformNumber, ["platform": platform]))"
            : "<span class=\"visually-hidden\">\(s(.columnPlatform)) </span>\(platform)"
        guard changed else { return "<span class=\"platform\">\(label)</span>" }
        return """
        <span class="platform platform-changed" title="\(s(.platformChanged))">\
        <span class="visually-hidden">\(s(.platformChanged)): </span>\(label)</span>\
        <span class="platform-changed-label" aria-hidden="true">\(s(.platformChangedShort))</span>
        """
    }

    static func emptyText(_ board: BoardDTO, arrivals: Bool, options: Options, strings s: Strings) -> String {
        if let reason = board.emptyReason { return reason }
        if let via = board.via { return s(.boardEmptyVia, ["stop": via.name]) }
        if let minutes = options.windowMinutes {
            return s(arrivals ? .boardEmptyArrivals : .boardEmptyDepartures, ["minutes": String(minutes)])
        }
        return s(arrivals ? .boardEmptyArrivalsSoon : .boardEmptyDeparturesSoon)
    }

    /// One sentence for the live region when the board changes: the next service that is still to come.
    static func summary(_ entries: [BoardEntryDTO], arrivals: Bool, strings s: Strings) -> String {
        let next = entries.first { !["departed", "cancelled", "skipped"].contains($0.status) } ?? entries.first
        guard let e = next else { return s(.liveSummaryBoardEmpty) }
        let status = RunStatus(api: e.status)
        let iso = (arrivals ? (e.expectedArrival ?? e.scheduledArrival) : (e.expectedDeparture ?? e.scheduledDeparture))
        var statusText = status.text(delaySeconds: e.delaySeconds, arrivals: arrivals,
                                     scheduled: arrivals ? e.scheduledArrival : e.scheduledDeparture, expected: iso, strings: s)
        if let first = statusText.first { statusText = first.lowercased() + statusText.dropFirst() }
        let line = e.routeShortName.isEmpty ? e.routeLongName : e.routeShortName
        let time = WallClock.hhmm(iso) ?? ""
        if arrivals {
            return s(.liveSummaryArrivals, ["line": line, "origin": e.origin, "time": time, "status": statusText])
        }
        return s(.liveSummaryBoard, ["line": line, "destination": e.headsign, "time": time, "status": statusText])
    }
}
