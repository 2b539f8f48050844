import Foundation
import OnwardCore

/// `GET /api/v1/journeys` and `onward plan --json`: journeys from A to B, sorted by departure.
public struct JourneysDTO: Codable, Sendable, Equatable {
    public var from: StopDTO
    public var to: StopDTO
    public var journeys: [JourneyDTO]
    public var live: LiveDTO?
    /// Why there are none, when the source knows.
    public var emptyReason: String?
    public var source: String?
    public var sourceName: String?

    public init(from: StopPlace, to: StopPlace, journeys: [Journey], live: LiveDTO?) {
        self.from = StopDTO(from)
        self.to = StopDTO(to)
        self.journeys = journeys.map(JourneyDTO.init)
        self.live = live
    }
}

public struct JourneyDTO: Codable, Sendable, Equatable {
    /// ISO 8601 in the origin's time zone, with its offset; live where known.
    public var departure: String
    /// ISO 8601 in the destination's time zone, with its offset; live where known.
    public var arrival: String
    /// Whole seconds from departure to arrival.
    public var duration: Int
    public var transfers: Int
    public var legs: [JourneyLegDTO]
    /// Each change's margin, in order (one per change; always sent, absent only from older servers).
    public var changes: [JourneyChangeDTO]?

    public init(_ j: Journey) {
        let first = j.legs.first.map(\.fromStop), last = j.legs.last.map(\.toStop)
        departure = LocalTime(j.departure, in: TimeZone.named(first?.timeZone ?? "UTC")).iso8601
        arrival = LocalTime(j.arrival, in: TimeZone.named(last?.timeZone ?? "UTC")).iso8601
        duration = j.durationSeconds
        transfers = j.transfers
        legs = j.legs.map(JourneyLegDTO.init)
        changes = j.changes.map(JourneyChangeDTO.init)
    }
}

/// How tight a change is: the seconds to spare by the timetable and, when either ride is live, by the live times.
public struct JourneyChangeDTO: Codable, Sendable, Equatable {
    /// Where the arriving ride stops.
    public var stopId: String
    public var stopName: String
    public var walkSeconds: Int
    /// From the arrival to the next departure, by the timetable (the walk is part of it).
    public var marginSeconds: Int
    public var liveMarginSeconds: Int?
    /// How late (negative: early) the arriving ride and the next one are, when live.
    public var arrivingLateSeconds: Int?
    public var leavingLateSeconds: Int?
    /// True where the traveller stays on board (the vehicle goes on as the next trip): no change is made there.
    public var staysSeated: Bool?
    /// How late the arriving ride usually is here at this hour, where there is history enough.
    public var usualArrival: UsualDelayDTO?
    /// True where the history says the change often fails: the arriving ride is usually later than the time to spare
    /// (only while no live time is known).
    public var risky: Bool?
    /// False where the change does not hold four days in five by the history (what `reliable` ranks by).
    public var reliable: Bool?

    public init(_ c: JourneyChange) {
        stopId = c.arrivingAt.stopID; stopName = c.arrivingAt.name; walkSeconds = c.walkSeconds; marginSeconds = c.marginSeconds
        liveMarginSeconds = c.liveMarginSeconds; arrivingLateSeconds = c.arrivingLateSeconds; leavingLateSeconds = c.leavingLateSeconds
        staysSeated = c.staysSeated ? true : nil
        usualArrival = c.usualArrival.map(UsualDelayDTO.init)
        if c.isRisky { risky = true }
        if c.usualArrival != nil { reliable = c.holds(at: 0.8) }
    }

    /// Whether the change can be made (the margin now covers the walk), and whether it is tight (under a minute to spare).
    public var canBeMade: Bool { staysSeated == true || JourneyChange.canBeMade(margin: liveMarginSeconds ?? marginSeconds, walk: walkSeconds) }
    public var isTight: Bool { JourneyChange.isTight(margin: liveMarginSeconds ?? marginSeconds, walk: walkSeconds) }

    /// Whole minutes, rounded down (4 min 30 s is 4 min; −30 s, −1 min).
    public static func minutes(_ seconds: Int) -> Int { seconds >= 0 ? seconds / 60 : -((-seconds + 59) / 60) }

    /// Why the live margin differs from the timetable's, as the pages and the CLI word it: nil when it does not
    /// (or no ride is live).
    public enum Change: Equatable, Sendable {
        /// The arriving ride is this many minutes late, or early.
        case arrivingLate(Int), arrivingEarly(Int)
        /// The next ride is this many minutes late.
        case leavingLate(Int)
        /// Live times differ by less than a minute each.
        case live
    }

    public var change: Change? {
        guard let live = liveMarginSeconds, Self.minutes(live) != Self.minutes(marginSeconds) else { return nil }
        if let late = arrivingLateSeconds, late >= 60 { return .arrivingLate(late / 60) }
        if let late = leavingLateSeconds, late >= 60 { return .leavingLate(late / 60) }
        if let late = arrivingLateSeconds, late <= -60 { return .arrivingEarly(-late / 60) }
        return .live
    }
}

/// A transit leg (`kind: "transit"`) or a walk (`kind: "walk"`, with `duration`).
public struct JourneyLegDTO: Codable, Sendable, Equatable {
    public var kind: String
    public var from: JourneyStopDTO
    public var to: JourneyStopDTO
    /// ISO 8601 local with offset: the timetable's time for a ride, when the walk starts for a walk.
    public var departure: String
    public var arrival: String
    /// Whole seconds (walks; rides give their times).
    public var duration: Int?
    public var tripId: String?
    public var routeId: String?
    public var routeShortName: String?
    public var routeColor: String?
    public var headsign: String?
    /// `YYYY-MM-DD`.
    public var serviceDate: String?
    /// For a frequency-based trip: the run's start time, which names it.
    public var startTime: String?
    public var expectedDeparture: String?
    public var expectedArrival: String?
    /// scheduled, noLiveData, onTime, late, early.
    public var status: String?
    /// The stops a ride passes on the way, in order.
    public var intermediateStops: [JourneyCallDTO]?
    /// True when the traveller stays on board from the ride before (the vehicle goes on as this trip): not a change.
    public var staysSeated: Bool?
    /// True for a trip the realtime feed added (not in the timetable).
    public var added: Bool?
    /// How full the vehicle is where it is boarded, when a live source says.
    public var occupancy: OccupancyDTO?
    /// How late the ride usually arrives where it ends, at that hour, where there is history enough.
    public var usualArrival: UsualDelayDTO?

    public init(_ leg: JourneyLeg) {
        func time(_ i: Instant, _ s: JourneyStop) -> String { LocalTime(i, in: TimeZone.named(s.timeZone)).iso8601 }
        switch leg {
        case .transit(let t):
            kind = "transit"
            from = JourneyStopDTO(t.from); to = JourneyStopDTO(t.to)
            departure = time(t.departure, t.from); arrival = time(t.arrival, t.to)
            tripId = t.tripID; routeId = t.routeID; routeShortName = t.routeShortName; routeColor = t.routeColor
            headsign = t.headsign; serviceDate = t.serviceDate.isoString; startTime = t.startTime.map { GTFSTime.format(Int32($0)) }
            expectedDeparture = t.expectedDeparture.map { time($0, t.from) }
            expectedArrival = t.expectedArrival.map { time($0, t.to) }
            status = t.status.rawValue
            intermediateStops = t.calls.map(JourneyCallDTO.init)
            staysSeated = t.staysSeated; added = t.isAddedTrip
            occupancy = t.occupancy.map(OccupancyDTO.init)
            usualArrival = t.usualArrival.map(UsualDelayDTO.init)
        case .walk(let w):
            kind = "walk"
            from = JourneyStopDTO(w.from); to = JourneyStopDTO(w.to)
            departure = time(w.departure, w.from); arrival = time(leg.arrival, w.to)
            duration = w.seconds
        }
    }
}

public struct JourneyStopDTO: Codable, Sendable, Equatable {
    public var stopId: String
    public var name: String
    public var platform: String?
    public var latitude: Double
    public var longitude: Double

    public init(_ s: JourneyStop) { stopId = s.stopID; name = s.name; platform = s.platform; latitude = s.latitude; longitude = s.longitude }
}

/// A stop a ride passes, with its departure there.
public struct JourneyCallDTO: Codable, Sendable, Equatable {
    public var stopId: String
    public var name: String
    public var departure: String
    public var expectedDeparture: String?

    public init(_ c: JourneyCall) {
        let zone = TimeZone.named(c.stop.timeZone)
        stopId = c.stop.stopID; name = c.stop.name
        departure = LocalTime(c.departure, in: zone).iso8601
        expectedDeparture = c.expectedDeparture.map { LocalTime($0, in: zone).iso8601 }
    }
}
