import Foundation

/// A country's public transport as one GTFS feed, made from a seed: what the planner, boards, import and memory are
/// measured on at national scale (issue 26), and what the tests check answers on at a smaller size.
///
/// - **Towns** on a jittered grid 12 km apart: a few cities (2%: 150–400 stops), towns (18%: 30–60 stops) and
///   villages (the rest: 8–15 stops), each with stops of its own around its centre.
/// - **Buses**: each town's stops fall into lines that run from its edge through its station and out the other side
///   (a village has one). Cities every 7–8 minutes by day, 15 in the evening and 30 at night (past midnight, as
///   `24:40:00`); towns every 30 minutes; villages hourly; less at weekends. Buses are slower in the weekday peaks
///   (a quarter longer between stops from 07:00 to 09:30 and 16:00 to 19:00) and quicker late in the evening, so that a
///   line's trips run with a few sets of times, as a real city's do (Halifax has one set for every five trips). As a
///   real timetable's, a bus never overtakes the one before it on its line: one that would is held a minute behind it
///   (the trips around the end of a peak run with times of their own).
/// - **Rail**: every town has a station (a parent station with a rail platform and the bus stop), with
///   `transfers.txt` giving 3 minutes between the two and 2 on the platform. Regional trains run along each row
///   and column of the grid in sections of 12 towns (a section's end is the next one's start, where the changes
///   happen), every 30 minutes at peaks and hourly otherwise, calling everywhere; intercity trains link the
///   cities and towns in bands of three rows (and of three columns), hourly, calling at those only.
/// - **Calendars**: weekdays, Saturdays and Sundays for a year from Monday 2026-01-05, with weekday holidays
///   (`calendar_dates.txt`) that run the Sunday service instead.
/// - **Size**: towns are added until there are `stops` stops (default: `rows / 500`, as a national network has); every
///   service's frequency is scaled so that stop_times come to about `rows`.
///
/// Times are in Europe/Zurich. Nothing here is real: names are made up, and the same seed always gives the same feed.
public struct NationalNetwork: Sendable {
    public struct Summary: Sendable {
        public var stopTimes = 0, trips = 0, stops = 0, towns = 0, routes = 0, transfers = 0, bytes = 0
        public var seconds = 0.0
    }

    public var rows: Int
    public var stops: Int
    public var seed: UInt64

    public init(rows: Int, stops: Int? = nil, seed: UInt64 = 1) {
        self.rows = rows
        self.stops = stops ?? max(rows / 500, 60)
        self.seed = seed
    }

    // MARK: - The plan

    enum Tier: Int { case village = 1, town, city }

    struct Stop {
        var id: String, name: String, lat: Double, lon: Double
        var parent: String? = nil
        var isStation = false
    }

    struct Town {
        var name: String, tier: Tier, lat: Double, lon: Double, row: Int, column: Int
        /// Index into `stops` of the rail platform and of the bus stop at the station.
        var platform = 0, busStation = 0
    }

    /// A route's stops in order, how long each hop takes, and when it runs.
    struct Line {
        var routeID: String, shortName: String, longName: String, routeType: Int
        var stops: [Int]
        /// Seconds from each stop to the next (same count as `stops` minus one), and the dwell at each.
        var hops: [Int]
        var dwell: Int
        var bands: Bands
    }

    /// Headways by day type and time of day: (from, to, minutes) with times in seconds after midnight (past 24:00 allowed).
    struct Bands {
        var weekday: [(Int, Int, Double)], saturday: [(Int, Int, Double)], sunday: [(Int, Int, Double)]

        func scaled(_ factor: Double) -> Bands {
            func s(_ b: [(Int, Int, Double)]) -> [(Int, Int, Double)] { b.map { ($0.0, $0.1, $0.2 / factor) } }
            return Bands(weekday: s(weekday), saturday: s(saturday), sunday: s(sunday))
        }

        /// Departures (seconds after midnight) of one day type.
        static func departures(_ bands: [(Int, Int, Double)]) -> [Int] {
            var out: [Int] = []
            for (from, to, minutes) in bands {
                let step = max(60, Int((minutes * 60).rounded()))
                var t = from
                while t < to { out.append(t); t += step }
            }
            return out
        }
    }

    static let hour = 3600

    static func bands(for tier: Tier) -> Bands {
        let h = hour
        switch tier {
        case .city:
            return Bands(weekday: [(5 * h, 7 * h, 15), (7 * h, 19 * h, 7.5), (19 * h, 23 * h, 15), (23 * h, 25 * h, 30)],
                         saturday: [(6 * h, 20 * h, 10), (20 * h, 25 * h, 20)],
                         sunday: [(7 * h, 23 * h, 15), (23 * h, 25 * h, 30)])
        case .town:
            return Bands(weekday: [(5 * h + 1800, 22 * h, 30)], saturday: [(7 * h, 22 * h, 60)], sunday: [(8 * h, 21 * h, 60)])
        case .village:
            return Bands(weekday: [(6 * h, 21 * h, 60)], saturday: [(8 * h, 20 * h, 120)], sunday: [(9 * h, 19 * h, 120)])
        }
    }

    static let regionalBands = Bands(weekday: [(5 * hour, 6 * hour, 60), (6 * hour, 9 * hour, 30), (9 * hour, 16 * hour, 60),
                                               (16 * hour, 19 * hour, 30), (19 * hour, 24 * hour + 1800, 60)],
                                     saturday: [(6 * hour, 24 * hour, 60)], sunday: [(7 * hour, 24 * hour, 60)])
    static let intercityBands = Bands(weekday: [(6 * hour, 23 * hour, 60)], saturday: [(6 * hour, 23 * hour, 60)],
                                      sunday: [(7 * hour, 23 * hour, 60)])

    /// Weekday holidays in the calendar's year, on which the Sunday service runs.
    static let holidays = ["20260403", "20260406", "20260514", "20260525", "20261225"]
    static let startDate = "20260105", endDate = "20270103"

    struct Plan {
        var towns: [Town] = []
        var stops: [Stop] = []
        var lines: [Line] = []
        var transfers: [(from: Int, to: Int, seconds: Int)] = []
    }

    func plan() -> Plan {
        var random = SeededRandom(seed: seed)
        var plan = Plan()
        // 2% cities (275 stops on average), 18% towns (45), 80% villages (11.5): 22.8 stops a town, plus its station's
        // three. Towns are added, row after row of the grid, until the stops asked for are there (at least three towns).
        let side = max(2, Int((Double(stops) / 25.8).squareRoot().rounded(.up)))
        let (lat0, lon0) = (46.8, 8.2)
        let kmLat = 1 / 111.2, kmLon = 1 / (111.2 * cos(lat0 * .pi / 180))
        var n = 0
        while plan.stops.count < stops || n < 3 {
            defer { n += 1 }
            let row = n / side, column = n % side
            let roll = Double.random(in: 0..<1, using: &random)
            let tier: Tier = roll < 0.02 || n == 0 ? .city : roll < 0.20 ? .town : .village
            let lat = lat0 + (Double(row) * 12 + Double.random(in: -3...3, using: &random)) * kmLat
            let lon = lon0 + (Double(column) * 12 + Double.random(in: -3...3, using: &random)) * kmLon
            var town = Town(name: Self.townName(n), tier: tier, lat: lat, lon: lon, row: row, column: column)
            let stationID = "T\(n)"
            plan.stops.append(Stop(id: stationID, name: "\(town.name) Station", lat: lat, lon: lon, isStation: true))
            town.platform = plan.stops.count
            plan.stops.append(Stop(id: "T\(n)R", name: "\(town.name) Station", lat: lat, lon: lon, parent: stationID))
            town.busStation = plan.stops.count
            plan.stops.append(Stop(id: "T\(n)B", name: "\(town.name) Station (bus)", lat: lat + 0.0004, lon: lon, parent: stationID))
            plan.transfers.append((town.platform, town.busStation, 180))
            plan.transfers.append((town.busStation, town.platform, 180))
            plan.transfers.append((town.platform, town.platform, 120))
            // The town's own stops, on a disk around its centre.
            let (count, radiusKm): (Int, Double) = switch tier {
            // A small network's first city is smaller, so that it is not the whole network.
            case .city: (min(Int.random(in: 150...400, using: &random), max(30, stops / 5)), 6)
            case .town: (Int.random(in: 30...60, using: &random), 2.5)
            case .village: (Int.random(in: 8...15, using: &random), 1)
            }
            var own: [(index: Int, angle: Double, radius: Double)] = []
            for k in 0..<count {
                let angle = Double.random(in: 0..<(2 * .pi), using: &random)
                let radius = radiusKm * Double.random(in: 0.05...1, using: &random).squareRoot()
                own.append((plan.stops.count, angle, radius))
                plan.stops.append(Stop(id: "T\(n)S\(k)", name: "\(town.name) \(Self.streetName(k))",
                                       lat: lat + radius * sin(angle) * kmLat, lon: lon + radius * cos(angle) * kmLon))
            }
            plan.towns.append(town)
            // Bus lines: 2L sectors; line k runs from sector k's edge in to the station and out through sector k + L.
            let lineCount = max(1, count / 24)
            for k in 0..<lineCount {
                func sector(_ s: Int) -> [(index: Int, angle: Double, radius: Double)] {
                    own.filter { Int($0.angle / (2 * .pi) * Double(2 * lineCount)) % (2 * lineCount) == s }
                }
                let inbound = sector(k).sorted { $0.radius > $1.radius }, outbound = sector(k + lineCount).sorted { $0.radius < $1.radius }
                let stops = inbound.map(\.index) + [town.busStation] + outbound.map(\.index)
                guard stops.count >= 2 else { continue }
                let speed = tier == .village ? 35.0 : 20.0
                let hops = zip(stops, stops.dropFirst()).map { a, b in
                    max(60, Int((Self.km(plan.stops[a], plan.stops[b]) / speed * 3600 / 60).rounded()) * 60)
                }
                plan.lines.append(Line(routeID: "B\(n)_\(k)", shortName: "\(k + 1)", longName: "\(town.name) line \(k + 1)", routeType: 3,
                                       stops: stops, hops: hops, dwell: 0, bands: Self.bands(for: tier)))
            }
        }
        // Regional trains along each row and each column of the grid, in sections of 12 towns sharing their ends.
        let rowCount = (plan.towns.map(\.row).max() ?? 0) + 1
        var grid: [[Int]] = Array(repeating: [], count: rowCount), columns: [[Int]] = Array(repeating: [], count: side)
        for (i, t) in plan.towns.enumerated() { grid[t.row].append(i); columns[t.column].append(i) }
        var regional = 0
        for chain in grid + columns where chain.count >= 2 {
            var start = 0
            while start < chain.count - 1 {
                let section = Array(chain[start...min(start + 11, chain.count - 1)])
                regional += 1
                plan.lines.append(railLine(plan, section, id: "R\(regional)", name: "R\(regional)", speed: 70, dwell: 60,
                                           bands: Self.regionalBands))
                start += 11
            }
        }
        // Intercity trains: the cities and towns in bands of three grid rows (then columns), west to east (north to
        // south), so that a village is a bus, a regional train and at most two intercity trains from any other town.
        let cities = plan.towns.indices.filter { plan.towns[$0].tier != .village }
        var intercity = 0
        for byRow in [true, false] {
            let bands = Dictionary(grouping: cities) { (byRow ? plan.towns[$0].row : plan.towns[$0].column) / 3 }
            for key in bands.keys.sorted() {
                let chain = bands[key]!.sorted { byRow ? plan.towns[$0].column < plan.towns[$1].column : plan.towns[$0].row < plan.towns[$1].row }
                guard chain.count >= 2 else { continue }
                intercity += 1
                plan.lines.append(railLine(plan, chain, id: "IC\(intercity)", name: "IC \(intercity)", speed: 120, dwell: 120,
                                           bands: Self.intercityBands))
            }
        }
        return plan
    }

    private func railLine(_ plan: Plan, _ towns: [Int], id: String, name: String, speed: Double, dwell: Int, bands: Bands) -> Line {
        let stops = towns.map { plan.towns[$0].platform }
        let hops = zip(stops, stops.dropFirst()).map { a, b in
            max(120, Int((Self.km(plan.stops[a], plan.stops[b]) * 1.2 / speed * 3600 / 60).rounded()) * 60)
        }
        return Line(routeID: id, shortName: name, longName: "\(plan.towns[towns.first!].name) – \(plan.towns[towns.last!].name)",
                    routeType: 2, stops: stops, hops: hops, dwell: dwell, bands: bands)
    }

    static func km(_ a: Stop, _ b: Stop) -> Double {
        let dLat = (a.lat - b.lat) * 111.2, dLon = (a.lon - b.lon) * 111.2 * cos(a.lat * .pi / 180)
        return (dLat * dLat + dLon * dLon).squareRoot()
    }

    static func townName(_ n: Int) -> String {
        let first = ["Al", "Bel", "Cor", "Dun", "El", "Fal", "Gor", "Hal", "Ister", "Jun", "Kel", "Lor", "Mar", "Nor", "Ost", "Pel"]
        let last = ["berg", "dorf", "feld", "hausen", "ingen", "kirch", "mont", "stadt", "tal", "wil", "au", "brugg"]
        return first[n % first.count] + last[(n / first.count) % last.count] + (n < first.count * last.count ? "" : " \(n / (first.count * last.count) + 1)")
    }

    static func streetName(_ k: Int) -> String {
        let names = ["Market", "Church", "Mill", "School", "Garden", "Lake", "Hill", "Bridge", "Forest", "Meadow", "Castle", "Well"]
        return names[k % names.count] + (k < names.count ? " Street" : " Street \(k / names.count + 1)")
    }

    // MARK: - Writing

    /// How much longer a bus takes between stops when it leaves at `departure` (seconds of the day) on a day type:
    /// longer in the weekday peaks, shorter in the late evening and at night.
    static func busPace(_ service: String, _ departure: Int) -> Double {
        let hour = Double(departure % 86_400) / 3600
        if service == "WD" && ((7..<9.5).contains(hour) || (16..<19).contains(hour)) { return 1.25 }
        return hour >= 20 || hour < 5 ? 0.85 : 1
    }

    /// Trips of one line on one day type, one way.
    private static func rowsPerDayType(_ line: Line, _ bands: [(Int, Int, Double)]) -> Int { Bands.departures(bands).count * line.stops.count * 2 }

    /// Writes the feed into `folder` (created if needed).
    public func write(to folder: URL) throws -> Summary {
        let started = Date()
        var plan = plan()
        // Frequencies scaled so that stop_times come to about `rows`.
        let estimate = plan.lines.reduce(0) { sum, line in
            sum + Self.rowsPerDayType(line, line.bands.weekday) + Self.rowsPerDayType(line, line.bands.saturday)
                + Self.rowsPerDayType(line, line.bands.sunday)
        }
        let factor = Double(rows) / Double(max(estimate, 1))
        for i in plan.lines.indices { plan.lines[i].bands = plan.lines[i].bands.scaled(factor) }

        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var summary = Summary()
        func file(_ name: String, _ header: String, _ body: (inout CSVWriter) throws -> Void) throws {
            var w = try CSVWriter(folder.appendingPathComponent(name))
            w.text(header); w.newline()
            try body(&w)
            summary.bytes += try w.close()
        }
        try file("agency.txt", "agency_id,agency_name,agency_url,agency_timezone") { w in
            w.text("BUS,National Buses,https://bus.example,Europe/Zurich"); w.newline()
            w.text("RAIL,National Rail,https://rail.example,Europe/Zurich"); w.newline()
        }
        try file("feed_info.txt", "feed_publisher_name,feed_publisher_url,feed_lang,feed_start_date,feed_end_date,feed_version") { w in
            w.text("Onward synthetic,https://onward.example,en,\(Self.startDate),\(Self.endDate),national-\(seed)-\(rows)"); w.newline()
        }
        try file("calendar.txt", "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date") { w in
            for (id, days) in [("WD", "1,1,1,1,1,0,0"), ("SA", "0,0,0,0,0,1,0"), ("SU", "0,0,0,0,0,0,1")] {
                w.text("\(id),\(days),\(Self.startDate),\(Self.endDate)"); w.newline()
            }
        }
        try file("calendar_dates.txt", "service_id,date,exception_type") { w in
            for day in Self.holidays { w.text("WD,\(day),2"); w.newline(); w.text("SU,\(day),1"); w.newline() }
        }
        try file("stops.txt", "stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station") { w in
            for s in plan.stops {
                w.text(s.id); w.comma(); w.text(s.name); w.comma()
                w.text(String(format: "%.6f,%.6f", s.lat, s.lon)); w.comma()
                w.text(s.isStation ? "1" : "0"); w.comma(); w.text(s.parent ?? ""); w.newline()
            }
        }
        summary.stops = plan.stops.count
        summary.towns = plan.towns.count
        try file("routes.txt", "route_id,agency_id,route_short_name,route_long_name,route_type") { w in
            for l in plan.lines {
                w.text("\(l.routeID),\(l.routeType == 3 ? "BUS" : "RAIL"),\(l.shortName),\(l.longName),\(l.routeType)"); w.newline()
            }
        }
        summary.routes = plan.lines.count
        try file("transfers.txt", "from_stop_id,to_stop_id,transfer_type,min_transfer_time") { w in
            for t in plan.transfers { w.text("\(plan.stops[t.from].id),\(plan.stops[t.to].id),2,\(t.seconds)"); w.newline() }
        }
        summary.transfers = plan.transfers.count
        var trips = try CSVWriter(folder.appendingPathComponent("trips.txt"))
        var times = try CSVWriter(folder.appendingPathComponent("stop_times.txt"))
        trips.text("route_id,service_id,trip_id,trip_headsign,direction_id"); trips.newline()
        times.text("trip_id,arrival_time,departure_time,stop_id,stop_sequence"); times.newline()
        for line in plan.lines {
            for (service, bands) in [("WD", line.bands.weekday), ("SA", line.bands.saturday), ("SU", line.bands.sunday)] {
                // Each direction's last trip's times at each stop, so that the next one stays behind it.
                var before: [[Int]] = [[], []]
                for departure in Bands.departures(bands) {
                    for direction in 0...1 {
                        let order = direction == 0 ? line.stops : line.stops.reversed()
                        let pace = line.routeType == 3 ? Self.busPace(service, departure) : 1
                        let hops = (direction == 0 ? line.hops : line.hops.reversed()).map { pace == 1 ? $0 : max(60, Int((Double($0) * pace / 60).rounded()) * 60) }
                        let tripID = "\(line.routeID)_\(service)_\(departure / 60)_\(direction)"
                        trips.text("\(line.routeID),\(service),\(tripID),\(plan.stops[order.last!].name),\(direction)"); trips.newline()
                        var t = departure
                        var mine: [Int] = []
                        for (k, stop) in order.enumerated() {
                            let arrival = k < before[direction].count ? max(t, before[direction][k] + 60) : t
                            mine.append(arrival)
                            let leave = k == 0 || k == order.count - 1 ? arrival : arrival + line.dwell
                            times.text(tripID); times.comma(); times.time(arrival); times.comma(); times.time(leave); times.comma()
                            times.text(plan.stops[stop].id); times.comma(); times.int(k + 1); times.newline()
                            if k < hops.count { t = leave + hops[k] }
                            try times.flushIfFull()
                        }
                        before[direction] = mine
                        summary.trips += 1
                        summary.stopTimes += order.count
                        try trips.flushIfFull()
                    }
                }
            }
        }
        summary.bytes += try trips.close() + times.close()
        summary.seconds = Date().timeIntervalSince(started)
        return summary
    }
}

/// Buffered CSV output: text, integers and GTFS times (hours past 24 allowed) appended as bytes, written a megabyte at a time.
struct CSVWriter {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var written = 0

    init(_ url: URL) throws {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        handle = try FileHandle(forWritingTo: url)
        buffer.reserveCapacity(1 << 20 + 4096)
    }

    mutating func text(_ s: String) { buffer.append(contentsOf: s.utf8) }
    mutating func comma() { buffer.append(UInt8(ascii: ",")) }
    mutating func newline() { buffer.append(UInt8(ascii: "\n")) }

    mutating func int(_ value: Int) {
        if value >= 10 { int(value / 10) }
        buffer.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// HH:MM:SS, hours from 00 (and past 24 for a trip after midnight).
    mutating func time(_ seconds: Int) {
        let h = seconds / 3600, m = seconds / 60 % 60, s = seconds % 60
        if h < 10 { buffer.append(UInt8(ascii: "0")) }
        int(h)
        for part in [m, s] {
            buffer.append(UInt8(ascii: ":"))
            buffer.append(UInt8(ascii: "0") + UInt8(part / 10))
            buffer.append(UInt8(ascii: "0") + UInt8(part % 10))
        }
    }

    mutating func flushIfFull() throws { if buffer.count >= 1 << 20 { try flush() } }

    private mutating func flush() throws {
        try buffer.withUnsafeBytes { try handle.write(contentsOf: $0) }
        written += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is left and closes the file; returns the bytes written in all.
    mutating func close() throws -> Int {
        try flush()
        try handle.close()
        return written
    }
}
