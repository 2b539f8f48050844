import Foundation
import OnwardCore
import Timetable

/// Loads one feed's files into the shared builder, resolving IDs to indices
/// and refusing what cannot be used.
struct FeedImport {
    let source: any GTFSSource
    let name: String
    /// "name:": every ID is canonical, `name:local`, with one feed or several.
    let prefix: String
    /// Whether messages name files as `name/file` (with several feeds).
    let qualifiesFiles: Bool
    let progress: ((GTFSImporter.Progress) -> Void)?

    var rowCounts: [String: Int] = [:]
    var agencies: [String: UInt32] = [:]
    var firstAgency: UInt32?
    var feedZone: UInt16 = 0
    var stops: [String: StopIndex] = [:]
    var routes: [String: RouteIndex] = [:]
    var services: [String: UInt32] = [:]
    var trips: [String: TripIndex] = [:]
    /// Each trip's shape_id, linked once shapes.txt has been read.
    var tripShapes: [(trip: TripIndex, shapeID: String, line: Int)] = []

    init(source: any GTFSSource, name: String, prefix: String, qualifiesFiles: Bool, progress: ((GTFSImporter.Progress) -> Void)?) {
        self.source = source; self.name = name; self.prefix = prefix; self.qualifiesFiles = qualifiesFiles; self.progress = progress
    }

    mutating func load(into b: inout TimetableBuilder, notices: inout [ImportNotice]) throws {
        for file in ["agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt"] where !source.contains(file) {
            throw FeedError(code: "missingFile", location: SourceLocation(file: file), message: "required file \(file) is missing from the feed")
        }
        guard source.contains("calendar.txt") || source.contains("calendar_dates.txt") else {
            throw FeedError(code: "missingFile", location: SourceLocation(file: "calendar.txt"),
                            message: "the feed has neither calendar.txt nor calendar_dates.txt, so no service ever runs")
        }
        let feedInfo = try readFeedInfo()
        try readAgencies(&b)
        b.addFeed(FeedSummary(name: name, idPrefix: prefix, publisher: feedInfo["feed_publisher_name"],
                              version: feedInfo["feed_version"], startDate: feedInfo["feed_start_date"],
                              endDate: feedInfo["feed_end_date"], agencies: Array(agencies.keys).sorted()))
        try readStops(&b)
        try readRoutes(&b)
        try readCalendar(&b)
        let shapes = ShapeReader.Pending(source)
        try readTrips(&b)
        try readStopTimes(&b)
        try readFrequencies(&b)
        try readTransfers(&b)
        linkShapes(try shapes.wait(), &b, notices: &notices)
    }

    private mutating func count(_ file: String) { rowCounts[file, default: 0] += 1 }

    func report(_ file: String) -> ((Int) -> Void)? {
        guard let progress else { return nil }
        let total = source.size(of: file)
        let feed = name
        var last = 0
        return { bytes in
            // Report about every 4 MB so the callback costs nothing measurable.
            if bytes - last >= 4 << 20 || bytes == total {
                last = bytes
                progress(GTFSImporter.Progress(feed: feed, file: file, bytesRead: bytes, totalBytes: total))
            }
        }
    }

    private func readFeedInfo() throws -> [String: String] {
        guard source.contains("feed_info.txt") else { return [:] }
        var info: [String: String] = [:]
        try GTFSTable.read(source, "feed_info.txt") { table, row in
            guard info.isEmpty else { return }
            for (column, index) in table.columns where !row.isEmpty(index) { info[column] = row.string(index) }
        }
        return info
    }

    private mutating func readAgencies(_ b: inout TimetableBuilder) throws {
        var agencies = self.agencies
        var first: UInt32?
        var feedZone: UInt16?
        try GTFSTable.read(source, "agency.txt", required: ["agency_name", "agency_timezone"]) { t, row in
            let name = try t.required("agency_name"), tz = try t.required("agency_timezone")
            let idColumn = t.column("agency_id")
            let id = idColumn.map { row.string($0) } ?? ""
            guard agencies[id] == nil else {
                throw t.error("duplicateKey", line: row.line, field: "agency_id", "agency_id '\(id)' appears twice")
            }
            let zoneName = row.string(tz)
            guard let zone = b.zone(zoneName) else {
                throw t.error("invalidValue", line: row.line, field: "agency_timezone", "'\(zoneName)' is not a known time zone")
            }
            let index = b.addAgency(id: prefix + id, name: row.string(name), zone: zone)
            agencies[id] = index
            if first == nil { first = index; feedZone = zone }
        }
        guard let first, let feedZone else {
            throw FeedError(code: "missingFile", location: SourceLocation(file: "agency.txt", line: 2), message: "agency.txt lists no agency")
        }
        self.agencies = agencies
        self.firstAgency = first
        self.feedZone = feedZone
        rowCounts["agency.txt"] = agencies.count
    }

    private mutating func readStops(_ b: inout TimetableBuilder) throws {
        var stops = self.stops
        var parents: [(stop: StopIndex, parent: String, line: Int)] = []
        let prefix = self.prefix, feedZone = self.feedZone
        try GTFSTable.read(source, "stops.txt", required: ["stop_id"], progress: report("stops.txt")) { t, row in
            let idC = try t.required("stop_id")
            let id = row.string(idC)
            guard !id.isEmpty else { throw t.error("invalidValue", line: row.line, field: "stop_id", "stop_id is empty") }
            guard stops[id] == nil else { throw t.error("duplicateKey", line: row.line, field: "stop_id", "stop_id '\(id)' appears twice") }
            var kind = StopKind.stop
            if let c = t.column("location_type"), !row.isEmpty(c) {
                guard let v = FieldParsing.int(row.bytes(c)), let k = StopKind(rawValue: UInt8(clamping: max(v, 0))), v >= 0 else {
                    throw t.error("invalidValue", line: row.line, field: "location_type", "'\(row.string(c))' is not a location type (0–4)")
                }
                kind = k
            }
            let needsPlace = kind.rawValue <= 2
            var lat = 0.0, lon = 0.0
            for (field, isLat) in [("stop_lat", true), ("stop_lon", false)] {
                let c = t.column(field)
                let text = c.map { row.bytes($0) }
                if let text, !text.isEmpty {
                    guard let v = FieldParsing.double(text), isLat ? abs(v) <= 90 : abs(v) <= 180 else {
                        throw t.error("invalidValue", line: row.line, field: field, "'\(String(decoding: text, as: UTF8.self))' is not a valid \(isLat ? "latitude" : "longitude")")
                    }
                    if isLat { lat = v } else { lon = v }
                } else if needsPlace {
                    throw t.error("invalidValue", line: row.line, field: field, "a \(kind.name) needs \(field)")
                }
            }
            var zone: UInt16?
            if let c = t.column("stop_timezone"), !row.isEmpty(c) {
                let zoneName = row.string(c)
                guard let z = b.zone(zoneName) else {
                    throw t.error("invalidValue", line: row.line, field: "stop_timezone", "'\(zoneName)' is not a known time zone")
                }
                zone = z
            }
            let index = b.addStop(id: prefix + id, name: t.column("stop_name").map { row.string($0) } ?? "",
                                  code: t.column("stop_code").map { row.string($0) } ?? "", latitude: lat, longitude: lon,
                                  kind: kind, platform: t.column("platform_code").map { row.string($0) } ?? "",
                                  zone: zone, feedZone: feedZone)
            stops[id] = index
            // An optional field: a value outside 0–2 reads as "no information".
            if let c = t.column("wheelchair_boarding"), let w = FieldParsing.int(row.bytes(c)), (0...2).contains(w) { b.setWheelchair(stop: index, UInt8(w)) }
            if let c = t.column("parent_station"), !row.isEmpty(c) { parents.append((index, row.string(c), row.line)) }
        }
        for p in parents {
            guard let parent = stops[p.parent] else {
                throw FeedError(code: "unknownReference", location: SourceLocation(file: "stops.txt", line: p.line, field: "parent_station"),
                                message: "parent_station '\(p.parent)' is not a stop in stops.txt")
            }
            b.setParent(of: p.stop, to: parent)
        }
        self.stops = stops
        rowCounts["stops.txt"] = stops.count
    }

    private mutating func readRoutes(_ b: inout TimetableBuilder) throws {
        var routes = self.routes
        let agencies = self.agencies, firstAgency = self.firstAgency!, prefix = self.prefix
        try GTFSTable.read(source, "routes.txt", required: ["route_id", "route_type"]) { t, row in
            let idC = try t.required("route_id"), typeC = try t.required("route_type")
            let id = row.string(idC)
            guard !id.isEmpty else { throw t.error("invalidValue", line: row.line, field: "route_id", "route_id is empty") }
            guard routes[id] == nil else { throw t.error("duplicateKey", line: row.line, field: "route_id", "route_id '\(id)' appears twice") }
            guard let type = FieldParsing.int(row.bytes(typeC)) else {
                throw t.error("invalidValue", line: row.line, field: "route_type", "'\(row.string(typeC))' is not a route type")
            }
            var agency = firstAgency
            if let c = t.column("agency_id"), !row.isEmpty(c) {
                let a = row.string(c)
                guard let found = agencies[a] else {
                    throw t.error("unknownReference", line: row.line, field: "agency_id", "agency_id '\(a)' is not in agency.txt")
                }
                agency = found
            } else if agencies.count > 1 {
                throw t.error("invalidValue", line: row.line, field: "agency_id", "the feed has several agencies, so each route needs agency_id")
            }
            routes[id] = b.addRoute(id: prefix + id, shortName: t.column("route_short_name").map { row.string($0) } ?? "",
                                    longName: t.column("route_long_name").map { row.string($0) } ?? "", type: Int32(clamping: type),
                                    agency: agency, color: t.column("route_color").map { row.string($0) } ?? "",
                                    textColor: t.column("route_text_color").map { row.string($0) } ?? "")
        }
        self.routes = routes
        rowCounts["routes.txt"] = routes.count
    }

    private mutating func readCalendar(_ b: inout TimetableBuilder) throws {
        var services = self.services
        let prefix = self.prefix
        func date(_ t: GTFSTable, _ row: CSVRecord, _ c: Int, _ field: String) throws -> ServiceDate {
            guard let d = ServiceDate(gtfs: row.string(c)) else {
                throw t.error("invalidValue", line: row.line, field: field, "'\(row.string(c))' is not a date (YYYYMMDD)")
            }
            return d
        }
        if source.contains("calendar.txt") {
            var n = 0
            try GTFSTable.read(source, "calendar.txt", required: ["service_id", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "start_date", "end_date"]) { t, row in
                let idC = try t.required("service_id")
                let days = try ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map { try t.required($0) }
                let startC = try t.required("start_date"), endC = try t.required("end_date")
                let id = row.string(idC)
                guard services[id] == nil else { throw t.error("duplicateKey", line: row.line, field: "service_id", "service_id '\(id)' appears twice") }
                var mask: UInt8 = 0
                for (i, c) in days.enumerated() {
                    switch row.string(c) {
                    case "1": mask |= 1 << UInt8(i)
                    case "0": break
                    default:
                        throw t.error("invalidValue", line: row.line, field: ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"][i],
                                      "'\(row.string(c))' must be 0 or 1")
                    }
                }
                let start = try date(t, row, startC, "start_date"), end = try date(t, row, endC, "end_date")
                guard start <= end else { throw t.error("invalidValue", line: row.line, field: "end_date", "end_date is before start_date") }
                let s = b.addService(id: prefix + id)
                b.setWeekly(service: s, weekdays: mask, start: start, end: end)
                services[id] = s
                n += 1
            }
            rowCounts["calendar.txt"] = n
        }
        if source.contains("calendar_dates.txt") {
            var seen: Set<String> = []
            var n = 0
            try GTFSTable.read(source, "calendar_dates.txt", required: ["service_id", "date", "exception_type"]) { t, row in
                let idC = try t.required("service_id"), dateC = try t.required("date"), typeC = try t.required("exception_type")
                let id = row.string(idC)
                let d = try date(t, row, dateC, "date")
                let key = id + "\u{0}" + d.gtfsString
                guard seen.insert(key).inserted else {
                    throw t.error("duplicateKey", line: row.line, field: "date", "service '\(id)' has two exceptions on \(d.isoString)")
                }
                let type = row.string(typeC)
                guard type == "1" || type == "2" else {
                    throw t.error("invalidValue", line: row.line, field: "exception_type", "'\(type)' must be 1 (added) or 2 (removed)")
                }
                let s: UInt32
                if let existing = services[id] { s = existing } else { s = b.addService(id: prefix + id); services[id] = s }
                b.addException(service: s, date: d, added: type == "1")
                n += 1
            }
            rowCounts["calendar_dates.txt"] = n
        }
        self.services = services
    }

    private mutating func readTrips(_ b: inout TimetableBuilder) throws {
        var trips = self.trips
        let routes = self.routes, services = self.services, prefix = self.prefix
        var tripShapes: [(trip: TripIndex, shapeID: String, line: Int)] = []
        let file = b.fileIndex(qualifiesFiles ? "\(name)/trips.txt" : "trips.txt")
        if let size = source.size(of: "trips.txt") { trips.reserveCapacity(trips.count + size / 40) }
        // Columns found once from the header, and the last row's values remembered: a national feed has a million trips,
        // listed route by route, and hashing each row's column names, route, service and strings was most of reading them.
        var idC = 0, routeC = 0, serviceC = 0
        var directionC: Int?, headsignC: Int?, shortNameC: Int?, blockC: Int?, wheelchairC: Int?, shapeC: Int?
        var route = Remembered<RouteIndex>(), service = Remembered<UInt32>()
        var headsign = Remembered<UInt32>(), shortName = Remembered<UInt32>(), block = Remembered<UInt32>()
        try GTFSTable.read(source, "trips.txt", required: ["route_id", "service_id", "trip_id"], progress: report("trips.txt"), header: { t in
            idC = try t.required("trip_id"); routeC = try t.required("route_id"); serviceC = try t.required("service_id")
            directionC = t.column("direction_id"); headsignC = t.column("trip_headsign"); shortNameC = t.column("trip_short_name")
            blockC = t.column("block_id"); wheelchairC = t.column("wheelchair_accessible"); shapeC = t.column("shape_id")
        }) { t, row in
            let id = row.string(idC)
            guard !id.isEmpty else { throw t.error("invalidValue", line: row.line, field: "trip_id", "trip_id is empty") }
            let routeIndex = try route.value(for: row.bytes(routeC)) {
                let r = row.string(routeC)
                guard let index = routes[r] else { throw t.error("unknownReference", line: row.line, field: "route_id", "route_id '\(r)' is not in routes.txt") }
                return index
            }
            let serviceIndex = try service.value(for: row.bytes(serviceC)) {
                let s = row.string(serviceC)
                guard let index = services[s] else {
                    throw t.error("unknownReference", line: row.line, field: "service_id", "service_id '\(s)' is in neither calendar.txt nor calendar_dates.txt")
                }
                return index
            }
            var direction: UInt8 = 2
            if let c = directionC, !row.isEmpty(c) {
                guard let d = FieldParsing.int(row.bytes(c)), d == 0 || d == 1 else {
                    throw t.error("invalidValue", line: row.line, field: "direction_id", "'\(row.string(c))' must be 0 or 1")
                }
                direction = UInt8(d)
            }
            func interned(_ c: Int?, _ memo: inout Remembered<UInt32>) -> UInt32 {
                guard let c else { return 0 }
                return memo.value(for: row.bytes(c)) { b.intern(row.string(c)) }
            }
            let trip = b.addTrip(id: prefix + id, route: routeIndex, service: serviceIndex, headsign: interned(headsignC, &headsign),
                                 shortName: interned(shortNameC, &shortName), direction: direction, block: interned(blockC, &block),
                                 file: file, line: row.line)
            guard trips.updateValue(trip, forKey: id) == nil else {
                throw t.error("duplicateKey", line: row.line, field: "trip_id", "trip_id '\(id)' appears twice")
            }
            if let c = wheelchairC, let w = FieldParsing.int(row.bytes(c)), (0...2).contains(w) { b.setWheelchair(trip: trip, UInt8(w)) }
            if let c = shapeC, !row.isEmpty(c) { tripShapes.append((trip, row.string(c), row.line)) }
        }
        self.tripShapes = tripShapes
        self.trips = trips
        rowCounts["trips.txt"] = trips.count
    }
}
