import API
import App
import ArgumentParser
import DataSources
import Foundation
import GTFSRealtime
import OnwardCore
import SwiftProtobuf
import Timetable

/// `onward rt`: tools for GTFS-Realtime feeds.
struct RtCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rt",
        abstract: "Tools for GTFS-Realtime feeds.",
        subcommands: [RtInspectCommand.self]
    )
}

struct RtInspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print a GTFS-Realtime feed in readable form, with how it matches the static feed.",
        discussion: """
            FILE_OR_URL holds trip updates, vehicle positions or alerts, in any mix.
            The match report says how many trips, stops and routes the static feed knows:
            the bundled network without --feed, so pass the feed the realtime data belongs to.
            """
    )

    @Argument(help: ArgumentHelp("A GTFS-Realtime file or http(s) URL; NAME=FILE_OR_URL matches it against the static feed NAME "
                                 + "(else the first feed).", valueName: "[NAME=]FILE_OR_URL"))
    var input: String

    @Option(help: ArgumentHelp("Show the first N entities of each kind; 0 for none.", valueName: "N"))
    var limit: Int = 20

    @Flag(help: "Print one JSON document.")
    var json = false

    @OptionGroup var feeds: FeedOptions

    func validate() throws {
        if !(0...10_000).contains(limit) { throw ValidationError("--limit must be between 0 and 10000.") }
    }

    func run() async throws {
        try await runReporting {
            // The realtime input first: a wrong path fails at once, before a large timetable loads.
            let named = NamedFeedLocation(input)
            let location = named?.location.description ?? input
            let bytes: Data
            do throws(SourceError) {
                bytes = try await RealtimeInput.load(location, fetcher: Fetchers.live())
            } catch {
                throw CLIError(error.message.contains(location) ? error.message : "\(location): \(error.message)")
            }
            let message = try decode(bytes)
            let tt = try feeds.load().timetable
            var feed = tt.feeds.first
            if let name = named?.explicitName {
                guard let f = tt.feed(named: name) else {
                    throw CLIError("no static feed is named '\(name)'; loaded: \(tt.feeds.map(\.name).joined(separator: ", "))")
                }
                feed = f
            }
            let inspection = RealtimeInspection(timetable: tt, limit: limit, feed: feed)
            let dto = inspection.make(message, source: input, size: bytes.count, now: .now())
            if json {
                try printJSON(dto)
            } else {
                print(RealtimeInspectView(dto: dto).render(.stdout))
            }
        }
    }

    /// SwiftProtobuf's own message, which keeps every field for printing.
    private func decode(_ bytes: Data) throws -> TransitRealtime_FeedMessage {
        guard !bytes.isEmpty else { throw CLIError("\(input) is empty (0 bytes): not a GTFS-Realtime feed") }
        let message: TransitRealtime_FeedMessage
        do {
            message = try TransitRealtime_FeedMessage(serializedBytes: bytes)
        } catch {
            throw CLIError("\(input) is not a GTFS-Realtime feed (\(bytes.count) bytes): it does not decode as a protobuf FeedMessage (\(error))")
        }
        // Many byte strings happen to decode as protobuf; a feed always has a header with a version.
        guard message.hasHeader, !message.header.gtfsRealtimeVersion.isEmpty else {
            throw CLIError("\(input) is not a GTFS-Realtime feed (\(bytes.count) bytes): it has no header with a gtfs_realtime_version")
        }
        return message
    }
}

/// Summarises one message and matches it against a timetable, the way boards would use it.
struct RealtimeInspection {
    let timetable: Timetable
    let limit: Int
    /// The static feed the realtime IDs belong to: named (`NAME=`), else the first, as `--realtime` does.
    var feed: FeedSummary?
    var prefix: String { feed?.idPrefix ?? timetable.defaultIDPrefix }
    var zone: TimeZone { timetable.agencies.first.flatMap { TimeZone(identifier: $0.timeZone) } ?? .gmt }

    func make(_ m: TransitRealtime_FeedMessage, source: String, size: Int, now: Instant) -> RealtimeInspectDTO {
        let stamp = m.header.hasTimestamp ? Instant(epochSeconds: Int64(clamping: m.header.timestamp)) : nil
        let header = RealtimeInspectDTO.Header(gtfsRealtimeVersion: m.header.gtfsRealtimeVersion,
                                               incrementality: "\(m.header.incrementality)",
                                               timestamp: stamp.map { LocalTime($0, in: .gmt).iso8601 },
                                               localTimestamp: stamp.map { LocalTime($0, in: zone).iso8601 },
                                               ageSeconds: stamp.map { Int(now.epochSeconds - $0.epochSeconds) })
        let counts = RealtimeInspectDTO.Counts(entities: m.entity.count, tripUpdates: m.entity.count(where: \.hasTripUpdate),
                                               vehiclePositions: m.entity.count(where: \.hasVehicle),
                                               alerts: m.entity.count(where: \.hasAlert), deleted: m.entity.count(where: \.isDeleted))
        let alerts = AlertDecoding.alerts(from: m, idPrefix: prefix)
        return RealtimeInspectDTO(
            source: source, sizeBytes: size, staticFeeds: feed.map { [$0.name] } ?? [], timeZone: zone.identifier,
            header: header, counts: counts,
            tripUpdates: m.entity.filter(\.hasTripUpdate).prefix(limit).map(tripUpdate),
            vehiclePositions: m.entity.filter(\.hasVehicle).prefix(limit).map(vehicle),
            alerts: alerts.prefix(limit).map { a in
                RealtimeInspectDTO.AlertSummary(entityId: a.id, effect: a.effect.rawValue, severity: a.severity.rawValue,
                                                cause: a.cause.rawValue,
                                                header: a.header.best(for: [])?.trimmingCharacters(in: .whitespacesAndNewlines),
                                                informedEntities: a.informedEntities.map(AlertDTO.EntityDTO.init))
            },
            match: match(m, alerts: alerts, now: now),
            otherFeeds: timetable.feeds.count > 1 ? timetable.feeds.map(\.name).filter { $0 != feed?.name } : nil)
    }

    private func iso(_ epoch: Int64) -> String { LocalTime(Instant(epochSeconds: epoch), in: zone).iso8601 }

    private func tripUpdate(_ e: TransitRealtime_FeedEntity) -> RealtimeInspectDTO.TripUpdate {
        let u = e.tripUpdate, d = u.trip
        return RealtimeInspectDTO.TripUpdate(
            entityId: e.id, deleted: e.isDeleted ? true : nil, tripId: d.hasTripID ? d.tripID : nil, routeId: d.hasRouteID ? d.routeID : nil,
            startDate: d.hasStartDate ? d.startDate : nil, startTime: d.hasStartTime ? d.startTime : nil,
            scheduleRelationship: "\(d.scheduleRelationship)", vehicleId: u.hasVehicle && !u.vehicle.id.isEmpty ? u.vehicle.id : nil,
            stopTimeUpdateCount: u.stopTimeUpdate.count, firstStopTimeUpdate: u.stopTimeUpdate.first.map(stopTimeUpdate))
    }

    private func stopTimeUpdate(_ s: TransitRealtime_TripUpdate.StopTimeUpdate) -> RealtimeInspectDTO.StopTimeUpdate {
        func time(_ has: Bool, _ e: TransitRealtime_TripUpdate.StopTimeEvent) -> String? { has && e.hasTime && e.time > 0 ? iso(e.time) : nil }
        func delay(_ has: Bool, _ e: TransitRealtime_TripUpdate.StopTimeEvent) -> Int? { has && e.hasDelay ? Int(e.delay) : nil }
        return RealtimeInspectDTO.StopTimeUpdate(
            stopId: s.hasStopID ? s.stopID : nil, stopSequence: s.hasStopSequence ? Int(s.stopSequence) : nil,
            scheduleRelationship: "\(s.scheduleRelationship)",
            arrival: time(s.hasArrival, s.arrival), departure: time(s.hasDeparture, s.departure),
            arrivalDelaySeconds: delay(s.hasArrival, s.arrival), departureDelaySeconds: delay(s.hasDeparture, s.departure))
    }

    private func vehicle(_ e: TransitRealtime_FeedEntity) -> RealtimeInspectDTO.VehiclePosition {
        let v = e.vehicle
        // current_status means something only relative to a stop.
        let hasStop = v.hasStopID || v.hasCurrentStopSequence
        return RealtimeInspectDTO.VehiclePosition(
            entityId: e.id, deleted: e.isDeleted ? true : nil,
            vehicleId: v.hasVehicle && !v.vehicle.id.isEmpty ? v.vehicle.id : nil,
            label: v.hasVehicle && !v.vehicle.label.isEmpty ? v.vehicle.label : nil,
            tripId: v.hasTrip && v.trip.hasTripID ? v.trip.tripID : nil, routeId: v.hasTrip && v.trip.hasRouteID ? v.trip.routeID : nil,
            latitude: v.hasPosition ? Double(v.position.latitude) : nil, longitude: v.hasPosition ? Double(v.position.longitude) : nil,
            currentStatus: hasStop ? "\(v.currentStatus)" : nil, stopId: v.hasStopID ? v.stopID : nil,
            stopSequence: v.hasCurrentStopSequence ? Int(v.currentStopSequence) : nil,
            timestamp: v.hasTimestamp ? iso(Int64(clamping: v.timestamp)) : nil)
    }

    private func match(_ m: TransitRealtime_FeedMessage, alerts: [Alert], now: Instant) -> RealtimeInspectDTO.Match {
        typealias Tally = RealtimeInspectDTO.Tally
        let tt = timetable
        let hasTrips = m.entity.contains(where: \.hasTripUpdate), hasVehicles = m.entity.contains(where: \.hasVehicle)
        // The appliers say what boards would make of the message; the ID lists below only name what they could not match.
        let t = hasTrips ? TripUpdateApplier(timetable: tt, idPrefix: prefix).apply(m, now: now).report : RealtimeMatchReport()
        let v = hasVehicles ? VehiclePositionApplier(timetable: tt, idPrefix: prefix).apply(m, now: now).report : RealtimeMatchReport()
        let updates = m.entity.filter { $0.hasTripUpdate && !$0.isDeleted }.map(\.tripUpdate)
        let positions = m.entity.filter { $0.hasVehicle && !$0.isDeleted }.map(\.vehicle)

        // Unknown IDs are listed canonical, as the feed's bare IDs were read (`prefix` + ID).
        // ADDED and NEW trips are not expected in the static feed, so they are not "unknown".
        let unknownTrips = updates.filter { ![.added, .new].contains($0.trip.scheduleRelationship) && $0.trip.hasTripID }
            .map { prefix + $0.trip.tripID }.filter { tt.tripIndex(id: $0) == nil }
        let unknownStops = updates.flatMap(\.stopTimeUpdate).filter(\.hasStopID).map { prefix + $0.stopID }.filter { tt.stopIndex(id: $0) == nil }
        let unknownVehicleTrips = positions.filter { $0.hasTrip && $0.trip.hasTripID }.map { prefix + $0.trip.tripID }
            .filter { tt.tripIndex(id: $0) == nil }

        // Route IDs from every trip descriptor and informed entity, each checked once.
        let known = Set((0..<tt.routeCount).map { tt.routeInfo(RouteIndex(raw: UInt32($0))).id })
        var routes: [String] = []
        for d in updates.map(\.trip) + positions.map(\.trip) where d.hasRouteID && !d.routeID.isEmpty { routes.append(prefix + d.routeID) }
        for e in alerts.flatMap(\.informedEntities) { if let r = e.routeID ?? e.tripRouteID { routes.append(r) } }
        let distinctRoutes = firstOccurrences(routes)
        let unknownRoutes = distinctRoutes.filter { !known.contains($0) }

        let a = AlertBook(alerts: alerts, timetable: tt).report
        return RealtimeInspectDTO.Match(
            trips: Tally(matched: t.matchedTrips, unknown: t.unknownTrips, unknownIds: Array(firstOccurrences(unknownTrips).prefix(10))),
            tripsNotRunning: t.unmatchedInstances, cancelledTrips: t.cancelledTrips, addedTrips: t.addedTrips,
            stopTimeUpdates: Tally(matched: t.matchedStopTimeUpdates, unknown: t.unknownStops,
                                   unknownIds: Array(firstOccurrences(unknownStops).prefix(10))),
            stopTimeUpdateTotal: t.stopTimeUpdates, skippedStops: t.skippedStops, noDataStops: t.noDataStops,
            vehicles: Tally(matched: v.matchedVehicles, unknown: v.unknownVehicleTrips,
                            unknownIds: Array(firstOccurrences(unknownVehicleTrips).prefix(10))),
            routes: Tally(matched: distinctRoutes.count - unknownRoutes.count, unknown: unknownRoutes.count,
                          unknownIds: Array(unknownRoutes.prefix(10))),
            alertStops: Tally(matched: a.matchedStops, unknown: a.unknownStops, unknownIds: Array(a.unknownStopExamples.prefix(10))),
            alertTrips: Tally(matched: a.matchedTrips, unknown: a.unknownTrips, unknownIds: Array(a.unknownTripExamples.prefix(10))))
    }

    private func firstOccurrences(_ ids: [String]) -> [String] {
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }
    }
}

/// The terminal rendering of an inspection: the header, the first entities of each kind, the match report.
struct RealtimeInspectView {
    var dto: RealtimeInspectDTO

    func render(_ t: Terminal) -> String {
        let h = dto.header, c = dto.counts
        var out = [t.bold("GTFS-Realtime feed ") + dto.source + t.dim("  (\(count(dto.sizeBytes)) bytes)")]
        var about = "  version \(h.gtfsRealtimeVersion) · \(words(h.incrementality)) · "
        if let stamp = h.timestamp {
            let local = h.localTimestamp.map { " = \(clock($0)) \(dto.timeZone)" } ?? ""
            about += "timestamp \(stamp)" + t.dim(local + (h.ageSeconds.map { ", \(age($0))" } ?? ""))
        }
        else { about += t.yellow("no timestamp") }
        out.append(about)
        out.append("  \(count(c.entities)) entities: \(count(c.tripUpdates)) trip updates · \(count(c.vehiclePositions)) vehicle positions · "
                   + "\(count(c.alerts)) alerts · \(count(c.deleted)) deleted")
        if !dto.tripUpdates.isEmpty { out += ["", section("Trip updates", shown: dto.tripUpdates.count, of: c.tripUpdates, t), tripTable(t)] }
        if !dto.vehiclePositions.isEmpty {
            out += ["", section("Vehicle positions", shown: dto.vehiclePositions.count, of: c.vehiclePositions, t), vehicleTable(t)]
        }
        if !dto.alerts.isEmpty {
            out += ["", section("Alerts", shown: dto.alerts.count, of: c.alerts, times: false, t)] + dto.alerts.flatMap { alert($0, t) }
        }
        out += [""] + match(t)
        return out.joined(separator: "\n")
    }

    private func section(_ name: String, shown: Int, of total: Int, times: Bool = true, _ t: Terminal) -> String {
        t.bold(name) + t.dim(" (\(shown == total ? "all \(count(total))" : "first \(shown) of \(count(total))")"
                             + (times ? "; times in \(dto.timeZone))" : ")"))
    }

    private func tripTable(_ t: Terminal) -> String {
        var table = TextTable(headers: ["Trip", "Route", "Start", "Relationship", "Updates", "First update"])
        for u in dto.tripUpdates {
            let relationship = words(u.scheduleRelationship)
            let coloured = ["canceled", "deleted"].contains(u.scheduleRelationship) ? t.red(relationship)
                : ["added", "new", "replacement", "duplicated"].contains(u.scheduleRelationship) ? t.cyan(relationship) : relationship
            let start = [u.startDate.map(dashed), u.startTime].compactMap(\.self).joined(separator: " ")
            table.rows.append([(u.tripId ?? t.dim("(none)")) + (u.deleted == true ? t.red(" deleted") : ""), u.routeId ?? "", start,
                               coloured, count(u.stopTimeUpdateCount), u.firstStopTimeUpdate.map { update($0, t) } ?? ""])
        }
        return table.render(t)
    }

    /// "stop 6969 #6 16:57:29 −4m19s", "stop 8179 #16 skipped".
    private func update(_ s: RealtimeInspectDTO.StopTimeUpdate, _ t: Terminal) -> String {
        var parts = [[s.stopId.map { "stop \($0)" }, s.stopSequence.map { "#\($0)" }].compactMap(\.self).joined(separator: " ")]
        if s.scheduleRelationship != "scheduled" { parts.append(t.yellow(words(s.scheduleRelationship))) }
        if let time = s.departure ?? s.arrival { parts.append(clock(time)) }
        if let d = s.departureDelaySeconds ?? s.arrivalDelaySeconds { parts.append(signed(d, t)) }
        return parts.joined(separator: " ")
    }

    private func vehicleTable(_ t: Terminal) -> String {
        var table = TextTable(headers: ["Vehicle", "Trip", "Route", "Position", "Status", "Stop", "Reported"])
        for v in dto.vehiclePositions {
            let position = v.latitude.flatMap { lat in v.longitude.map { String(format: "%.5f, %.5f", lat, $0) } } ?? ""
            let stop = v.stopId ?? v.stopSequence.map { "#\($0)" } ?? ""
            table.rows.append([(v.label ?? v.vehicleId ?? v.entityId) + (v.deleted == true ? t.red(" deleted") : ""), v.tripId ?? "",
                               v.routeId ?? "", position, v.currentStatus.map(words) ?? "", stop, v.timestamp.map(clock) ?? ""])
        }
        return table.render(t)
    }

    /// Two lines: what it does and its header; what it concerns.
    private func alert(_ a: RealtimeInspectDTO.AlertSummary, _ t: Terminal) -> [String] {
        let label = words(a.effect) + (a.severity == "unknown" ? "" : " · \(a.severity)")
        let header = (a.header ?? "(no header)").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        var informs = a.informedEntities.map { e in
            [e.agencyId.map { "agency \($0)" }, e.routeId.map { "route \($0)" }, e.routeType.map { "route type \($0)" },
             e.directionId.map { "direction \($0)" }, e.tripId.map { "trip \($0)" }, e.stopId.map { "stop \($0)" }]
                .compactMap(\.self).joined(separator: " ")
        }
        if informs.count > 6 { informs = informs.prefix(6) + ["and \(informs.count - 6) more"] }
        return ["  " + t.yellow("[\(label)]") + " " + truncated(header, 90 - label.count),
                "      " + t.dim(informs.isEmpty ? "informs nothing" : informs.joined(separator: ", "))]
    }

    private func match(_ t: Terminal) -> [String] {
        let m = dto.match, c = dto.counts
        // A name, its summary line, then lines for what did not match.
        var rows: [(name: String, lines: [String])] = []
        if c.tripUpdates > 0 {
            var trips = "\(count(m.trips.matched)) of \(count(c.tripUpdates)) updates matched"
            if m.tripsNotRunning > 0 { trips += " · \(count(m.tripsNotRunning)) not running on their date" }
            trips += " · \(count(m.cancelledTrips)) cancelled · \(count(m.addedTrips)) added"
            rows.append(("Trips", [trips] + unknown(m.trips, "unknown", t)))
            let s = m.stopTimeUpdates
            var stops = ["\(count(s.matched)) of \(count(m.stopTimeUpdateTotal)) updates matched · \(count(m.skippedStops)) skipped · "
                         + "\(count(m.noDataStops)) no data"]
            let unapplied = m.stopTimeUpdateTotal - s.matched - s.unknown
            if unapplied > 0 { stops.append("\(count(unapplied)) not applied (cancelled or unknown trips)") }
            rows.append(("Stop times", stops + unknown(s, "at unknown stops", t)))
        }
        if c.vehiclePositions > 0 {
            rows.append(("Vehicles", ["\(count(m.vehicles.matched)) of \(count(c.vehiclePositions)) matched"]
                         + unknown(m.vehicles, "with unknown trips", t)))
        }
        if m.routes.matched + m.routes.unknown > 0 {
            rows.append(("Routes", ["\(count(m.routes.matched)) of \(count(m.routes.matched + m.routes.unknown)) route IDs known"]
                         + unknown(m.routes, "unknown", t)))
        }
        if c.alerts > 0 {
            for (name, tally) in [("Alert stops", m.alertStops), ("Alert trips", m.alertTrips)] where tally.matched + tally.unknown > 0 {
                rows.append((name, ["\(count(tally.matched)) of \(count(tally.matched + tally.unknown)) known"] + unknown(tally, "unknown", t)))
            }
        }
        var out = [t.bold("Match with the static feed") + " " + dto.staticFeeds.joined(separator: ", ")
                   + (dto.otherFeeds.map { t.dim(" (also loaded: \($0.joined(separator: ", ")); NAME=FILE_OR_URL picks the feed)") } ?? "")]
        if rows.isEmpty { out.append("  Nothing in the feed names a trip, stop or route.") }
        let width = (rows.map(\.name.count).max() ?? 0) + 2
        for row in rows {
            for (i, line) in row.lines.enumerated() {
                out.append("  " + (i == 0 ? row.name : "").padding(toLength: width, withPad: " ", startingAt: 0) + line)
            }
        }
        // Nothing at all matching is nearly always the wrong static feed, not a broken realtime one.
        let tallies = [m.trips, m.vehicles, m.routes, m.alertStops, m.alertTrips]
        if tallies.allSatisfy({ $0.matched == 0 }) && tallies.contains(where: { $0.unknown > 0 }) {
            out.append(t.yellow("  Nothing matched: is this the static feed the realtime data belongs to? "
                                + (dto.otherFeeds == nil ? "Pass it with --feed." : "Name it: NAME=FILE_OR_URL, or pass it with --feed.")))
        }
        return out
    }

    /// "17 at unknown stops: 6084, 6085", or no line when all matched.
    private func unknown(_ tally: RealtimeInspectDTO.Tally, _ what: String, _ t: Terminal) -> [String] {
        guard tally.unknown > 0 else { return [] }
        let more = tally.unknownIds.count < tally.unknown && !tally.unknownIds.isEmpty ? ", …" : ""
        let ids = tally.unknownIds.isEmpty ? "" : ": " + tally.unknownIds.joined(separator: ", ") + more
        return [t.yellow("\(count(tally.unknown)) \(what)") + ids]
    }

    /// "fullDataset" → "full dataset", "inTransitTo" → "in transit to".
    private func words(_ camel: String) -> String {
        camel.reduce(into: "") { s, ch in s += ch.isUppercase ? " " + ch.lowercased() : String(ch) }
    }

    /// The HH:MM:SS of an ISO 8601 time.
    private func clock(_ iso: String) -> String {
        guard let t = iso.firstIndex(of: "T") else { return iso }
        return String(iso[iso.index(after: t)...].prefix(8))
    }

    /// 20251106 → 2025-11-06; anything else as given.
    private func dashed(_ yyyymmdd: String) -> String {
        guard yyyymmdd.count == 8, yyyymmdd.allSatisfy(\.isNumber) else { return yyyymmdd }
        let s = Array(yyyymmdd)
        return String(s[0..<4]) + "-" + String(s[4..<6]) + "-" + String(s[6..<8])
    }

    /// A delay as "+4m47s", "−19s", "+1h02m".
    private func signed(_ seconds: Int, _ t: Terminal) -> String {
        let a = abs(seconds)
        let body = a >= 3600 ? "\(a / 3600)h" + String(format: "%02dm", a / 60 % 60) : a >= 60 ? "\(a / 60)m" + String(format: "%02ds", a % 60) : "\(a)s"
        let text = (seconds < 0 ? "−" : "+") + body
        return seconds > 59 ? t.yellow(text) : seconds < -59 ? t.cyan(text) : text
    }

    private func age(_ seconds: Int) -> String {
        if seconds < 0 { return "\(age(-seconds).replacingOccurrences(of: " ago", with: "")) in the future" }
        if seconds < 60 { return "\(seconds) s ago" }
        if seconds < 3600 { return "\(seconds / 60) min ago" }
        if seconds < 2 * 86_400 { return "\(seconds / 3600) h \(seconds / 60 % 60) min ago" }
        return "\(count(seconds / 86_400)) days ago"
    }

    private func truncated(_ s: String, _ width: Int) -> String {
        s.count <= width ? s : String(s.prefix(max(width - 1, 1))) + "…"
    }

    /// 17041 → "17,041".
    private func count(_ n: Int) -> String {
        let digits = String(abs(n))
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
            out.append(ch)
        }
        return (n < 0 ? "-" : "") + out
    }
}
