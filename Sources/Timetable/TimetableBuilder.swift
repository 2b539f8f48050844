import Foundation
import OnwardCore

/// Collects a feed's entities (already resolved to indices by the importer) and
/// builds the immutable `Timetable`: sorts stop times, interpolates untimed
/// stops, skips unusable trips with a notice, groups trips into patterns and
/// builds the per-stop event indices.
public struct TimetableBuilder {
    /// Stop-time rows as columns; blank times are `-1`.
    public struct StopTimeRows {
        public var trip: [TripIndex] = []
        /// GTFS stop_sequence (a number from the feed, not an index).
        public var sequence: [UInt32] = []
        public var stop: [StopIndex] = []
        public var arrival: [Int32] = []
        public var departure: [Int32] = []
        /// Bits 0–1 pick-up, 2–3 drop-off, 4 timepoint, 5 timepoint given explicitly.
        public var flags: [UInt8] = []
        public var headsign: [UInt32] = []
        public var distance: [Float] = []
        public var line: [UInt32] = []
        /// Which file (by index into `files`) each row came from, for messages.
        public var file: [UInt16] = []

        public init() {}

        public var count: Int { trip.count }

        /// Appends `other`'s rows; into an empty table, takes `other`'s columns as they are.
        public mutating func append(_ other: consuming StopTimeRows) {
            if count == 0 { self = other; return }
            trip.append(contentsOf: other.trip); other.trip = []
            sequence.append(contentsOf: other.sequence); other.sequence = []
            stop.append(contentsOf: other.stop); other.stop = []
            arrival.append(contentsOf: other.arrival); other.arrival = []
            departure.append(contentsOf: other.departure); other.departure = []
            flags.append(contentsOf: other.flags); other.flags = []
            headsign.append(contentsOf: other.headsign); other.headsign = []
            distance.append(contentsOf: other.distance); other.distance = []
            line.append(contentsOf: other.line); other.line = []
            file.append(contentsOf: other.file); other.file = []
        }

        public mutating func reserve(_ n: Int) {
            trip.reserveCapacity(n); sequence.reserveCapacity(n); stop.reserveCapacity(n)
            arrival.reserveCapacity(n); departure.reserveCapacity(n); flags.reserveCapacity(n)
            headsign.reserveCapacity(n); distance.reserveCapacity(n); line.reserveCapacity(n); file.reserveCapacity(n)
        }
    }

    struct ServiceRule {
        var weekdays: UInt8 = 0
        var start: Int32 = 0
        var end: Int32 = -1
        var added: [Int32] = []
        var removed: [Int32] = []
    }

    // The columns below keep indices as bare `UInt32`, as the timetable's do; the
    // methods take and return `StopIndex`, `TripIndex` and `RouteIndex`.
    var feeds: [FeedSummary] = []
    var zoneIDs: [String] = []
    var zoneIndex: [String: UInt16] = [:]
    var agencyID: [String] = [], agencyName: [String] = [], agencyZone: [UInt16] = []
    var stopID: [String] = [], stopName: [String] = [], stopCode: [String] = []
    var stopLat: [Double] = [], stopLon: [Double] = [], stopKind: [UInt8] = []
    var stopParent: [UInt32] = [], stopPlatform: [String] = [], stopOwnZone: [UInt16] = []
    var stopWheelchair: [UInt8] = [], tripWheelchair: [UInt8] = []
    var stopFeedZone: [UInt16] = []
    var routeID: [String] = [], routeShortName: [String] = [], routeLongName: [String] = []
    var routeType: [Int32] = [], routeAgency: [UInt32] = [], routeColor: [String] = [], routeTextColor: [String] = []
    var tripID: [String] = [], tripRoute: [UInt32] = [], tripService: [UInt32] = []
    var tripHeadsign: [UInt32] = [], tripShortName: [UInt32] = [], tripDirection: [UInt8] = [], tripBlock: [UInt32] = []
    var frequencies: [(trip: TripIndex, start: Int32, end: Int32, headway: Int32, exact: UInt8)] = []
    var tripShape: [UInt32] = []
    /// Where each trip was defined (index into `files`, line), for notices; not kept in the timetable.
    var tripSource: [(file: UInt16, line: UInt32)] = []
    var shapeID: [String] = []
    var shapePoints: [(shape: UInt32, sequence: UInt32, lat: Int32, lon: Int32, distance: Float)] = []
    var transfers = TransferTable()
    var serviceID: [String] = []
    var services: [ServiceRule] = []
    var strings: [String] = [""]
    var stringIndex: [String: UInt32] = ["": 0]
    public var stopTimes = StopTimeRows()
    /// File names that row locations refer to by index.
    public var files: [String] = []

    public init() {}

    // MARK: Adding entities

    public mutating func addFeed(_ feed: FeedSummary) { feeds.append(feed) }

    /// Returns nil when the identifier is not a known IANA time zone.
    public mutating func zone(_ identifier: String) -> UInt16? {
        if let z = zoneIndex[identifier] { return z }
        guard TimeZone(identifier: identifier) != nil else { return nil }
        let z = UInt16(zoneIDs.count)
        zoneIDs.append(identifier)
        zoneIndex[identifier] = z
        return z
    }

    public mutating func intern(_ s: String) -> UInt32 {
        if let i = stringIndex[s] { return i }
        let i = UInt32(strings.count)
        strings.append(s)
        stringIndex[s] = i
        return i
    }

    public mutating func addAgency(id: String, name: String, zone: UInt16) -> UInt32 {
        agencyID.append(id); agencyName.append(name); agencyZone.append(zone)
        return UInt32(agencyID.count - 1)
    }

    /// `zone` is the stop's own stop_timezone if it has one; `feedZone` the feed's default.
    public mutating func addStop(id: String, name: String, code: String, latitude: Double, longitude: Double,
                                 kind: StopKind, platform: String, zone: UInt16?, feedZone: UInt16) -> StopIndex {
        stopID.append(id); stopName.append(name); stopCode.append(code); stopLat.append(latitude)
        stopLon.append(longitude); stopKind.append(kind.rawValue); stopParent.append(Timetable.none)
        stopPlatform.append(platform); stopOwnZone.append(zone ?? UInt16.max); stopFeedZone.append(feedZone)
        stopWheelchair.append(0)
        return StopIndex(raw: UInt32(stopID.count - 1))
    }

    /// GTFS wheelchair_boarding of a stop (0 no information, 1 accessible, 2 not).
    public mutating func setWheelchair(stop: StopIndex, _ value: UInt8) { stopWheelchair[Int(stop.raw)] = value }

    /// GTFS wheelchair_accessible of a trip (0 no information, 1 accessible, 2 not).
    public mutating func setWheelchair(trip: TripIndex, _ value: UInt8) { tripWheelchair[Int(trip.raw)] = value }

    public mutating func setParent(of stop: StopIndex, to parent: StopIndex) { stopParent[Int(stop.raw)] = parent.raw }

    public mutating func addRoute(id: String, shortName: String, longName: String, type: Int32, agency: UInt32,
                                  color: String, textColor: String) -> RouteIndex {
        routeID.append(id); routeShortName.append(shortName); routeLongName.append(longName)
        routeType.append(type); routeAgency.append(agency); routeColor.append(color); routeTextColor.append(textColor)
        return RouteIndex(raw: UInt32(routeID.count - 1))
    }

    public mutating func addService(id: String) -> UInt32 {
        serviceID.append(id); services.append(ServiceRule())
        return UInt32(serviceID.count - 1)
    }

    /// `weekdays`: bit 0 Monday … bit 6 Sunday.
    public mutating func setWeekly(service: UInt32, weekdays: UInt8, start: ServiceDate, end: ServiceDate) {
        services[Int(service)].weekdays = weekdays
        services[Int(service)].start = start.dayNumber
        services[Int(service)].end = end.dayNumber
    }

    public mutating func addException(service: UInt32, date: ServiceDate, added: Bool) {
        if added { services[Int(service)].added.append(date.dayNumber) } else { services[Int(service)].removed.append(date.dayNumber) }
    }

    public mutating func addShape(id: String) -> UInt32 {
        shapeID.append(id)
        return UInt32(shapeID.count - 1)
    }

    /// `shape` is the index `addShape(id:)` returned.
    public mutating func setShape(of trip: TripIndex, to shape: UInt32) { tripShape[Int(trip.raw)] = shape }

    /// `service` is the index `addService(id:)` returned.
    /// `headsign`, `shortName` and `block` are strings from `intern`.
    public mutating func addTrip(id: String, route: RouteIndex, service: UInt32, headsign: UInt32, shortName: UInt32,
                                 direction: UInt8, block: UInt32, file: UInt16? = nil, line: Int = 0) -> TripIndex {
        tripShape.append(Timetable.none)
        tripSource.append((file ?? fileIndex("trips.txt"), UInt32(clamping: line)))
        tripID.append(id); tripRoute.append(route.raw); tripService.append(service)
        tripHeadsign.append(headsign); tripShortName.append(shortName)
        tripDirection.append(direction); tripBlock.append(block); tripWheelchair.append(0)
        return TripIndex(raw: UInt32(tripID.count - 1))
    }

    public mutating func addFrequency(trip: TripIndex, start: Int32, end: Int32, headway: Int32, exactTimes: Bool) {
        frequencies.append((trip, start, end, headway, exactTimes ? 1 : 0))
    }

    /// The index of a file name in `files`, added if new.
    public mutating func fileIndex(_ name: String) -> UInt16 {
        if let i = files.firstIndex(of: name) { return UInt16(i) }
        files.append(name)
        return UInt16(files.count - 1)
    }

    public var stopCount: Int { stopID.count }
    public var tripCount: Int { tripID.count }
}
