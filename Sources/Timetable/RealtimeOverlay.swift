import OnwardCore

/// One run of a trip: the trip, its service day, and for a frequency-based
/// trip the shift of this run from the template's times.
public struct TripInstance: Hashable, Sendable {
    public let trip: TripIndex
    public let serviceDay: Int32
    public let shift: Int32

    public init(trip: TripIndex, serviceDay: Int32, shift: Int32 = 0) {
        self.trip = trip; self.serviceDay = serviceDay; self.shift = shift
    }
}

/// Realtime data for one trip instance, one entry per call of its pattern.
public struct TripLive: Sendable, Hashable {
    public enum Status: UInt8, Sendable, Hashable { case running, cancelled }
    public enum CallStatus: UInt8, Sendable, Hashable { case scheduled, skipped, noData }

    /// Marks an unknown expected time.
    public static let unknown = Int64.min

    public var status: Status
    /// Expected instants (epoch seconds) per call, or `unknown`.
    public var arrival: [Int64]
    public var departure: [Int64]
    public var callStatus: [CallStatus]
    /// The stop a call was moved to (assigned_stop_id), or `nil` where unchanged.
    public var assignedStop: [StopIndex?]
    public var timestamp: Instant?
    /// The first call the updates speak of. Producers drop calls already served,
    /// so calls before it have been passed.
    public var firstUpdatedCall = 0
    public var vehicleID: String?
    public var vehicleLabel: String?
    /// How full the vehicle is expected to be leaving each call (`departure_occupancy_status`), or nil where the feed
    /// says nothing; empty when it says nothing of any call (most feeds).
    public var departureOccupancy: [Occupancy.Level?] = []
    /// The calls a stop time update spoke of (with a time, or as skipped), as against those whose times were carried
    /// from another: what delay history records. Empty when none did.
    public var reported: [Bool] = []

    public init(status: Status, calls: Int) {
        self.status = status
        arrival = Array(repeating: TripLive.unknown, count: calls)
        departure = Array(repeating: TripLive.unknown, count: calls)
        callStatus = Array(repeating: .scheduled, count: calls)
        assignedStop = Array(repeating: nil, count: calls)
    }
}

extension TripLive {
    /// Notes that a stop time update spoke of call `k`.
    public mutating func markReported(_ k: Int) {
        if reported.isEmpty { reported = Array(repeating: false, count: callStatus.count) }
        reported[k] = true
    }
}

/// A trip that realtime data added (ADDED or NEW): it has no static pattern,
/// so its calls are carried here.
public struct AddedTrip: Sendable, Hashable {
    public struct Call: Sendable, Hashable {
        public var stop: StopIndex
        public var arrival: Int64
        public var departure: Int64
        public var skipped: Bool

        public init(stop: StopIndex, arrival: Int64, departure: Int64, skipped: Bool) {
            self.stop = stop; self.arrival = arrival; self.departure = departure; self.skipped = skipped
        }
    }

    public var id: String
    public var route: RouteIndex?
    public var headsign: String
    public var serviceDay: Int32
    public var calls: [Call]

    public init(id: String, route: RouteIndex?, headsign: String, serviceDay: Int32, calls: [Call]) {
        self.id = id; self.route = route; self.headsign = headsign; self.serviceDay = serviceDay; self.calls = calls
    }
}

/// Realtime data laid over a `Timetable`: it points into the timetable by
/// index and never changes it. Built whole from each fetch and swapped
/// atomically, so a reader never sees half an update.
public struct RealtimeOverlay: Sendable {
    public var trips: [TripInstance: TripLive] = [:]
    public var added: [AddedTrip] = []
    /// Stops that added trips call at, so a board skips the search everywhere else.
    var addedStops: Set<UInt32> = []
    public var vehicles: [TripInstance: VehicleInfo] = [:]
    /// When the trip-updates feed says it was made.
    public var tripUpdatesTimestamp: Instant?
    public var vehiclesTimestamp: Instant?
    /// Late departures and arrivals, grouped by stop (`lateStart[stop]..<lateStart[stop+1]`), sorted by scheduled time.
    public var lateDepartures = LateCalls()
    public var lateArrivals = LateCalls()
    /// Calls moved to another platform (assigned_stop_id), grouped by the stop they now use,
    /// so the new platform's board lists them.
    public var movedDepartures = LateCalls()
    public var movedArrivals = LateCalls()
    /// Dense lookup built by `reindex`: the first live entry of each trip, chained through `liveNext`.
    /// Boards read it for every row, so it is an array read rather than a hash.
    var liveSlot: [Int32] = []
    var liveKeys: [TripInstance] = []
    var liveValues: [TripLive] = []
    var liveNext: [Int32] = []
    /// The largest delay in the data.
    public var maxDelay: Int64 = 0
    /// The largest lead (trains running early), so a board can look ahead far enough.
    public var maxEarly: Int64 = 0
    /// Set for the demonstration source, so every view can say so.
    public var isSimulated = false

    public init() {}

    public static let empty = RealtimeOverlay()

    /// Whether the trip-update data is older than `maxAge` at `now` (it is then shown as last known).
    public func isStale(now: Instant, maxAge: Int64 = 120) -> Bool {
        guard let t = tripUpdatesTimestamp else { return false }
        return now.epochSeconds - t.epochSeconds > maxAge
    }

    /// Rebuilds the indices (added-trip stops, late calls, dense trip lookup, largest delay and lead)
    /// after `trips` or `added` changed. The appliers call it; queries read only what it builds.
    public mutating func reindex(timetable: Timetable) {
        addedStops = Set(added.flatMap { $0.calls.map(\.stop.raw) })
        let indices = timetable.lateCalls(trips)
        (lateDepartures, lateArrivals, maxDelay, maxEarly) = (indices.departures, indices.arrivals, indices.maxDelay, indices.maxEarly)
        (movedDepartures, movedArrivals) = (indices.movedDepartures, indices.movedArrivals)
        liveSlot = Array(repeating: -1, count: timetable.tripCount)
        liveKeys = []; liveValues = []; liveNext = []
        liveKeys.reserveCapacity(trips.count); liveValues.reserveCapacity(trips.count); liveNext.reserveCapacity(trips.count)
        for (key, live) in trips where Int(key.trip.raw) < liveSlot.count {
            liveNext.append(liveSlot[Int(key.trip.raw)])
            liveSlot[Int(key.trip.raw)] = Int32(liveKeys.count)
            liveKeys.append(key)
            liveValues.append(live)
        }
    }

    /// The live data of one trip instance (after `reindex`).
    public func live(_ key: TripInstance) -> TripLive? {
        let s = slot(of: key)
        return s < 0 ? nil : liveValues[Int(s)]
    }

    /// Where a trip instance's live data sits, or -1: lets hot loops read fields in place without copying it.
    @inline(__always)
    func slot(of key: TripInstance) -> Int32 {
        guard Int(key.trip.raw) < liveSlot.count else { return -1 }
        var slot = liveSlot[Int(key.trip.raw)]
        while slot >= 0 {
            if liveKeys[Int(slot)] == key { return slot }
            slot = liveNext[Int(slot)]
        }
        return -1
    }

    /// The expected time of a call from the live data in `slot`, if it is running, served and known.
    @inline(__always)
    func expectedTime(slot: Int32, call k: Int, departure: Bool) -> Int64? {
        guard slot >= 0, liveValues[Int(slot)].status == .running, liveValues[Int(slot)].callStatus[k] == .scheduled else { return nil }
        let t = departure ? liveValues[Int(slot)].departure[k] : liveValues[Int(slot)].arrival[k]
        return t == TripLive.unknown ? nil : t
    }
}

extension Timetable {
    /// Trip instances whose scheduled run overlaps `[from, to]`, for simulations and vehicle views.
    public func instances(between from: Instant, and to: Instant) -> [TripInstance] {
        guard dayCount > 0 else { return [] }
        var result: [TripInstance] = []
        let firstCandidate = max(Int32((from.epochSeconds - Int64(maxTime)) / 86_400) - 1, firstDay)
        let lastCandidate = min(Int32(to.epochSeconds / 86_400) + 1, firstDay + dayCount - 1)
        guard firstCandidate <= lastCandidate else { return [] }
        for t in 0..<tripID.count where tripPattern[t] != Timetable.none {
            let trip = TripIndex(raw: UInt32(t))
            let n = callCount(of: trip)
            for d in firstCandidate...lastCandidate where isActive(service: tripService[t], day: d) {
                let runs: [Int32] = isFrequencyBased(trip)
                    ? tripFrequencies[t].flatMap { f in
                        stride(from: frequencyStart[Int(f)], to: frequencyEnd[Int(f)], by: Int(max(frequencyHeadway[Int(f)], 60))).map { $0 - scheduledDeparture(trip: t, call: 0) }
                    }
                    : [0]
                for shift in runs {
                    let key = TripInstance(trip: trip, serviceDay: d, shift: shift)
                    if scheduledArrival(key, n - 1) >= from.epochSeconds && scheduledDeparture(key, 0) <= to.epochSeconds { result.append(key) }
                }
            }
        }
        return result
    }

    /// The stop of a call and its coordinates.
    public func callPlace(_ key: TripInstance, _ k: Int) -> (stop: StopIndex, latitude: Double, longitude: Double) {
        let s = patternStopAt(trip: key.trip, call: k)
        return (s, stopLat[Int(s.raw)], stopLon[Int(s.raw)])
    }

    /// The GTFS stop_sequence of a call (a number from the feed, not an index).
    public func stopSequence(trip: TripIndex, call k: Int) -> UInt32 { patternSequence[patternRange(tripPattern[Int(trip.raw)]).lowerBound + k] }
}

extension Timetable {
    /// The template's first departure (seconds of the service day); a frequency run adds its shift.
    public func firstDepartureTime(of trip: TripIndex) -> Int32 { scheduledDeparture(trip: Int(trip.raw), call: 0) }
}
