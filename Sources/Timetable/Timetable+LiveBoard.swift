import OnwardCore

extension Timetable {
    /// Looking back further than this for late services is not worth the time.
    static let maxLookback: Int64 = 3 * 3600

    /// A board with live data: expected times and a status per row, the
    /// scheduled time kept beside it. A late service scheduled before `from`
    /// but expected after it is shown; cancelled and skipped calls are shown,
    /// not hidden; rows are ordered by the time they will actually happen.
    public func liveBoard(_ request: BoardRequest, overlay: RealtimeOverlay, now: Instant) -> [BoardEntry] {
        let departuresBoard = request.kind == .departures
        // Two queries: services scheduled before `from` that may still be to come
        // (as late as the latest delay in the data), and the board itself, a little
        // wider so that early or reordered services are not cut off.
        let lookback = min(overlay.maxDelay, Timetable.maxLookback)
        var late = request
        late.from = request.from.adding(seconds: -lookback)
        late.window = Int(lookback)
        late.limit = nil
        var ahead = request
        if let w = request.window { ahead.window = w + Int(min(overlay.maxEarly, 1800)) }
        if let l = request.limit { ahead.limit = l * 2 + 10 }
        if request.window == nil && request.limit == nil { ahead.limit = 50 }
        var rows = lookback > 0 ? boardRows(late) : []
        var seen = Set(rows.map { TripInstance(trip: $0.trip, serviceDay: $0.serviceDay, shift: $0.shift) })
        for row in boardRows(ahead) where seen.insert(TripInstance(trip: row.trip, serviceDay: row.serviceDay, shift: row.shift)).inserted {
            rows.append(row)
        }

        var entries: [BoardEntry] = []
        for row in rows {
            var e = entry(for: row, kind: request.kind)
            let key = TripInstance(trip: row.trip, serviceDay: row.serviceDay, shift: row.shift)
            applyLive(overlay.trips[key], to: &e, call: Int(row.position), key: key, departures: departuresBoard, now: now)
            entries.append(e)
        }
        entries += addedEntries(request, overlay: overlay, now: now)

        let windowEnd = request.window.map { request.from.epochSeconds + Int64($0) } ?? Int64.max
        entries = entries.filter {
            let t = ($0.expected ?? $0.scheduled).epochSeconds
            return t >= request.from.epochSeconds && t <= windowEnd
        }
        entries.sort { (($0.expected ?? $0.scheduled), $0.scheduled, $0.tripID) < (($1.expected ?? $1.scheduled), $1.scheduled, $1.tripID) }
        let limit = request.limit ?? (request.window == nil ? 20 : Int.max)
        if entries.count > limit { entries.removeSubrange(limit...) }
        return entries
    }

    /// Sets expected time, delay and status on a board entry from a trip's live data.
    func applyLive(_ live: TripLive?, to e: inout BoardEntry, call k: Int, key: TripInstance, departures: Bool, now: Instant) {
        guard let live else { e.status = .noLiveData; return }
        if live.status == .cancelled { e.status = .cancelled; return }
        if let moved = live.assignedStop[k] {
            e.stopID = stopID[Int(moved)]
            e.platform = stopPlatform[Int(moved)].isEmpty ? nil : stopPlatform[Int(moved)]
            e.platformChanged = true
        }
        switch live.callStatus[k] {
        case .skipped: e.status = .skipped; return
        case .noData: e.status = .noLiveData; return
        case .scheduled: break
        }
        let expected = departures ? live.departure[k] : live.arrival[k]
        guard expected != TripLive.unknown else { e.status = k < live.firstUpdatedCall ? .departed : .noLiveData; return }
        e.expected = Instant(epochSeconds: expected)
        let delay = Int(expected - e.scheduled.epochSeconds)
        e.delaySeconds = delay
        e.status = expected < now.epochSeconds ? .departed : LiveStatus.forDelay(delay)
        if let arrival = e.destinationArrival, let via = e.destinationStopID, let s = stop(id: via) {
            // Move the arrival at the destination by that call's own live time.
            if let j = callIndex(of: key.trip, stop: s.raw, from: k + 1) ?? callIndex(of: key.trip, stop: s.raw) {
                let t = departures ? live.arrival[j] : live.departure[j]
                if t != TripLive.unknown { e.destinationArrival = Instant(epochSeconds: t) } else { e.destinationArrival = arrival }
            }
        }
    }

    /// Rows for trips the realtime feed added, at the board's stops.
    func addedEntries(_ request: BoardRequest, overlay: RealtimeOverlay, now: Instant) -> [BoardEntry] {
        guard !overlay.added.isEmpty else { return [] }
        var result: [BoardEntry] = []
        for s in boardStops(request.stop) {
            for (t, k) in overlay.addedByStop[s] ?? [] {
                let trip = overlay.added[t]
                let departures = request.kind == .departures
                // Same rules as the timetable: no departure from the last call, no arrival at the first.
                if departures ? k == trip.calls.count - 1 : k == 0 { continue }
                let call = trip.calls[k]
                let time = departures ? call.departure : call.arrival
                let route = trip.route.map(Int.init)
                var e = BoardEntry(tripID: trip.id, routeID: route.map { routeID[$0] } ?? "",
                                   routeShortName: route.map { routeShortName[$0] } ?? "", routeLongName: route.map { routeLongName[$0] } ?? "",
                                   routeColor: route.flatMap { routeColor[$0].isEmpty ? nil : routeColor[$0] }, headsign: trip.headsign,
                                   stopID: stopID[Int(call.stop)], stopName: stopName[Int(call.stop)],
                                   platform: stopPlatform[Int(call.stop)].isEmpty ? nil : stopPlatform[Int(call.stop)],
                                   serviceDate: ServiceDate(dayNumber: trip.serviceDay), scheduled: Instant(epochSeconds: time),
                                   timeZone: zoneIDs[Int(stopZone[Int(call.stop)])], origin: stopName[Int(trip.calls[0].stop)])
                e.expected = e.scheduled
                e.delaySeconds = 0
                e.isAddedTrip = true
                e.status = call.skipped ? .skipped : (time < now.epochSeconds ? .departed : .onTime)
                if let via = request.via.map(boardStops) {
                    let later = departures ? Array(trip.calls[(k + 1)...]) : Array(trip.calls[..<k])
                    guard let v = (departures ? later.first { via.contains($0.stop) } : later.last { via.contains($0.stop) }) else { continue }
                    e.destinationArrival = Instant(epochSeconds: departures ? v.arrival : v.departure)
                    e.destinationStopID = stopID[Int(v.stop)]
                }
                result.append(e)
            }
        }
        return result
    }

    /// Service details with live data: expected times and status per call, the
    /// vehicle's position, and whether the whole service is cancelled.
    public func liveService(_ trip: TripIndex, on date: ServiceDate, startTime: Int32? = nil, overlay: RealtimeOverlay,
                            now: Instant) throws(ServiceLookupError) -> ServiceDetails {
        var details = try service(trip, on: date, startTime: startTime)
        let t = Int(trip.raw)
        let first = Int(tripTimes[t])
        let shift = Int32(details.calls.first.map { $0.scheduledDeparture.epochSeconds - base(zone: tripZone[t], day: date.dayNumber) } ?? 0) - departures[first]
        let key = TripInstance(trip: trip.raw, serviceDay: date.dayNumber, shift: shift)
        details.vehicle = overlay.vehicles[key]
        let live = overlay.trips[key]
        details.isCancelled = live?.status == .cancelled
        for k in details.calls.indices {
            var call = details.calls[k]
            guard let live else { call.status = .noLiveData; details.calls[k] = call; continue }
            if live.status == .cancelled { call.status = .cancelled; details.calls[k] = call; continue }
            if let moved = live.assignedStop[k] {
                call.stopID = stopID[Int(moved)]
                call.platform = stopPlatform[Int(moved)].isEmpty ? nil : stopPlatform[Int(moved)]
                call.platformChanged = true
            }
            switch live.callStatus[k] {
            case .skipped: call.status = .skipped
            case .noData: call.status = .noLiveData
            case .scheduled:
                if live.arrival[k] != TripLive.unknown { call.expectedArrival = Instant(epochSeconds: live.arrival[k]) }
                if live.departure[k] != TripLive.unknown { call.expectedDeparture = Instant(epochSeconds: live.departure[k]) }
                if let d = call.expectedDeparture ?? call.expectedArrival {
                    let scheduled = call.expectedDeparture != nil ? call.scheduledDeparture : call.scheduledArrival
                    let delay = Int(d.epochSeconds - scheduled.epochSeconds)
                    call.delaySeconds = delay
                    call.status = d.epochSeconds < now.epochSeconds ? .departed : LiveStatus.forDelay(delay)
                } else {
                    call.status = k < live.firstUpdatedCall ? .departed : .noLiveData
                }
            }
            details.calls[k] = call
        }
        return details
    }
}
