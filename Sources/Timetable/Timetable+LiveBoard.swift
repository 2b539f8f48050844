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
        // The same query as the static board, plus the calls scheduled before `from`
        // that are running late enough to be still to come. A row leaves the board
        // only by running early (expected before `from`); if that leaves it short,
        // the query is repeated with room to spare, which is rare.
        let windowEnd = request.window.map { request.from.epochSeconds + Int64($0) } ?? Int64.max
        let stops = boardStops(request.stop)
        let late = lateRows(request, stops: stops, overlay: overlay)
        let moved = movedRows(request, stops: stops, overlay: overlay)
        let checkMoves = !overlay.movedDepartures.isEmpty || !overlay.movedArrivals.isEmpty
        var spare = 0
        var ranked: [(effective: Int64, row: BoardRow, slot: Int32)] = []
        func rank(_ rows: [BoardRow]) {
            for row in rows {
                let slot = overlay.slot(of: TripInstance(trip: row.trip, serviceDay: row.serviceDay, shift: row.shift))
                // A call moved to a platform this board does not cover is on that platform's board instead.
                if checkMoves, slot >= 0, let moved = overlay.liveValues[Int(slot)].assignedStop[Int(row.position)], !stops.contains(moved.raw) { continue }
                let effective = overlay.expectedTime(slot: slot, call: Int(row.position), departure: departuresBoard) ?? row.instant
                if effective >= request.from.epochSeconds && effective <= windowEnd { ranked.append((effective, row, slot)) }
            }
        }
        while true {
            var ahead = request
            if let w = request.window { ahead.window = w + Int(min(overlay.maxEarly, 1800)) }
            if let l = request.limit { ahead.limit = l + spare }
            let rows = boardRows(ahead, stops: stops)
            ranked.removeAll(keepingCapacity: true)
            rank(rows)
            if !late.isEmpty { rank(late) }
            if !moved.isEmpty { rank(moved) }
            guard let l = request.limit, rows.count == l + spare, ranked.count < l, spare < 200 else { break }
            spare = max(spare * 2, 10)
        }
        ranked.sort { ($0.effective, $0.row.instant, $0.row.trip.raw) < ($1.effective, $1.row.instant, $1.row.trip.raw) }
        let limit = request.limit ?? (request.window == nil ? 20 : Int.max)
        var entries: [BoardEntry] = []
        entries.reserveCapacity(min(limit, ranked.count))
        for r in ranked.prefix(limit) {
            // Built in place: appending a finished entry copied all its strings.
            entries.append(entry(for: r.row, kind: request.kind))
            if r.slot < 0 {
                entries[entries.count - 1].status = .noLiveData
            } else {
                applyLive(overlay, slot: Int(r.slot), to: &entries[entries.count - 1], call: Int(r.row.position), trip: r.row.trip,
                          departures: departuresBoard, now: now)
            }
            let status = entries[entries.count - 1].status
            if status != .cancelled && status != .skipped && status != .departed {
                entries[entries.count - 1].occupancy = overlay.occupancy(of: TripInstance(trip: r.row.trip, serviceDay: r.row.serviceDay, shift: r.row.shift),
                                                                         call: Int(r.row.position), departing: departuresBoard)
            }
        }
        // Added trips after the last row of a full board cannot make it.
        let lastTime = entries.count == limit ? (entries.last.map { ($0.expected ?? $0.scheduled).epochSeconds } ?? windowEnd) : windowEnd
        let added = addedEntries(request, stops: stops, overlay: overlay, now: now, from: request.from.epochSeconds, to: min(windowEnd, lastTime))
        if !added.isEmpty {
            entries += added
            entries.sort { (($0.expected ?? $0.scheduled), $0.scheduled, $0.tripID) < (($1.expected ?? $1.scheduled), $1.scheduled, $1.tripID) }
            if entries.count > limit { entries.removeSubrange(limit...) }
        }
        return entries
    }

    /// Rows for calls scheduled before the board starts whose expected time is at or after it.
    func lateRows(_ request: BoardRequest, stops: [UInt32], overlay: RealtimeOverlay) -> [BoardRow] {
        let departuresBoard = request.kind == .departures
        let index = departuresBoard ? overlay.lateDepartures : overlay.lateArrivals
        guard !index.isEmpty else { return [] }
        let from = request.from.epochSeconds
        let via = request.via.map(boardStops) ?? []
        var rows: [BoardRow] = []
        for s in stops {
            let calls = index.at(StopIndex(raw: s))
            guard !calls.isEmpty else { continue }
            // Sorted by scheduled time: only those scheduled in [from - maxDelay, from) can qualify.
            func firstScheduled(atOrAfter t: Int64) -> Int {
                var lo = calls.startIndex, hi = calls.endIndex
                while lo < hi { let mid = (lo + hi) / 2; if calls[mid].scheduled < t { lo = mid + 1 } else { hi = mid } }
                return lo
            }
            for c in calls[firstScheduled(atOrAfter: from - overlay.maxDelay)..<firstScheduled(atOrAfter: from)] where c.expected >= from {
                if let row = row(for: c, via: via, arrivalsBoard: !departuresBoard) { rows.append(row) }
            }
        }
        return rows
    }

    /// Rows for calls moved onto this board's stops from a stop it does not cover
    /// (a platform change), scheduled from `from` on; earlier ones are late rows.
    func movedRows(_ request: BoardRequest, stops: [UInt32], overlay: RealtimeOverlay) -> [BoardRow] {
        let departuresBoard = request.kind == .departures
        let index = departuresBoard ? overlay.movedDepartures : overlay.movedArrivals
        guard !index.isEmpty else { return [] }
        let via = request.via.map(boardStops) ?? []
        var rows: [BoardRow] = []
        for s in stops {
            for c in index.at(StopIndex(raw: s)) where c.scheduled >= request.from.epochSeconds && !stops.contains(patternStopAt(trip: c.instance.trip, call: Int(c.call)).raw) {
                if let row = row(for: c, via: via, arrivalsBoard: !departuresBoard) { rows.append(row) }
            }
        }
        return rows
    }

    /// A board row for a call from the late or moved index, or nil when it does not reach `via`.
    private func row(for c: LateCall, via: [UInt32], arrivalsBoard: Bool) -> BoardRow? {
        var viaPosition: Int32 = -1
        if !via.isEmpty {
            viaPosition = findVia(trip: c.instance.trip.raw, position: Int(c.call), arrivalsBoard: arrivalsBoard, via: via)
            if viaPosition < 0 { return nil }
        }
        return BoardRow(instant: c.scheduled, trip: c.instance.trip, position: c.call, serviceDay: c.instance.serviceDay,
                        shift: c.instance.shift, frequency: frequencyBlock(of: c.instance), viaPosition: viaPosition)
    }

    /// The frequency block a run belongs to, or -1 for a scheduled trip.
    func frequencyBlock(of key: TripInstance) -> Int32 {
        let start = scheduledDeparture(trip: Int(key.trip.raw), call: 0) + key.shift
        for f in tripFrequencies[Int(key.trip.raw)] where start >= frequencyStart[Int(f)] && start < frequencyEnd[Int(f)] { return Int32(f) }
        return -1
    }

    /// Sets expected time, delay and status on a board entry from a trip's live data.
    /// Reads the overlay's entry in place (`slot`): copying a `TripLive` per row cost more than the rest of the live work.
    func applyLive(_ overlay: RealtimeOverlay, slot: Int, to e: inout BoardEntry, call k: Int, trip: TripIndex, departures: Bool, now: Instant) {
        applyLive(overlay.liveValues[slot], to: &e, call: k, trip: trip, departures: departures, now: now)
    }

    @inline(__always)
    private func applyLive(_ live: borrowing TripLive, to e: inout BoardEntry, call k: Int, trip: TripIndex, departures: Bool, now: Instant) {
        if live.status == .cancelled { e.status = .cancelled; return }
        if let moved = live.assignedStop[k].map({ Int($0.raw) }) {
            e.stopID = stopID[moved]
            e.platform = stopPlatform[moved].isEmpty ? nil : stopPlatform[moved]
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
            if let j = callIndex(of: trip, stop: s, from: k + 1) ?? callIndex(of: trip, stop: s) {
                let t = departures ? live.arrival[j] : live.departure[j]
                if t != TripLive.unknown { e.destinationArrival = Instant(epochSeconds: t) } else { e.destinationArrival = arrival }
            }
        }
    }

    /// Rows for trips the realtime feed added, at the board's stops.
    func addedEntries(_ request: BoardRequest, stops: [UInt32], overlay: RealtimeOverlay, now: Instant, from: Int64, to: Int64) -> [BoardEntry] {
        guard !overlay.addedStops.isEmpty, stops.contains(where: overlay.addedStops.contains) else { return [] }
        var result: [BoardEntry] = []
        for s in stops where overlay.addedStops.contains(s) {
            for trip in overlay.added {
                for k in trip.calls.indices where trip.calls[k].stop.raw == s {
                let departures = request.kind == .departures
                // Same rules as the timetable: no departure from the last call, no arrival at the first.
                if departures ? k == trip.calls.count - 1 : k == 0 { continue }
                let call = trip.calls[k]
                let time = departures ? call.departure : call.arrival
                guard time >= from && time <= to else { continue }
                let route = trip.route.map { Int($0.raw) }
                var e = BoardEntry(tripID: trip.id, routeID: route.map { routeID[$0] } ?? "",
                                   routeShortName: route.map { routeShortName[$0] } ?? "", routeLongName: route.map { routeLongName[$0] } ?? "",
                                   routeColor: route.flatMap { routeColor[$0].isEmpty ? nil : routeColor[$0] }, headsign: trip.headsign,
                                   stopID: stopID[Int(call.stop.raw)], stopName: stopName[Int(call.stop.raw)],
                                   platform: stopPlatform[Int(call.stop.raw)].isEmpty ? nil : stopPlatform[Int(call.stop.raw)],
                                   serviceDate: ServiceDate(dayNumber: trip.serviceDay), scheduled: Instant(epochSeconds: time),
                                   timeZone: zoneIDs[Int(stopZone[Int(call.stop.raw)])], origin: stopName[Int(trip.calls[0].stop.raw)])
                e.expected = e.scheduled
                e.delaySeconds = 0
                e.isAddedTrip = true
                e.status = call.skipped ? .skipped : (time < now.epochSeconds ? .departed : .onTime)
                if let via = request.via.map(boardStops) {
                    let later = departures ? Array(trip.calls[(k + 1)...]) : Array(trip.calls[..<k])
                    guard let v = (departures ? later.first { via.contains($0.stop.raw) } : later.last { via.contains($0.stop.raw) }) else { continue }
                    e.destinationArrival = Instant(epochSeconds: departures ? v.arrival : v.departure)
                    e.destinationStopID = stopID[Int(v.stop.raw)]
                }
                result.append(e)
                }
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
        let shift = Int32(details.calls.first.map { $0.scheduledDeparture.epochSeconds - base(zone: tripZone[t], day: date.dayNumber) } ?? 0)
            - scheduledDeparture(trip: t, call: 0)
        let key = TripInstance(trip: trip, serviceDay: date.dayNumber, shift: shift)
        details.vehicle = overlay.vehicles[key]
        let live = overlay.live(key)
        details.isCancelled = live?.status == .cancelled
        for k in details.calls.indices {
            var call = details.calls[k]
            guard let live else { call.status = .noLiveData; details.calls[k] = call; continue }
            if live.status == .cancelled { call.status = .cancelled; details.calls[k] = call; continue }
            if let moved = live.assignedStop[k].map({ Int($0.raw) }) {
                call.stopID = stopID[moved]
                call.platform = stopPlatform[moved].isEmpty ? nil : stopPlatform[moved]
                call.platformChanged = true
            }
            if let level = overlay.forecastOccupancy(of: key, call: k) { call.occupancy = Occupancy(level: level, percentage: nil, basis: .forecastAtStop) }
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
