import Foundation
import OnwardCore

/// Every station Darwin can answer for (2,606 of them), with its CRS code and
/// position: `uk-railway-stations.csv` from davwheat/uk-railway-stations, shipped
/// unchanged under the ODbL (see `Resources/ATTRIBUTION.md`).
///
/// Immutable after loading, so one instance serves every request. Lookups are by
/// CRS (a dictionary); name search and nearby scan all rows, which for 2,606
/// stations takes well under a millisecond.
public struct StationDirectory: Sendable {
    /// One row of the list.
    public struct Station: Sendable, Hashable {
        public var crs: String
        public var name: String
        public var latitude: Double
        public var longitude: Double
        /// The airport the station serves, if any ("LGW").
        public var iataAirportCode: String?
        /// "england", "scotland" or "wales".
        public var country: String

        public init(crs: String, name: String, latitude: Double, longitude: Double, iataAirportCode: String? = nil,
                    country: String = "") {
            self.crs = crs; self.name = name; self.latitude = latitude; self.longitude = longitude
            self.iataAirportCode = iataAirportCode; self.country = country
        }

        /// The station as search and nearby results show it.
        public var place: StopPlace {
            StopPlace(id: NationalRailIDs.station(crs), name: name, code: crs, kind: .station, latitude: latitude,
                      longitude: longitude, parentID: nil, platform: nil, timeZone: DarwinClock.zoneIdentifier)
        }
    }

    public let stations: [Station]
    private let byCRS: [String: Int]
    /// Folded names and their words, index-aligned with `stations`.
    private let folded: [String]
    private let words: [[Substring]]

    public init(stations: [Station]) {
        self.stations = stations
        var byCRS: [String: Int] = [:]
        for (i, s) in stations.enumerated() where byCRS[s.crs] == nil { byCRS[s.crs] = i }
        self.byCRS = byCRS
        folded = stations.map { TextFolding.fold($0.name) }
        words = folded.map { $0.split(separator: " ") }
    }

    /// Reads the CSV (`stationName,lat,long,crsCode,iataAirportCode,constituentCountry`,
    /// columns found by their header names). A row without a CRS code or a position
    /// is an error with its line number: the list is ours, so a bad row is a bug.
    public init(csv: String) throws(SourceError) {
        var lines = csv.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        guard !lines.isEmpty else { throw SourceError(.unreadable, "the station list is empty") }
        var header = StationDirectory.fields(lines.removeFirst())
        if let first = header.first, first.hasPrefix("\u{FEFF}") { header[0] = String(first.dropFirst()) }
        func column(_ name: String) throws(SourceError) -> Int {
            guard let i = header.firstIndex(of: name) else { throw SourceError(.unreadable, "the station list has no \(name) column") }
            return i
        }
        let name = try column("stationName"), lat = try column("lat"), lon = try column("long"), crs = try column("crsCode")
        let iata = header.firstIndex(of: "iataAirportCode"), country = header.firstIndex(of: "constituentCountry")
        var stations: [Station] = []
        stations.reserveCapacity(lines.count)
        for (n, line) in lines.enumerated() {
            let f = StationDirectory.fields(line)
            func at(_ i: Int?) -> String { i.map { $0 < f.count ? f[$0] : "" } ?? "" }
            guard let code = NationalRailIDs.crs(at(crs)), let la = Double(at(lat)), let lo = Double(at(lon)) else {
                throw SourceError(.unreadable, "the station list's line \(n + 2) has no CRS code or position")
            }
            let airport = at(iata)
            stations.append(Station(crs: code, name: at(name), latitude: la, longitude: lo,
                                    iataAirportCode: airport.isEmpty ? nil : airport, country: at(country)))
        }
        self.init(stations: stations)
    }

    /// The list shipped in this module's resources, read once.
    public static func bundled() throws(SourceError) -> StationDirectory { try bundledResult.get() }

    private static let bundledResult: Result<StationDirectory, SourceError> = {
        guard let url = Bundle.module.url(forResource: "uk-railway-stations", withExtension: "csv", subdirectory: "Resources")
                ?? Bundle.module.url(forResource: "uk-railway-stations", withExtension: "csv") else {
            return .failure(SourceError(.unreadable, "the National Rail station list is missing from the build"))
        }
        guard let data = try? Data(contentsOf: url) else {
            return .failure(SourceError(.unreadable, "the National Rail station list could not be read"))
        }
        do throws(SourceError) {
            return .success(try StationDirectory(csv: String(decoding: data, as: UTF8.self)))
        } catch {
            return .failure(error)
        }
    }()

    public var count: Int { stations.count }

    /// The station with this CRS code (any case).
    public func station(crs: String) -> Station? {
        guard let code = NationalRailIDs.crs(crs), let i = byCRS[code] else { return nil }
        return stations[i]
    }

    /// Stations whose name matches `text`, best first: the station whose CRS code is
    /// `text` (so "ECR" finds East Croydon); then names that start with it; then names
    /// with a word that starts with it (every word of `text` must start a word of the
    /// name, in any order: "croydon east" finds East Croydon). Case and accents are
    /// ignored. Within a group shorter names come first, then alphabetical.
    public func search(_ text: String, limit: Int = 20) -> [Station] {
        let query = TextFolding.fold(text)
        guard !query.isEmpty, limit > 0 else { return [] }
        let queryWords = query.split(separator: " ")
        var exact: Station?
        if let code = NationalRailIDs.crs(text.trimmingCharacters(in: .whitespaces)), let i = byCRS[code] { exact = stations[i] }
        var prefix: [Int] = [], word: [Int] = []
        for i in stations.indices where stations[i].crs != exact?.crs {
            if folded[i].hasPrefix(query) {
                prefix.append(i)
            } else if queryWords.allSatisfy({ q in words[i].contains { $0.hasPrefix(q) } }) {
                word.append(i)
            }
        }
        func order(_ a: Int, _ b: Int) -> Bool {
            folded[a].count != folded[b].count ? folded[a].count < folded[b].count : stations[a].name < stations[b].name
        }
        let ranked = (exact.map { [$0] } ?? []) + (prefix.sorted(by: order) + word.sorted(by: order)).map { stations[$0] }
        return Array(ranked.prefix(limit))
    }

    /// Stations within `radius` metres of a point, nearest first, with their distance.
    public func nearby(latitude: Double, longitude: Double, radius: Double, limit: Int = 20) -> [(station: Station, distance: Double)] {
        guard limit > 0, radius >= 0 else { return [] }
        var found: [(station: Station, distance: Double)] = []
        for s in stations {
            let d = GreatCircle.metres(latitude, longitude, s.latitude, s.longitude)
            if d <= radius { found.append((s, d)) }
        }
        found.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.station.crs < $1.station.crs }
        return Array(found.prefix(limit))
    }

    /// Great-circle distance in metres (mean Earth radius 6,371,008.8 m).

    /// One CSV line's fields: commas separate, double quotes may enclose a field
    /// (with `""` for a quote inside). The shipped list uses no quotes; this keeps a
    /// future name with a comma readable.
    static func fields(_ line: Substring) -> [String] {
        guard line.contains("\"") else { return line.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        var fields: [String] = [], current = "", quoted = false
        var chars = line.makeIterator()
        while let c = chars.next() {
            if quoted {
                if c == "\"" {
                    if let next = chars.next() {
                        if next == "\"" { current.append("\"") } else {
                            quoted = false
                            if next == "," { fields.append(current); current = "" } else { current.append(next) }
                        }
                    } else { quoted = false }
                } else { current.append(c) }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                fields.append(current); current = ""
            } else {
                current.append(c)
            }
        }
        fields.append(current)
        return fields
    }
}
