import OnwardCore

// How the realtime appliers and the planner read a trip's calls and times, and
// find stops and trips by the IDs realtime feeds use.

/// A trip instance's scheduled instants, read once per trip: the realtime
/// applier reads two per stop time update, and going back to the timetable
/// for each (zone, day base, times offset) was a tenth of its time.
public struct TripSchedule {
    /// The instance's day base plus its start (its running times are shared: `Timetable.arrivals`) and frequency shift.
    public let base: Int64
    public let arrivals: ArraySlice<Int32>
    public let departures: ArraySlice<Int32>

    @inlinable public func arrival(_ k: Int) -> Int64 { base + Int64(arrivals[arrivals.startIndex + k]) }
    @inlinable public func departure(_ k: Int) -> Int64 { base + Int64(departures[departures.startIndex + k]) }
}

extension Timetable {
    /// The scheduled instants of every call of a trip instance.
    public func schedule(of key: TripInstance) -> TripSchedule {
        let first = Int(tripTimes[Int(key.trip.raw)]), calls = callCount(of: key.trip)
        return TripSchedule(base: base(zone: tripZone[Int(key.trip.raw)], day: key.serviceDay) + Int64(key.shift) + Int64(tripShift[Int(key.trip.raw)]),
                            arrivals: arrivals[first..<first + calls], departures: departures[first..<first + calls])
    }

    /// The scheduled departure instant of call `k` of a trip instance.
    public func scheduledDeparture(_ key: TripInstance, _ k: Int) -> Int64 {
        base(zone: tripZone[Int(key.trip.raw)], day: key.serviceDay) + Int64(scheduledDeparture(trip: Int(key.trip.raw), call: k) + key.shift)
    }

    public func scheduledArrival(_ key: TripInstance, _ k: Int) -> Int64 {
        base(zone: tripZone[Int(key.trip.raw)], day: key.serviceDay) + Int64(scheduledArrival(trip: Int(key.trip.raw), call: k) + key.shift)
    }

    /// How many calls the trip has (0 for a trip skipped at import).
    public func callCount(of trip: TripIndex) -> Int {
        let p = tripPattern[Int(trip.raw)]
        return p == Timetable.none ? 0 : patternRange(p).count
    }

    /// The position of a call by stop_sequence, searching from `from` first (so a loop's second visit is found).
    public func callIndex(of trip: TripIndex, sequence: UInt32, from: Int = 0) -> Int? {
        let r = patternRange(tripPattern[Int(trip.raw)])
        for k in max(from, 0)..<r.count where patternSequence[r.lowerBound + k] == sequence { return k }
        for k in 0..<min(max(from, 0), r.count) where patternSequence[r.lowerBound + k] == sequence { return k }
        return nil
    }

    /// The position of a call by stop (or a stop of the same station), searching forward from `from`.
    public func callIndex(of trip: TripIndex, stop: StopIndex, from: Int = 0) -> Int? {
        let r = patternRange(tripPattern[Int(trip.raw)])
        for k in max(from, 0)..<r.count where patternStop[r.lowerBound + k] == stop.raw { return k }
        return nil
    }

    /// The service day on which a trip runs nearest to `reference`, among the days around it.
    /// Used when a realtime feed gives no start_date.
    public func nearestServiceDay(of trip: TripIndex, shift: Int32 = 0, around reference: Instant) -> Int32? {
        let t = Int(trip.raw)
        guard tripPattern[t] != Timetable.none else { return nil }
        let first = Int64(scheduledDeparture(trip: t, call: 0) + shift)
        let guessDay = Int32(reference.epochSeconds / 86_400)
        var best: (Int64, Int32)?
        for d in (guessDay - 2)...(guessDay + 1) where d >= firstDay && d < firstDay + dayCount && isActive(service: tripService[t], day: d) {
            let distance = abs(base(zone: tripZone[t], day: d) + first - reference.epochSeconds)
            if best == nil || distance < best!.0 { best = (distance, d) }
        }
        // A run more than 12 hours away is not the one the feed means (a holiday's
        // trips are not running, so yesterday's or tomorrow's must not be taken instead).
        guard let best, best.0 <= 12 * 3600 else { return nil }
        return best.1
    }

    /// The frequency-based run shift for a GTFS start_time, or nil if the trip has no run starting then.
    public func frequencyShift(of trip: TripIndex, startTime: Int32) -> Int32? {
        let blocks = tripFrequencies[Int(trip.raw)]
        guard !blocks.isEmpty else { return nil }
        let templateStart = scheduledDeparture(trip: Int(trip.raw), call: 0)
        for f in blocks where startTime >= frequencyStart[Int(f)] && startTime < frequencyEnd[Int(f)] {
            return startTime - templateStart
        }
        return nil
    }

    public func isFrequencyBased(_ trip: TripIndex) -> Bool { !tripFrequencies[Int(trip.raw)].isEmpty }

    public func stopIDString(_ stop: StopIndex) -> String { stopID[Int(stop.raw)] }
    /// Whether a stop's ID is `prefix` followed by `id`, compared as bytes without
    /// building the joined string: the realtime applier asks it for every stop
    /// time update, and String's generic comparisons made it a tenth of the apply time.
    public func stopID(of stop: StopIndex, is id: String, prefix: String) -> Bool {
        // The first feed's IDs have no prefix: String's own equality then starts by comparing the
        // two strings' bits, which for the short IDs feeds use is the whole comparison.
        if prefix.isEmpty { return stopID[Int(stop.raw)] == id }
        let own = stopID[Int(stop.raw)].utf8, head = prefix.utf8, tail = id.utf8
        guard own.count == head.count + tail.count else { return false }
        // The local part first: it is where IDs differ.
        let fast = own.withContiguousStorageIfAvailable { o in
            tail.withContiguousStorageIfAvailable { t in
                head.withContiguousStorageIfAvailable { h in
                    Timetable.bytes(o.baseAddress! + h.count, equal: t) && Timetable.bytes(o.baseAddress!, equal: h)
                }
            }
        }
        if let fast = fast, let fast, let fast { return fast }
        return own.elementsEqual(Array(head) + Array(tail))
    }
    /// An inline loop: IDs are a few dozen bytes, too short for a call to `memcmp` to pay.
    @inline(__always)
    private static func bytes(_ a: UnsafePointer<UInt8>, equal b: UnsafeBufferPointer<UInt8>) -> Bool {
        for i in 0..<b.count where a[i] != b[i] { return false }
        return true
    }
    public func stopNameString(_ stop: StopIndex) -> String { stopName[Int(stop.raw)] }
    public func patternStopAt(trip: TripIndex, call k: Int) -> StopIndex {
        StopIndex(raw: patternStop[patternRange(tripPattern[Int(trip.raw)]).lowerBound + k])
    }
}
