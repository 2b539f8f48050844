import Foundation
import OnwardCore

/// The immutable, compact in-memory timetable.
///
/// Laid out for the CPU as nigiri does: one array per attribute (struct of
/// arrays), entities addressed by `UInt32` indices, trips with the same stop
/// sequence grouped into patterns, times as `Int32` seconds from the service
/// day's "noon minus 12 hours", service days as bitsets. Built once by
/// `TimetableBuilder`, then only read: it is `Sendable` and can be swapped
/// atomically when a feed is reloaded. Realtime data will be an overlay that
/// points into it by index, never a mutation of it.
///
/// The columns keep their indices as bare `UInt32` (no wrapper in the arrays the
/// board and the planner scan, and none in snapshots); the public API speaks
/// `StopIndex`, `TripIndex` and `RouteIndex`, converted at the boundary.
public struct Timetable: Sendable {
    // MARK: Feeds and time zones
    public internal(set) var feeds: [FeedSummary]
    var zoneIDs: [String]
    /// Rebuilt from `zoneIDs` on load; not stored in snapshots.
    var zones: [TimeZone]

    // MARK: Agencies
    var agencyID: [String]
    var agencyName: [String]
    var agencyZone: [UInt16]

    // MARK: Stops
    var stopID: [String]
    var stopName: [String]
    var stopCode: [String]
    var stopLat: [Double]
    var stopLon: [Double]
    var stopKind: [UInt8]
    /// Parent station index, or `Timetable.none`.
    var stopParent: [UInt32]
    var stopPlatform: [String]
    /// GTFS wheelchair_boarding: 0 no information (a platform inherits its station's), 1 accessible, 2 not.
    var stopWheelchair: [UInt8]
    /// The time zone the stop shows its times in (stop_timezone, else its station's, else its agency's).
    var stopZone: [UInt16]
    /// Stop name folded for search (lower case, no accents).
    var stopFoldedName: [String]
    /// Stop indices ordered by ID, for binary-search lookup without a hash table to build on load.
    var stopOrder: [UInt32]
    /// Child stops of each station.
    var stationChildren: Jagged

    // MARK: Routes
    var routeID: [String]
    var routeShortName: [String]
    var routeLongName: [String]
    var routeType: [Int32]
    var routeAgency: [UInt32]
    var routeColor: [String]
    var routeTextColor: [String]

    // MARK: Trips
    var tripID: [String]
    var tripRoute: [UInt32]
    var tripService: [UInt32]
    /// Index into `strings`.
    var tripHeadsign: [UInt32]
    var tripShortName: [UInt32]
    var tripDirection: [UInt8]
    /// GTFS wheelchair_accessible: 0 no information, 1 accessible, 2 not.
    var tripWheelchair: [UInt8]
    var tripBlock: [UInt32]
    /// Index into the feed's `ShapeTable`, or `Timetable.none`.
    var tripShape: [UInt32]
    var tripPattern: [UInt32]
    /// Offset of the trip's running times in `arrivals` / `departures`: trips of one pattern that run with the same
    /// times from their start share them (`TimetableBuilder`), and `tripShift` says when each starts.
    var tripTimes: [UInt32]
    /// Added to the trip's shared running times to give its own (seconds of its service day).
    var tripShift: [Int32]
    /// The time zone the trip's times count in (its agency's).
    var tripZone: [UInt16]
    var tripOrder: [UInt32]
    /// Frequencies of each trip (indices into the `frequency*` arrays).
    var tripFrequencies: Jagged

    // MARK: Frequencies
    var frequencyStart: [Int32]
    var frequencyEnd: [Int32]
    var frequencyHeadway: [Int32]
    var frequencyExact: [UInt8]

    // MARK: Patterns (shared stop sequences)
    var patternStart: [UInt32]
    var patternStop: [UInt32]
    /// Bits 0–1 pick-up rule, 2–3 drop-off rule, 4 set when the time is a timepoint.
    var patternFlags: [UInt8]
    var patternSequence: [UInt32]
    /// stop_headsign, index into `strings` (0 = none).
    var patternHeadsign: [UInt32]

    // MARK: Running times, shared by the trips of a pattern that run alike
    /// Seconds after the trip's start (`tripShift`): a trip's own time at call k is `arrivals[tripTimes[t] + k] + tripShift[t]`
    /// (`scheduledArrival`). Real feeds run most trips of a pattern alike: Halifax has one set of times for every 5 trips,
    /// WMATA one for 200, so the times take a fifth of the memory or less.
    var arrivals: [Int32]
    var departures: [Int32]
    /// The stop times the feed's trips have (each trip's calls, whether or not its times are shared).
    public let stopTimeCount: Int

    // MARK: Per-stop event indices, sorted by time of day
    var departureIndex: EventIndex
    var arrivalIndex: EventIndex
    /// Events of frequency-based trips, expanded at query time.
    var frequencyDepartureIndex: EventIndex
    var frequencyArrivalIndex: EventIndex

    // MARK: Transfers (for the journey planner)
    var transfers: TransferTable

    // MARK: Calendar
    var serviceID: [String]
    var firstDay: Int32
    var dayCount: Int32
    var serviceWords: Int32
    var serviceBits: [UInt64]
    /// For each time zone and day: the instant of "noon minus 12 hours", from which GTFS times count.
    var dayBase: [Int64]
    /// The latest stop time in the feed (seconds), to know how many earlier service days can still run.
    var maxTime: Int32

    // MARK: Interned strings
    var strings: [String]

    static let none = UInt32.max

    public var stopCount: Int { stopID.count }
    public var tripCount: Int { tripID.count }
    public var routeCount: Int { routeID.count }
    /// Every stop and every route, in index order: callers walk these rather than make indices from numbers.
    public var allStops: some RandomAccessCollection<StopIndex> { (0..<UInt32(stopCount)).lazy.map(StopIndex.init) }
    public var allRoutes: some RandomAccessCollection<RouteIndex> { (0..<UInt32(routeCount)).lazy.map(RouteIndex.init) }
    public var patternCount: Int { patternStart.count - 1 }

    /// First and last day the calendar covers.
    public var calendarRange: ClosedRange<ServiceDate>? {
        dayCount > 0 ? ServiceDate(dayNumber: firstDay)...ServiceDate(dayNumber: firstDay + dayCount - 1) : nil
    }

    /// Approximate bytes held by the arrays (strings counted by their UTF-8 length).
    public var approximateByteSize: Int { memoryBreakdown.reduce(0) { $0 + $1.bytes } }

    /// Where the timetable's memory goes, by part: what a change to its layout would save.
    public var memoryBreakdown: [(part: String, bytes: Int)] {
        func b<T>(_ a: [T]) -> Int { a.count * MemoryLayout<T>.stride }
        func s(_ a: [String]) -> Int { a.reduce(a.count * 16) { $0 + ($1.utf8.count > 15 ? $1.utf8.count : 0) } }
        return [
            ("stops", s(stopID) + s(stopName) + s(stopCode) + b(stopLat) + b(stopLon) + b(stopKind) + b(stopParent)
                + s(stopPlatform) + b(stopWheelchair) + b(stopZone) + s(stopFoldedName) + b(stopOrder) + stationChildren.byteSize),
            ("routes", s(routeID) + s(routeShortName) + s(routeLongName) + b(routeType) + b(routeAgency) + s(routeColor) + s(routeTextColor)),
            ("trip IDs", s(tripID)),
            ("trips' other columns", b(tripRoute) + b(tripService) + b(tripHeadsign) + b(tripShortName) + b(tripDirection) + b(tripWheelchair)
                + b(tripBlock) + b(tripShape) + b(tripPattern) + b(tripTimes) + b(tripZone) + b(tripOrder) + tripFrequencies.byteSize
                + b(frequencyStart) + b(frequencyEnd) + b(frequencyHeadway) + b(frequencyExact)),
            ("patterns", b(patternStart) + b(patternStop) + b(patternFlags) + b(patternSequence) + b(patternHeadsign)),
            ("arrival and departure times", b(arrivals) + b(departures) + b(tripShift)),
            ("boards' departure index", departureIndex.byteSize + frequencyDepartureIndex.byteSize),
            ("boards' arrival index", arrivalIndex.byteSize + frequencyArrivalIndex.byteSize),
            ("transfers, calendars, strings", transfers.byteSize + s(serviceID) + b(serviceBits) + b(dayBase) + s(strings)),
        ]
    }
}

/// A summary of one loaded feed.
public struct FeedSummary: Sendable, Hashable, Codable {
    /// The feed's source name, from configuration (`--feed NAME=PATH`) or its file's name:
    /// every ID of the feed is canonical, `name:local`, whatever else is loaded.
    public var name: String
    /// `name:`, the prefix of every ID of the feed.
    public var idPrefix: String
    public var publisher: String?
    public var version: String?
    public var startDate: String?
    public var endDate: String?
    public var agencies: [String]

    public init(name: String, idPrefix: String, publisher: String?, version: String?, startDate: String?,
                endDate: String?, agencies: [String]) {
        self.name = name; self.idPrefix = idPrefix; self.publisher = publisher; self.version = version
        self.startDate = startDate; self.endDate = endDate; self.agencies = agencies
    }
}

/// A jagged array: `values[start[i]..<start[i+1]]` belongs to entity `i`.
struct Jagged: Sendable {
    var start: [UInt32]
    var values: [UInt32]

    subscript(i: Int) -> ArraySlice<UInt32> { values[Int(start[i])..<Int(start[i + 1])] }
    var byteSize: Int { (start.count + values.count) * 4 }

    /// Groups `(owner, value)` pairs by owner, keeping the given order within an owner.
    static func grouping(count: Int, pairs: [(UInt32, UInt32)]) -> Jagged {
        var start = [UInt32](repeating: 0, count: count + 1)
        for (o, _) in pairs { start[Int(o) + 1] += 1 }
        for i in 0..<count { start[i + 1] += start[i] }
        var fill = start
        var values = [UInt32](repeating: 0, count: pairs.count)
        for (o, v) in pairs { values[Int(fill[Int(o)])] = v; fill[Int(o)] += 1 }
        return Jagged(start: start, values: values)
    }
}

/// For each stop, the events (trip, position in trip) sorted by time of day.
struct EventIndex: Sendable {
    var start: [UInt32]
    var trip: [UInt32]
    var position: [UInt16]

    var byteSize: Int { start.count * 4 + trip.count * 4 + position.count * 2 }
    func range(of stop: UInt32) -> Range<Int> { Int(start[Int(stop)])..<Int(start[Int(stop) + 1]) }
}

extension Timetable {
    @inline(__always)
    func isActive(service: UInt32, day: Int32) -> Bool {
        let d = day - firstDay
        guard d >= 0, d < dayCount else { return false }
        let word = serviceBits[Int(service) * Int(serviceWords) + Int(d >> 6)]
        return (word >> UInt64(d & 63)) & 1 == 1
    }

    /// The stop times of trips on `tripPattern` (each trip's calls).
    static func stopTimes(_ tripPattern: [UInt32], _ patternStart: [UInt32]) -> Int {
        var n = 0
        for p in tripPattern where p != Timetable.none { n += Int(patternStart[Int(p) + 1]) - Int(patternStart[Int(p)]) }
        return n
    }

    /// When trip `t` reaches and leaves its call `k`, in seconds of its service day (before any frequency shift).
    @inline(__always)
    func scheduledArrival(trip t: Int, call k: Int) -> Int32 { arrivals[Int(tripTimes[t]) + k] + tripShift[t] }
    @inline(__always)
    func scheduledDeparture(trip t: Int, call k: Int) -> Int32 { departures[Int(tripTimes[t]) + k] + tripShift[t] }

    @inline(__always)
    func base(zone: UInt16, day: Int32) -> Int64 {
        dayBase[Int(zone) * Int(dayCount) + Int(day - firstDay)]
    }

    func zone(_ index: UInt16) -> TimeZone { zones[Int(index)] }
    func zoneID(ofStop stop: UInt32) -> String { zoneIDs[Int(stopZone[Int(stop)])] }

    @inline(__always) func pickup(flags: UInt8) -> BoardingRule { BoardingRule(rawValue: flags & 3) ?? .regular }
    @inline(__always) func dropOff(flags: UInt8) -> BoardingRule { BoardingRule(rawValue: (flags >> 2) & 3) ?? .regular }

    func patternRange(_ pattern: UInt32) -> Range<Int> { Int(patternStart[Int(pattern)])..<Int(patternStart[Int(pattern) + 1]) }

    func headsign(trip: UInt32, position: Int) -> String {
        let p = patternRange(tripPattern[Int(trip)])
        let stopHeadsign = patternHeadsign[p.lowerBound + position]
        if stopHeadsign != 0 { return strings[Int(stopHeadsign)] }
        let h = strings[Int(tripHeadsign[Int(trip)])]
        if !h.isEmpty { return h }
        // No headsign in the feed: the last stop's name is what a traveller expects to read.
        return stopName[Int(patternStop[p.upperBound - 1])]
    }
}
