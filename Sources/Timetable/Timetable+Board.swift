import OnwardCore

/// What a board should show.
public struct BoardRequest: Sendable {
    public enum Kind: Sendable { case departures, arrivals }

    public var kind: Kind
    public var stop: StopIndex
    public var from: Instant
    /// Only events within this many seconds of `from`.
    public var window: Int?
    /// At most this many rows. With neither a window nor a limit, 20 rows.
    public var limit: Int?
    /// Departures: only services that later call at this stop (or station), with their arrival there.
    /// Arrivals: only services that earlier called there, with their departure from there.
    public var via: StopIndex?

    public init(kind: Kind = .departures, stop: StopIndex, from: Instant, window: Int? = nil, limit: Int? = nil, via: StopIndex? = nil) {
        self.kind = kind; self.stop = stop; self.from = from; self.window = window; self.limit = limit; self.via = via
    }
}

/// A board row before it is dressed with names: what the realtime overlay and the API build on.
public struct BoardRow: Sendable, Hashable {
    public var instant: Int64
    public var trip: TripIndex
    public var position: UInt16
    public var serviceDay: Int32
    /// Seconds added to the trip's own times: non-zero for a run of a frequency-based trip.
    public var shift: Int32
    /// Index of the frequency block for a frequency-based run, or -1.
    public var frequency: Int32
    /// Position of the call at the `via` stop, or -1.
    public var viaPosition: Int32
}

extension Timetable {
    /// How far ahead a "next N" board looks before it gives up.
    static let limitHorizonDays: Int32 = 7

    /// The board as dressed rows, in time order.
    public func board(_ request: BoardRequest) -> [BoardEntry] {
        boardRows(request).map { entry(for: $0, kind: request.kind) }
    }

    /// The board's rows in time order: the fast path the benchmark measures.
    public func boardRows(_ request: BoardRequest) -> [BoardRow] {
        boardRows(request, stops: boardStops(request.stop))
    }

    /// The rows of a board at `stops` (the request's stop and, for a station, its platforms).
    func boardRows(_ request: BoardRequest, stops: [UInt32]) -> [BoardRow] {
        guard dayCount > 0 else { return [] }
        let arrivalsBoard = request.kind == .arrivals
        let via = request.via.map(boardStops) ?? []
        let limit = request.limit ?? (request.window == nil ? 20 : Int.max)
        let tLow = request.from.epochSeconds
        let tHigh = request.window.map { tLow + Int64($0) } ?? Int64.max
        let index = arrivalsBoard ? arrivalIndex : departureIndex
        let frequencyIndex = arrivalsBoard ? frequencyArrivalIndex : frequencyDepartureIndex
        let times = arrivalsBoard ? arrivals : departures

        // Earliest service day whose late-night trips can still be running at tLow.
        let earliest = Int32(clamping: (tLow - Int64(maxTime)) / 86_400 - 2)
        let latestForWindow = tHigh == Int64.max ? Int32.max : Int32(clamping: tHigh / 86_400 + 2)
        let latestForLimit = Int32(clamping: tLow / 86_400 + Int64(Timetable.limitHorizonDays))
        let firstDay = max(earliest, self.firstDay)
        let lastDay = min(latestForWindow, latestForLimit, self.firstDay + dayCount - 1)
        guard firstDay <= lastDay else { return [] }

        // The earliest time of day any event happens at these stops, to stop scanning days early.
        var minTimeOfDay = Int32.max
        for s in stops {
            let r = index.range(of: s)
            if !r.isEmpty { minTimeOfDay = min(minTimeOfDay, time(times, trip: index.trip[r.lowerBound], call: index.position[r.lowerBound])) }
            let f = frequencyIndex.range(of: s)
            if !f.isEmpty { minTimeOfDay = 0 }
        }
        if minTimeOfDay == .max { return [] }

        var rows: [BoardRow] = []
        let multiZone = zoneIDs.count > 1
        var day = firstDay
        while day <= lastDay {
            if limit != Int.max, rows.count >= limit {
                rows.sort { ($0.instant, $0.trip.raw) < ($1.instant, $1.trip.raw) }
                rows.removeSubrange(limit...)
                let cutoff = rows[limit - 1].instant
                var earliestNext = Int64.max
                for z in 0..<zoneIDs.count { earliestNext = min(earliestNext, base(zone: UInt16(z), day: day) + Int64(minTimeOfDay)) }
                if earliestNext > cutoff { break }
            }
            for z in 0..<UInt16(zoneIDs.count) {
                let dayBase = base(zone: z, day: day)
                if dayBase + Int64(maxTime) < tLow || dayBase > tHigh { continue }
                for s in stops {
                    scanScheduled(stop: s, index: index, times: times, zone: z, multiZone: multiZone, day: day, dayBase: dayBase,
                                  tLow: tLow, tHigh: tHigh, limit: limit, arrivalsBoard: arrivalsBoard, via: via, into: &rows)
                    scanFrequencies(stop: s, index: frequencyIndex, times: times, zone: z, multiZone: multiZone, day: day,
                                    dayBase: dayBase, tLow: tLow, tHigh: tHigh, limit: limit, arrivalsBoard: arrivalsBoard,
                                    via: via, into: &rows)
                }
            }
            day += 1
        }
        rows.sort { ($0.instant, $0.trip.raw, $0.shift) < ($1.instant, $1.trip.raw, $1.shift) }
        if rows.count > limit { rows.removeSubrange(limit...) }
        return rows
    }

    /// A trip's time at a call from `times` (`arrivals` or `departures`), in seconds of its service day.
    @inline(__always)
    private func time(_ times: [Int32], trip: UInt32, call: UInt16) -> Int32 { times[Int(tripTimes[Int(trip)]) + Int(call)] + tripShift[Int(trip)] }

    private func scanScheduled(stop: UInt32, index: EventIndex, times: [Int32], zone: UInt16, multiZone: Bool, day: Int32,
                               dayBase: Int64, tLow: Int64, tHigh: Int64, limit: Int, arrivalsBoard: Bool, via: [UInt32],
                               into rows: inout [BoardRow]) {
        let range = index.range(of: stop)
        guard !range.isEmpty else { return }
        let lowerTime = tLow - dayBase
        guard lowerTime <= Int64(Int32.max) else { return }
        // First event at or after tLow on this service day.
        var lo = range.lowerBound, hi = range.upperBound
        while lo < hi {
            let mid = (lo + hi) >> 1
            let t = time(times, trip: index.trip[mid], call: index.position[mid])
            if Int64(t) < lowerTime { lo = mid + 1 } else { hi = mid }
        }
        var found = 0
        var i = lo
        while i < range.upperBound, found < limit {
            let trip = index.trip[i]
            let position = index.position[i]
            i += 1
            let instant = dayBase + Int64(time(times, trip: trip, call: position))
            if instant > tHigh { break }
            if multiZone && tripZone[Int(trip)] != zone { continue }
            guard isActive(service: tripService[Int(trip)], day: day) else { continue }
            var viaPosition: Int32 = -1
            if !via.isEmpty {
                viaPosition = findVia(trip: trip, position: Int(position), arrivalsBoard: arrivalsBoard, via: via)
                if viaPosition < 0 { continue }
            }
            rows.append(BoardRow(instant: instant, trip: TripIndex(raw: trip), position: position, serviceDay: day, shift: 0,
                                 frequency: -1, viaPosition: viaPosition))
            found += 1
        }
    }

    private func scanFrequencies(stop: UInt32, index: EventIndex, times: [Int32], zone: UInt16, multiZone: Bool, day: Int32,
                                 dayBase: Int64, tLow: Int64, tHigh: Int64, limit: Int, arrivalsBoard: Bool, via: [UInt32],
                                 into rows: inout [BoardRow]) {
        for i in index.range(of: stop) {
            let trip = index.trip[i]
            if multiZone && tripZone[Int(trip)] != zone { continue }
            guard isActive(service: tripService[Int(trip)], day: day) else { continue }
            let position = index.position[i]
            var viaPosition: Int32 = -1
            if !via.isEmpty {
                viaPosition = findVia(trip: trip, position: Int(position), arrivalsBoard: arrivalsBoard, via: via)
                if viaPosition < 0 { continue }
            }
            let templateStart = scheduledDeparture(trip: Int(trip), call: 0)
            let offsetAtStop = Int64(time(times, trip: trip, call: position) - templateStart)
            for f in tripFrequencies[Int(trip)] {
                let start = Int64(frequencyStart[Int(f)]), end = Int64(frequencyEnd[Int(f)]), headway = Int64(frequencyHeadway[Int(f)])
                guard headway > 0 else { continue }
                let needed = tLow - dayBase - offsetAtStop - start
                var k = needed <= 0 ? 0 : (needed + headway - 1) / headway
                var found = 0
                while found < limit {
                    let runStart = start + k * headway
                    if runStart >= end { break }
                    let instant = dayBase + runStart + offsetAtStop
                    if instant > tHigh { break }
                    rows.append(BoardRow(instant: instant, trip: TripIndex(raw: trip), position: position, serviceDay: day,
                                         shift: Int32(runStart - Int64(templateStart)), frequency: Int32(f), viaPosition: viaPosition))
                    found += 1
                    k += 1
                }
            }
        }
    }

    /// The first later call (departures) or the nearest earlier call (arrivals) at one of `via`
    /// where passengers may alight (or board), or -1.
    func findVia(trip: UInt32, position: Int, arrivalsBoard: Bool, via: [UInt32]) -> Int32 {
        let p = patternRange(tripPattern[Int(trip)])
        if arrivalsBoard {
            var k = p.lowerBound + position - 1
            while k >= p.lowerBound {
                if patternFlags[k] & 3 != 1 && via.contains(patternStop[k]) { return Int32(k - p.lowerBound) }
                k -= 1
            }
        } else {
            var k = p.lowerBound + position + 1
            while k < p.upperBound {
                if (patternFlags[k] >> 2) & 3 != 1 && via.contains(patternStop[k]) { return Int32(k - p.lowerBound) }
                k += 1
            }
        }
        return -1
    }

    /// Dresses a row with the names and IDs a traveller reads.
    public func entry(for row: BoardRow, kind: BoardRequest.Kind) -> BoardEntry {
        let t = Int(row.trip.raw)
        let route = Int(tripRoute[t])
        let p = patternRange(tripPattern[t])
        let stop = Int(patternStop[p.lowerBound + Int(row.position)])
        let dayBase = base(zone: tripZone[t], day: row.serviceDay)
        var entry = BoardEntry(
            tripID: tripID[t], routeID: routeID[route], routeShortName: routeShortName[route],
            routeLongName: routeLongName[route], routeColor: routeColor[route].isEmpty ? nil : routeColor[route],
            headsign: headsign(trip: row.trip.raw, position: Int(row.position)), stopID: stopID[stop], stopName: stopName[stop],
            platform: stopPlatform[stop].isEmpty ? nil : stopPlatform[stop], serviceDate: ServiceDate(dayNumber: row.serviceDay),
            scheduled: Instant(epochSeconds: row.instant), timeZone: zoneIDs[Int(stopZone[stop])],
            origin: stopName[Int(patternStop[p.lowerBound])])
        if row.viaPosition >= 0 {
            let via = Int(row.viaPosition)
            let time = kind == .departures ? scheduledArrival(trip: t, call: via) : scheduledDeparture(trip: t, call: via)
            entry.destinationArrival = Instant(epochSeconds: dayBase + Int64(time) + Int64(row.shift))
            entry.destinationStopID = stopID[Int(patternStop[p.lowerBound + Int(row.viaPosition)])]
        }
        if row.frequency >= 0 {
            entry.headwaySeconds = Int(frequencyHeadway[Int(row.frequency)])
            entry.exactTimes = frequencyExact[Int(row.frequency)] == 1
            entry.startTime = GTFSTime.format(scheduledDeparture(trip: t, call: 0) + row.shift)
        }
        return entry
    }
}
