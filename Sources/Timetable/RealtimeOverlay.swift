import OnwardCore

/// One run of a trip: the trip, its service day, and for a frequency-based
/// trip the shift of this run from the template's times.
public struct TripInstance: Hashable, Sendable {
    public let trip: UInt32
    public let serviceDay: Int32
    public let shift: Int32

    public init(trip: UInt32, serviceDay: Int32, shift: Int32 = 0) {
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
    public var assignedStop: [UInt32?]
    public var timestamp: Instant?
    /// The first call the updates speak of. Producers drop calls already served,
    /// so calls before it have been passed.
    public var firstUpdatedCall = 0
    public var vehicleID: String?
    public var vehicleLabel: String?

    public init(status: Status, calls: Int) {
        self.status = status
        arrival = Array(repeating: TripLive.unknown, count: calls)
        departure = Array(repeating: TripLive.unknown, count: calls)
        callStatus = Array(repeating: .scheduled, count: calls)
        assignedStop = Array(repeating: nil, count: calls)
    }
}

/// A trip that realtime data added (ADDED or NEW): it has no static pattern,
/// so its calls are carried here.
public struct AddedTrip: Sendable, Hashable {
    public struct Call: Sendable, Hashable {
        public var stop: UInt32
        public var arrival: Int64
        public var departure: Int64
        public var skipped: Bool

        public init(stop: UInt32, arrival: Int64, departure: Int64, skipped: Bool) {
            self.stop = stop; self.arrival = arrival; self.departure = departure; self.skipped = skipped
        }
    }

    public var id: String
    public var route: UInt32?
    public var headsign: String
    public var serviceDay: Int32
    public var calls: [Call]

    public init(id: String, route: UInt32?, headsign: String, serviceDay: Int32, calls: [Call]) {
        self.id = id; self.route = route; self.headsign = headsign; self.serviceDay = serviceDay; self.calls = calls
    }
}

/// A call running late, indexed by stop so a board finds the services
/// scheduled before it starts that are still to come.
public struct LateCall: Sendable, Hashable {
    public var scheduled: Int64
    public var expected: Int64
    public var instance: TripInstance
    public var call: UInt16
}

/// Late calls grouped by stop in one flat array.
public struct LateCalls: Sendable {
    var start: [UInt32] = []
    var calls: [LateCall] = []

    /// The late calls at a stop, sorted by scheduled time.
    public func at(_ stop: UInt32) -> ArraySlice<LateCall> {
        guard Int(stop) + 1 < start.count else { return [] }
        return calls[Int(start[Int(stop)])..<Int(start[Int(stop) + 1])]
    }

    public var isEmpty: Bool { calls.isEmpty }

    init() {}

    /// Groups by stop with a counting sort, then sorts each stop's few calls by
    /// time: a general sort of all of them took most of the time of `reindex`.
    init(stopCount: Int, _ unsorted: [(stop: UInt32, call: LateCall)]) {
        guard !unsorted.isEmpty else { return }
        var start = [UInt32](repeating: 0, count: stopCount + 1)
        for item in unsorted { start[Int(item.stop) + 1] += 1 }
        for i in 0..<stopCount { start[i + 1] += start[i] }
        var next = start
        var calls = [LateCall](unsafeUninitializedCapacity: unsorted.count) { buffer, count in
            for item in unsorted {
                (buffer.baseAddress! + Int(next[Int(item.stop)])).initialize(to: item.call)
                next[Int(item.stop)] += 1
            }
            count = unsorted.count
        }
        for i in 0..<stopCount where start[i + 1] - start[i] > 1 {
            calls[Int(start[i])..<Int(start[i + 1])].sort { $0.scheduled < $1.scheduled }
        }
        self.start = start
        self.calls = calls
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
        addedStops = Set(added.flatMap { $0.calls.map(\.stop) })
        let indices = timetable.lateCalls(trips)
        (lateDepartures, lateArrivals, maxDelay, maxEarly) = (indices.departures, indices.arrivals, indices.maxDelay, indices.maxEarly)
        (movedDepartures, movedArrivals) = (indices.movedDepartures, indices.movedArrivals)
        liveSlot = Array(repeating: -1, count: timetable.tripCount)
        liveKeys = []; liveValues = []; liveNext = []
        liveKeys.reserveCapacity(trips.count); liveValues.reserveCapacity(trips.count); liveNext.reserveCapacity(trips.count)
        for (key, live) in trips where Int(key.trip) < liveSlot.count {
            liveNext.append(liveSlot[Int(key.trip)])
            liveSlot[Int(key.trip)] = Int32(liveKeys.count)
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
        guard Int(key.trip) < liveSlot.count else { return -1 }
        var slot = liveSlot[Int(key.trip)]
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
            let n = callCount(of: UInt32(t))
            for d in firstCandidate...lastCandidate where isActive(service: tripService[t], day: d) {
                let runs: [Int32] = isFrequencyBased(UInt32(t))
                    ? tripFrequencies[t].flatMap { f in
                        stride(from: frequencyStart[Int(f)], to: frequencyEnd[Int(f)], by: Int(max(frequencyHeadway[Int(f)], 60))).map { $0 - departures[Int(tripTimes[t])] }
                    }
                    : [0]
                for shift in runs {
                    let key = TripInstance(trip: UInt32(t), serviceDay: d, shift: shift)
                    if scheduledArrival(key, n - 1) >= from.epochSeconds && scheduledDeparture(key, 0) <= to.epochSeconds { result.append(key) }
                }
            }
        }
        return result
    }

    /// The stop of a call and its coordinates.
    public func callPlace(_ key: TripInstance, _ k: Int) -> (stop: UInt32, latitude: Double, longitude: Double) {
        let s = patternStopAt(trip: key.trip, call: k)
        return (s, stopLat[Int(s)], stopLon[Int(s)])
    }

    public func stopSequence(trip: UInt32, call k: Int) -> UInt32 { patternSequence[patternRange(tripPattern[Int(trip)]).lowerBound + k] }
}

extension Timetable {
    /// The template's first departure (seconds of the service day); a frequency run adds its shift.
    public func firstDepartureTime(of trip: UInt32) -> Int32 { departures[Int(tripTimes[Int(trip)])] }
}

extension Timetable {
    /// Indexes the calls running late, and those moved to another platform, by
    /// stop (with the same boarding rules as the static event indices), and
    /// finds the largest delay and lead.
    func lateCalls(_ trips: [TripInstance: TripLive]) -> (departures: LateCalls, arrivals: LateCalls, maxDelay: Int64, maxEarly: Int64,
                                                          movedDepartures: LateCalls, movedArrivals: LateCalls) {
        var lateDepartures: [(stop: UInt32, call: LateCall)] = [], lateArrivals: [(stop: UInt32, call: LateCall)] = []
        var movedDepartures: [(stop: UInt32, call: LateCall)] = [], movedArrivals: [(stop: UInt32, call: LateCall)] = []
        var late: Int64 = 0, early: Int64 = 0
        // Nearly every call of a live trip runs late or early: room for all of them saves regrowing.
        let calls = trips.values.reduce(0) { $0 + $1.arrival.count }
        lateDepartures.reserveCapacity(calls); lateArrivals.reserveCapacity(calls)
        for (key, live) in trips where live.status == .running {
            let p = patternRange(tripPattern[Int(key.trip)])
            let dayBase = base(zone: tripZone[Int(key.trip)], day: key.serviceDay) + Int64(key.shift)
            let first = Int(tripTimes[Int(key.trip)])
            for k in 0..<p.count where live.callStatus[k] == .scheduled {
                let flags = patternFlags[p.lowerBound + k]
                let moved = live.assignedStop[k]
                let stop = moved ?? patternStop[p.lowerBound + k]
                let departs = k < p.count - 1 && flags & 3 != 1, arrives = k > 0 && (flags >> 2) & 3 != 1
                let scheduledDeparture = dayBase + Int64(departures[first + k]), scheduledArrival = dayBase + Int64(arrivals[first + k])
                if live.departure[k] != TripLive.unknown {
                    let delay = live.departure[k] - scheduledDeparture
                    late = max(late, delay); early = max(early, -delay)
                    if delay > 0 && departs {
                        lateDepartures.append((stop, LateCall(scheduled: scheduledDeparture, expected: live.departure[k], instance: key, call: UInt16(k))))
                    }
                }
                if live.arrival[k] != TripLive.unknown {
                    let delay = live.arrival[k] - scheduledArrival
                    late = max(late, delay); early = max(early, -delay)
                    if delay > 0 && arrives {
                        lateArrivals.append((stop, LateCall(scheduled: scheduledArrival, expected: live.arrival[k], instance: key, call: UInt16(k))))
                    }
                }
                if let moved {
                    let expectedDeparture = live.departure[k] == TripLive.unknown ? scheduledDeparture : live.departure[k]
                    let expectedArrival = live.arrival[k] == TripLive.unknown ? scheduledArrival : live.arrival[k]
                    if departs { movedDepartures.append((moved, LateCall(scheduled: scheduledDeparture, expected: expectedDeparture, instance: key, call: UInt16(k)))) }
                    if arrives { movedArrivals.append((moved, LateCall(scheduled: scheduledArrival, expected: expectedArrival, instance: key, call: UInt16(k)))) }
                }
            }
        }
        return (LateCalls(stopCount: stopCount, lateDepartures), LateCalls(stopCount: stopCount, lateArrivals), late, early,
                LateCalls(stopCount: stopCount, movedDepartures), LateCalls(stopCount: stopCount, movedArrivals))
    }
}
