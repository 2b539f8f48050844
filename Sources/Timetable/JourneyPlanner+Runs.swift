import OnwardCore

/// Finding the run of a route to catch at a stop, with live times where the
/// overlay has them: cancelled runs and skipped calls are passed over. These read
/// `timetable` in place: a local copy of it (a large struct of arrays) in each call
/// cost a copy and a retain per array, the largest cost of a query.
extension JourneyPlanner {
    /// A run of a route: a trip on a service day (with its shift, for a frequency-based trip).
    struct Run {
        var instance: TripInstance
        /// Where its live data sits in the overlay, or -1; for a trip realtime data added, -2 less its place in the
        /// overlay's `added` (kept in this field so that a label stays 32 bytes: the search fills thousands per query).
        var slot: Int32
        /// Where the trip's running times start in `arrivals` and `departures`, and what is added to them to give the
        /// run's instants (its service day's base, the trip's start and any frequency shift).
        var times: Int32
        var base: Int64

        /// A run of the trip realtime data added at `place` in the overlay's `added` (`instance`, `times` and `base` then mean nothing).
        static func added(_ place: Int, serviceDay: Int32) -> Run {
            Run(instance: TripInstance(trip: TripIndex(raw: Timetable.none), serviceDay: serviceDay), slot: -2 - Int32(place), times: 0, base: 0)
        }

        /// The place in the overlay's `added` of the trip it runs, or -1 for a trip of the timetable.
        var added: Int32 { slot <= -2 ? -2 - slot : -1 }
    }

    /// The service days a search looks at: `first` and the days after it, up to `last`. A route's
    /// days are a mask over them (bit i for `first + i`), worked out once per search.
    struct SearchDays {
        var first: Int32
        var last: Int32
        static let maxCount: Int32 = 15

        /// Whether `day` is one of a route's days (`mask`, from `routeDays`).
        @inline(__always) func has(_ day: Int32, in mask: UInt16) -> Bool { mask >> UInt16(day - first) & 1 == 1 }
    }

    /// The earliest service day whose runs may still be running at `t` (its day number, allowing a
    /// day either side for the time zone: `t` is counted in UTC days).
    func earliestServiceDay(runningAt t: Int64) -> Int32 {
        Int32(clamping: (t - Int64(timetable.maxTime)) / 86_400 - 1)
    }

    /// The days a search whose departures lie between `t0` and `t1` may catch runs on: from the
    /// earliest day whose runs may still be leaving at `t0` to the day after `t1` and a day's travel.
    func searchDays(from t0: Int64, to t1: Int64) -> SearchDays {
        let first = max(earliestServiceDay(runningAt: t0), timetable.firstDay)
        let last = min(Int32(clamping: t1 / 86_400 + 2), first + SearchDays.maxCount - 1, timetable.firstDay + timetable.dayCount - 1)
        return SearchDays(first: first, last: last)
    }

    /// The days of `days` on which route `r` runs (its service) and has a run that has not left
    /// before `t0` (allowing for the largest delay): bit i for day `days.first + i`.
    func routeDays(_ r: Int, _ days: SearchDays, from t0: Int64, overlay: RealtimeOverlay) -> UInt16 {
        guard days.first <= days.last else { return 0 }
        let route = index.routes[r], zone = route.zone, service = route.service, lastDeparture = route.lastDeparture
        let late = overlay.liveSlot.isEmpty ? 0 : overlay.maxDelay
        var mask: UInt16 = 0
        for day in days.first...days.last {
            if service != Timetable.none && !timetable.isActive(service: service, day: day) { continue }
            if lastDeparture != Int32.max && timetable.base(zone: zone, day: day) + Int64(lastDeparture) + late < t0 { continue }
            mask |= 1 << UInt16(day - days.first)
        }
        return mask
    }

    /// The run of `route` that leaves call `k` earliest at or after `t`, or nil, among the runs of
    /// the days in `mask` (from `routeDays`); with its trip's place in `routeTrips` (-1 for a frequency-based route).
    func earliestRun(route r: Int, call k: Int, after t: Int64, overlay: RealtimeOverlay, wheelchair: Bool = false,
                     days: SearchDays, mask: UInt16) -> (run: Run, departure: Int64, position: Int)? {
        // Indices into `routeTrips`, not a slice of it: a slice retains the array, once per call.
        let route = index.routes[r]
        let tripsStart = Int(route.tripsStart), tripsEnd = Int(route.tripsEnd)
        let zone = route.zone
        let live = !overlay.liveSlot.isEmpty
        guard mask != 0, let catchable = catchableDays(after: t, days) else { return nil }
        // No one may board any of the route's runs where its pattern says so: the route's rule, read once (read through
        // each run's trip, it was a fifth of this function's time on the national network, in cache misses).
        guard timetable.patternFlags[Int(route.callStart) + k] & 3 != BoardingRule.none.rawValue else { return nil }
        var best: (run: Run, departure: Int64, position: Int)?
        if route.isFrequency {
            // A frequency-based route is one trip's runs.
            let first = index.routeTrips[tripsStart]
            if wheelchair && timetable.tripWheelchair[Int(first)] != 1 { return nil }
            for day in catchable where days.has(day, in: mask) {
                if let found = earliestFrequencyRun(trip: first, day: day, call: k, after: t, overlay: overlay),
                   best == nil || found.departure < best!.departure { best = (found.run, found.departure, -1) }
            }
            return best
        }
        let late = live ? overlay.maxDelay : 0, early = live ? overlay.maxEarly : 0
        // The earliest any run of the route leaves call k, as a time of day: a later day whose
        // first run leaves after the best found so far need not be searched.
        // The route's departures from call k, one per run in order: the times its trips share plus each one's start, or
        // its own column of times; either way side by side in memory.
        let (shared, column) = departureColumn(route, call: k)
        let firstAtCall = routeDeparture(tripsStart, shared: shared, column: column)
        let checkEachTrip = route.service == Timetable.none
        for day in catchable where days.has(day, in: mask) {
            let base = timetable.base(zone: zone, day: day)
            if let b = best, base + firstAtCall - early >= b.departure { break }
            let earliestTime = t - base - late
            if earliestTime > Int64(timetable.maxTime) { continue }
            // The route's runs leave every call in the same order: binary search for the first that can be caught.
            var lo = tripsStart, hi = tripsEnd
            while lo < hi {
                let mid = (lo + hi) / 2
                if routeDeparture(mid, shared: shared, column: column) < earliestTime { lo = mid + 1 } else { hi = mid }
            }
            for j in lo..<tripsEnd {
                let trip = index.routeTrips[j]
                let scheduled = base + routeDeparture(j, shared: shared, column: column)
                if let b = best, scheduled - early >= b.departure { break }
                if checkEachTrip && !timetable.isActive(service: timetable.tripService[Int(trip)], day: day) { continue }
                if wheelchair && timetable.tripWheelchair[Int(trip)] != 1 { continue }
                let instance = TripInstance(trip: TripIndex(raw: trip), serviceDay: day)
                let slot = live ? overlay.slot(of: instance) : -1
                guard let departure = departure(of: instance, slot: slot, call: k, scheduled: scheduled, overlay: overlay),
                      departure >= t else { continue }
                if best == nil || departure < best!.departure {
                    best = (Run(instance: instance, slot: slot, times: Int32(timetable.tripTimes[Int(trip)]), base: base + Int64(index.routeTripShift[j])), departure, j)
                }
                if !live { break }
            }
        }
        return best
    }

    /// `earliestRun` for a call where the run ridden (`riding`, at `position` in `routeTrips`) leaves at or after `t`, by
    /// the timetable: the answer is it or an earlier run of its day, found by stepping back from it (most often one step,
    /// where a binary search takes a dozen: the scan asks at half the calls it passes). Nil when it cannot tell cheaply
    /// (live times, which may reorder runs; another day whose runs may leave between `t` and the answer): then `earliestRun`.
    func earliestRun(route r: Int, call k: Int, after t: Int64, before riding: Run, position: Int, overlay: RealtimeOverlay, wheelchair: Bool,
                     days: SearchDays, mask: UInt16) -> (run: Run, departure: Int64, position: Int)? {
        guard overlay.liveSlot.isEmpty, position >= 0, riding.slot == -1 else { return nil }
        let day = riding.instance.serviceDay
        guard let catchable = catchableDays(after: t, days), catchable.contains(day), days.has(day, in: mask) else { return nil }
        let route = index.routes[r]
        let tripsStart = Int(route.tripsStart), tripsEnd = Int(route.tripsEnd)
        let (shared, column) = departureColumn(route, call: k)
        let dayBase = riding.base - Int64(index.routeTripShift[position])
        let checkEachTrip = route.service == Timetable.none
        // The route's runs leave every call in the same order: the earliest to catch is the first one still caught (none
        // where no one may board, as `departure(of:)` says: the run ridden is kept).
        let boards = timetable.patternFlags[Int(route.callStart) + k] & 3 != BoardingRule.none.rawValue
        var best = position, j = position - 1
        while boards, j >= tripsStart, dayBase + routeDeparture(j, shared: shared, column: column) >= t {
            let trip = Int(index.routeTrips[j])
            if (!checkEachTrip || timetable.isActive(service: timetable.tripService[trip], day: day)) && (!wheelchair || timetable.tripWheelchair[trip] == 1) {
                best = j
            }
            j -= 1
        }
        let departure = dayBase + routeDeparture(best, shared: shared, column: column)
        // Another day's runs all leave call k before `t` (an earlier day) or no earlier than the answer (a later one).
        let zone = route.zone
        let firstAtCall = routeDeparture(tripsStart, shared: shared, column: column), lastAtCall = routeDeparture(tripsEnd - 1, shared: shared, column: column)
        for other in catchable where other != day && days.has(other, in: mask) {
            let base = timetable.base(zone: zone, day: other)
            if other < day ? base + lastAtCall >= t : base + firstAtCall < departure { return nil }
        }
        if best == position { return (riding, departure, position) }
        let trip = index.routeTrips[best]
        let run = Run(instance: TripInstance(trip: TripIndex(raw: trip), serviceDay: day), slot: -1, times: Int32(timetable.tripTimes[Int(trip)]),
                      base: dayBase + Int64(index.routeTripShift[best]))
        return (run, departure, best)
    }

    /// The service days of `days` whose runs can still be leaving at `t`; a run is never caught more than a day ahead.
    @inline(__always)
    private func catchableDays(after t: Int64, _ days: SearchDays) -> ClosedRange<Int32>? {
        let low = max(earliestServiceDay(runningAt: t), days.first), high = min(Int32(clamping: t / 86_400 + 1), days.last)
        return low <= high ? low...high : nil
    }

    /// Where a route's departures from call `k` are read (`routeDeparture`).
    @inline(__always)
    private func departureColumn(_ route: PlannerIndex.Route, call k: Int) -> (shared: Bool, column: Int) {
        let shared = route.timesStart == PlannerIndex.sharedTimes
        return (shared, shared ? k : Int(route.timesStart) + k * Int(route.tripsEnd - route.tripsStart) - Int(route.tripsStart))
    }

    /// The departure of the `j`th trip of `routeTrips` from a call of its route, in seconds of its service day: its
    /// start plus its running times' there (`column` is the call) where the route's trips share them, else from the
    /// route's column of times (`column` is where the call's column starts, less the route's first trip).
    @inline(__always)
    private func routeDeparture(_ j: Int, shared: Bool, column: Int) -> Int64 {
        shared ? Int64(index.routeTripShift[j]) + Int64(timetable.departures[Int(index.routeTripTimes[j]) + column]) : Int64(index.routeDepartures[column + j])
    }

    /// A frequency-based trip's first run on `day` leaving call `k` at or after `t`.
    private func earliestFrequencyRun(trip: UInt32, day: Int32, call k: Int, after t: Int64,
                                      overlay: RealtimeOverlay) -> (run: Run, departure: Int64)? {
        let base = timetable.base(zone: timetable.tripZone[Int(trip)], day: day)
        let times = Int(timetable.tripTimes[Int(trip)]), own = Int64(timetable.tripShift[Int(trip)])
        let templateStart = Int64(timetable.departures[times]) + own, atCall = Int64(timetable.departures[times + k]) + own
        let live = !overlay.liveSlot.isEmpty
        let late = live ? overlay.maxDelay : 0
        var best: (run: Run, departure: Int64)?
        for f in timetable.tripFrequencies[Int(trip)] {
            let start = Int64(timetable.frequencyStart[Int(f)]), end = Int64(timetable.frequencyEnd[Int(f)]), headway = Int64(max(timetable.frequencyHeadway[Int(f)], 1))
            // The first run start whose call k is scheduled at or after t (less the largest delay).
            let wanted = t - late - base - atCall + templateStart
            var runStart = start + max(0, (wanted - start + headway - 1) / headway) * headway
            while runStart < end {
                let shift = runStart - templateStart
                let scheduled = base + atCall + shift
                if let b = best, scheduled - (live ? overlay.maxEarly : 0) >= b.departure { break }
                let instance = TripInstance(trip: TripIndex(raw: trip), serviceDay: day, shift: Int32(shift))
                let slot = live ? overlay.slot(of: instance) : -1
                if let departure = departure(of: instance, slot: slot, call: k, scheduled: scheduled, overlay: overlay), departure >= t {
                    if best == nil || departure < best!.departure { best = (Run(instance: instance, slot: slot, times: Int32(times), base: base + shift + own), departure) }
                    if !live { break }
                }
                runStart += headway
            }
        }
        return best
    }

    /// When a run leaves call `k`: nil when it is cancelled or the call is skipped (whether anyone may board there at all
    /// is its route's rule, which `earliestRun` reads first).
    func departure(of instance: TripInstance, slot: Int32, call k: Int, scheduled: Int64, overlay: RealtimeOverlay) -> Int64? {
        guard slot >= 0 else { return scheduled }
        let live = overlay.liveValues[Int(slot)]
        guard live.status == .running, live.callStatus[k] != .skipped else { return nil }
        return overlay.expectedTime(slot: slot, call: k, departure: true) ?? scheduled
    }

    /// When a run reaches call `k`: nil when no one may alight there or the call is skipped.
    /// `pattern` is where the run's pattern starts in `patternFlags`.
    func arrival(of run: Run, call k: Int, pattern: Int, overlay: RealtimeOverlay) -> Int64? {
        guard (timetable.patternFlags[pattern + k] >> 2) & 3 != BoardingRule.none.rawValue else { return nil }
        let scheduled = run.base + Int64(timetable.arrivals[Int(run.times) + k])
        guard run.slot >= 0 else { return scheduled }
        guard overlay.liveValues[Int(run.slot)].callStatus[k] != .skipped else { return nil }
        return overlay.expectedTime(slot: run.slot, call: k, departure: false) ?? scheduled
    }

    /// The run's departure from call `k` as it stands (for comparing it with another run).
    func currentDeparture(of run: Run, call k: Int, overlay: RealtimeOverlay) -> Int64 {
        let scheduled = run.base + Int64(timetable.departures[Int(run.times) + k])
        guard run.slot >= 0 else { return scheduled }
        return overlay.expectedTime(slot: run.slot, call: k, departure: true) ?? scheduled
    }
}

extension Timetable {
    /// Whether the feed says a stop can be used in a wheelchair: its own wheelchair_boarding,
    /// or, with no information of its own, its station's.
    func isWheelchairAccessible(_ stop: UInt32) -> Bool {
        let own = stopWheelchair[Int(stop)]
        if own != 0 { return own == 1 }
        let parent = stopParent[Int(stop)]
        return parent != Timetable.none && stopWheelchair[Int(parent)] == 1
    }
}
