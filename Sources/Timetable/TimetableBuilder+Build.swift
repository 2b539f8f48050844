import Foundation
import OnwardCore
import Synchronization

extension TimetableBuilder {
    /// Builds the timetable. Throws a `FeedError` for a problem that makes the
    /// feed unusable (a duplicate stop_sequence within a trip); appends a notice
    /// for each trip that is skipped.
    public func build(notices: inout [ImportNotice]) throws -> Timetable {
        let tripCount = tripID.count
        let rows = stopTimes
        let n = rows.count

        // 1. Order rows by trip (counting sort), then by stop_sequence within a trip.
        var tripStart = [UInt32](repeating: 0, count: tripCount + 1)
        for t in rows.trip { tripStart[Int(t.raw) + 1] &+= 1 }
        for i in 0..<tripCount { tripStart[i + 1] &+= tripStart[i] }
        var order = [UInt32](repeating: 0, count: n)
        do {
            var fill = tripStart
            for r in 0..<n {
                let t = Int(rows.trip[r].raw)
                order[Int(fill[t])] = UInt32(r)
                fill[t] &+= 1
            }
        }
        for t in 0..<tripCount {
            let lo = Int(tripStart[t]), hi = Int(tripStart[t + 1])
            guard hi - lo > 1 else { continue }
            var sorted = true
            for k in lo + 1..<hi where rows.sequence[Int(order[k])] <= rows.sequence[Int(order[k - 1])] { sorted = false; break }
            if !sorted {
                order[lo..<hi].sort { rows.sequence[Int($0)] < rows.sequence[Int($1)] }
                for k in lo + 1..<hi where rows.sequence[Int(order[k])] == rows.sequence[Int(order[k - 1])] {
                    let r = Int(order[k])
                    throw FeedError(code: "duplicateKey",
                                    location: SourceLocation(file: files[Int(rows.file[r])], line: Int(rows.line[r]), field: "stop_sequence"),
                                    message: "trip '\(tripID[t])' has stop_sequence \(rows.sequence[r]) twice")
                }
            }
        }

        // 2. Per trip: check, interpolate, find or make its pattern, append its times.
        var patternKey: [PatternKey: UInt32] = [:]
        var patternStart: [UInt32] = [0]
        var patternStop: [UInt32] = [], patternFlags: [UInt8] = [], patternSequence: [UInt32] = [], patternHeadsign: [UInt32] = []
        var tripPattern = [UInt32](repeating: Timetable.none, count: tripCount)
        var tripTimes = [UInt32](repeating: 0, count: tripCount)
        var tripShift = [Int32](repeating: 0, count: tripCount)
        var arrivals: [Int32] = [], departures: [Int32] = []
        // Running times are shared by the trips that run alike (see `Timetable.arrivals`): found by their hash, then compared.
        var sharedTimes: [Int: [UInt32]] = [:]
        var maxTime: Int32 = 0
        var arr: [Int32] = [], dep: [Int32] = []

        for t in 0..<tripCount {
            let lo = Int(tripStart[t]), hi = Int(tripStart[t + 1])
            let count = hi - lo
            func location(_ k: Int, _ field: String? = nil) -> SourceLocation {
                let r = Int(order[k])
                return SourceLocation(file: files[Int(rows.file[r])], line: Int(rows.line[r]), field: field)
            }
            if count == 0 {
                let source = tripSource[t]
                notices.append(ImportNotice(kind: "tripWithoutStopTimes",
                                            location: SourceLocation(file: files[Int(source.file)], line: source.line > 0 ? Int(source.line) : nil, field: "trip_id"),
                                            message: "trip '\(tripID[t])' has no stop times; skipped"))
                continue
            }
            if count > Int(UInt16.max) {
                notices.append(ImportNotice(kind: "tripTooLong", location: location(lo, "trip_id"),
                                            message: "trip '\(tripID[t])' has more than 65,535 stop times; skipped"))
                continue
            }
            if count < 2 {
                notices.append(ImportNotice(kind: "tripTooShort", location: location(lo, "trip_id"),
                                            message: "trip '\(tripID[t])' has only one stop time; skipped"))
                continue
            }
            arr.removeAll(keepingCapacity: true); dep.removeAll(keepingCapacity: true)
            for k in lo..<hi {
                let r = Int(order[k])
                var a = rows.arrival[r], d = rows.departure[r]
                if a < 0 { a = d }
                if d < 0 { d = a }
                arr.append(a); dep.append(d)
            }
            guard arr[0] >= 0, arr[count - 1] >= 0 else {
                notices.append(ImportNotice(kind: "missingEndpointTime", location: location(arr[0] < 0 ? lo : hi - 1, "arrival_time"),
                                            message: "trip '\(tripID[t])' has no time at its first or last stop; skipped"))
                continue
            }
            interpolate(&arr, &dep, rows: rows, order: order[lo..<hi])
            var bad: Int? = nil
            for k in 0..<count {
                if dep[k] < arr[k] || (k > 0 && arr[k] < dep[k - 1]) { bad = k; break }
            }
            if let k = bad {
                notices.append(ImportNotice(kind: "timeTravel", location: location(lo + k, "arrival_time"),
                                            message: "trip '\(tripID[t])' goes back in time at stop_sequence \(rows.sequence[Int(order[lo + k])]); skipped"))
                continue
            }
            var key = PatternKey(stops: [], flags: [], sequences: [], headsigns: [])
            key.stops.reserveCapacity(count)
            for k in lo..<hi {
                let r = Int(order[k])
                key.stops.append(rows.stop[r].raw)
                key.flags.append(rows.flags[r] & 0x1F)
                key.sequences.append(rows.sequence[r])
                key.headsigns.append(rows.headsign[r])
            }
            let pattern: UInt32
            if let p = patternKey[key] {
                pattern = p
            } else {
                pattern = UInt32(patternStart.count - 1)
                patternKey[key] = pattern
                patternStop += key.stops; patternFlags += key.flags
                patternSequence += key.sequences; patternHeadsign += key.headsigns
                patternStart.append(UInt32(patternStop.count))
            }
            tripPattern[t] = pattern
            maxTime = max(maxTime, dep[count - 1], arr[count - 1])
            let shift = arr[0]
            for k in 0..<count { arr[k] -= shift; dep[k] -= shift }
            tripShift[t] = shift
            var hasher = Hasher()
            hasher.combine(count)
            for k in 0..<count { hasher.combine(arr[k]); hasher.combine(dep[k]) }
            let hash = hasher.finalize()
            let same = sharedTimes[hash]?.first { o in
                Int(o) + count <= arrivals.count && (0..<count).allSatisfy { arrivals[Int(o) + $0] == arr[$0] && departures[Int(o) + $0] == dep[$0] }
            }
            if let same {
                tripTimes[t] = same
            } else {
                tripTimes[t] = UInt32(arrivals.count)
                sharedTimes[hash, default: []].append(tripTimes[t])
                arrivals += arr; departures += dep
            }
        }

        // 3. Frequencies: the template trip's times are shifted to each start.
        var freqPairs: [(UInt32, UInt32)] = []
        let sortedFrequencies = frequencies.enumerated().sorted { ($0.element.trip.raw, $0.element.start) < ($1.element.trip.raw, $1.element.start) }
        for (i, f) in sortedFrequencies.enumerated() { freqPairs.append((f.element.trip.raw, UInt32(i))) }
        let tripFrequencies = Jagged.grouping(count: tripCount, pairs: freqPairs)
        let fStart = sortedFrequencies.map(\.element.start), fEnd = sortedFrequencies.map(\.element.end)
        let fHeadway = sortedFrequencies.map(\.element.headway), fExact = sortedFrequencies.map(\.element.exact)
        for (i, f) in sortedFrequencies.enumerated() {
            let t = Int(f.element.trip.raw)
            guard tripPattern[t] != Timetable.none else { continue }
            let span = departures[Int(tripTimes[t]) + Int(patternStart[Int(tripPattern[t]) + 1] - patternStart[Int(tripPattern[t])]) - 1] - departures[Int(tripTimes[t])]
            maxTime = max(maxTime, fEnd[i] + span)
        }

        // 4. Stop zones: own, else the station's, else the feed's agency zone.
        var stopZone = [UInt16](repeating: 0, count: stopID.count)
        for s in 0..<stopID.count {
            if stopOwnZone[s] != UInt16.max { stopZone[s] = stopOwnZone[s]; continue }
            let p = stopParent[s]
            if p != Timetable.none, stopOwnZone[Int(p)] != UInt16.max { stopZone[s] = stopOwnZone[Int(p)]; continue }
            stopZone[s] = stopFeedZone[s]
        }
        let tripZone = tripRoute.map { agencyZone[Int(routeAgency[Int($0)])] }

        // 5. Event indices.
        let isFrequency = (0..<tripCount).map { tripFrequencies.start[$0 + 1] > tripFrequencies.start[$0] }
        let indices = buildEventIndices(tripPattern: tripPattern, tripTimes: tripTimes, tripShift: tripShift, isFrequency: isFrequency,
                                        patternStart: patternStart, patternStop: patternStop, patternFlags: patternFlags,
                                        arrivals: arrivals, departures: departures)

        // 6. Calendar bitsets and the base instant of each service day.
        let calendar = buildCalendar()
        let zones = zoneIDs.map { TimeZone(identifier: $0)! }
        var dayBase = [Int64](repeating: 0, count: zones.count * Int(calendar.dayCount))
        for (z, zone) in zones.enumerated() {
            var offset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(Int64(calendar.firstDay) * 86_400))))
            for d in 0..<Int(calendar.dayCount) {
                let noonNaive = (Int64(calendar.firstDay) + Int64(d)) * 86_400 + 43_200
                // Offset in force at local noon: usually yesterday's; check and correct once.
                var check = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(noonNaive - offset))))
                if check != offset { offset = check; check = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(noonNaive - offset)))); offset = check }
                dayBase[z * Int(calendar.dayCount) + d] = noonNaive - offset - 43_200
            }
        }

        // 7. Lookup orders and search names.
        let stopOrder = (0..<UInt32(stopID.count)).sorted { stopID[Int($0)] < stopID[Int($1)] }
        let tripOrder = (0..<UInt32(tripCount)).sorted { tripID[Int($0)] < tripID[Int($1)] }
        var childPairs: [(UInt32, UInt32)] = []
        for s in 0..<stopID.count where stopParent[s] != Timetable.none { childPairs.append((stopParent[s], UInt32(s))) }

        return Timetable(
            feeds: feeds, zoneIDs: zoneIDs, zones: zones,
            agencyID: agencyID, agencyName: agencyName, agencyZone: agencyZone,
            stopID: stopID, stopName: stopName, stopCode: stopCode, stopLat: stopLat, stopLon: stopLon,
            stopKind: stopKind, stopParent: stopParent, stopPlatform: stopPlatform, stopWheelchair: stopWheelchair, stopZone: stopZone,
            stopFoldedName: stopName.map(TextFolding.fold), stopOrder: stopOrder,
            stationChildren: Jagged.grouping(count: stopID.count, pairs: childPairs),
            routeID: routeID, routeShortName: routeShortName, routeLongName: routeLongName, routeType: routeType,
            routeAgency: routeAgency, routeColor: routeColor, routeTextColor: routeTextColor,
            tripID: tripID, tripRoute: tripRoute, tripService: tripService, tripHeadsign: tripHeadsign,
            tripShortName: tripShortName, tripDirection: tripDirection, tripWheelchair: tripWheelchair, tripBlock: tripBlock, tripShape: tripShape, tripPattern: tripPattern,
            tripTimes: tripTimes, tripShift: tripShift, tripZone: tripZone, tripOrder: tripOrder, tripFrequencies: tripFrequencies,
            frequencyStart: fStart, frequencyEnd: fEnd, frequencyHeadway: fHeadway, frequencyExact: fExact,
            patternStart: patternStart, patternStop: patternStop, patternFlags: patternFlags,
            patternSequence: patternSequence, patternHeadsign: patternHeadsign,
            arrivals: arrivals, departures: departures, stopTimeCount: Timetable.stopTimes(tripPattern, patternStart),
            departureIndex: indices.departures, arrivalIndex: indices.arrivals,
            frequencyDepartureIndex: indices.frequencyDepartures, frequencyArrivalIndex: indices.frequencyArrivals,
            transfers: transfers, serviceID: serviceID, firstDay: calendar.firstDay, dayCount: calendar.dayCount,
            serviceWords: calendar.words, serviceBits: calendar.bits, dayBase: dayBase, maxTime: maxTime,
            strings: strings)
    }

    /// Fills blank times between timepoints: by shape_dist_traveled where every
    /// stop in the gap has one, else evenly by stop count.
    private func interpolate(_ arr: inout [Int32], _ dep: inout [Int32], rows: StopTimeRows, order: ArraySlice<UInt32>) {
        var k = 1
        let count = arr.count
        let base = order.startIndex
        while k < count {
            guard arr[k] < 0 else { k += 1; continue }
            let prev = k - 1
            var next = k
            while arr[next] < 0 { next += 1 }
            let t0 = dep[prev], t1 = arr[next]
            let d0 = rows.distance[Int(order[base + prev])], d1 = rows.distance[Int(order[base + next])]
            var byDistance = !d0.isNaN && !d1.isNaN && d1 > d0
            if byDistance {
                for j in k..<next where rows.distance[Int(order[base + j])].isNaN { byDistance = false }
            }
            for j in k..<next {
                let fraction: Double
                if byDistance {
                    fraction = Double(rows.distance[Int(order[base + j])] - d0) / Double(d1 - d0)
                } else {
                    fraction = Double(j - prev) / Double(next - prev)
                }
                let t = t0 + Int32((Double(t1 - t0) * min(max(fraction, 0), 1)).rounded())
                arr[j] = t; dep[j] = t
            }
            k = next + 1
        }
    }

    private func buildCalendar() -> (firstDay: Int32, dayCount: Int32, words: Int32, bits: [UInt64]) {
        var lo = Int32.max, hi = Int32.min
        for s in services {
            if s.end >= s.start && s.weekdays != 0 { lo = min(lo, s.start); hi = max(hi, s.end) }
            for d in s.added { lo = min(lo, d); hi = max(hi, d) }
        }
        guard lo <= hi else { return (0, 0, 0, []) }
        let dayCount = hi - lo + 1
        let words = (dayCount + 63) / 64
        var bits = [UInt64](repeating: 0, count: services.count * Int(words))
        for (i, s) in services.enumerated() {
            func set(_ d: Int32, _ on: Bool) {
                let x = d - lo
                guard x >= 0, x < dayCount else { return }
                let w = i * Int(words) + Int(x >> 6)
                if on { bits[w] |= 1 << UInt64(x & 63) } else { bits[w] &= ~(1 << UInt64(x & 63)) }
            }
            if s.weekdays != 0 && s.end >= s.start {
                for d in s.start...s.end where s.weekdays & (1 << UInt8(ServiceDate(dayNumber: d).weekdayIndex)) != 0 { set(d, true) }
            }
            for d in s.added { set(d, true) }
            for d in s.removed { set(d, false) }
        }
        return (lo, dayCount, words, bits)
    }

    private func buildEventIndices(tripPattern: [UInt32], tripTimes: [UInt32], tripShift: [Int32], isFrequency: [Bool], patternStart: [UInt32],
                                   patternStop: [UInt32], patternFlags: [UInt8], arrivals: [Int32], departures: [Int32])
        -> (departures: EventIndex, arrivals: EventIndex, frequencyDepartures: EventIndex, frequencyArrivals: EventIndex) {
        let stopCount = stopID.count
        // Each event is packed as (time << 32 | its place in the index), so one integer sort orders a stop's events by
        // time, and events at the same time stay in the order of their trips and calls.
        @Sendable func index(frequency: Bool, arrivalsBoard: Bool) -> EventIndex {
            var counts = [UInt32](repeating: 0, count: stopCount + 1)
            func forEachEvent(_ body: (UInt32, Int, Int) -> Void) {
                for t in 0..<tripPattern.count where tripPattern[t] != Timetable.none && isFrequency[t] == frequency {
                    let p = Int(tripPattern[t])
                    let lo = Int(patternStart[p]), hi = Int(patternStart[p + 1])
                    for k in lo..<hi {
                        let flags = patternFlags[k]
                        if arrivalsBoard {
                            guard k > lo, (flags >> 2) & 3 != 1 else { continue }
                        } else {
                            guard k < hi - 1, flags & 3 != 1 else { continue }
                        }
                        body(patternStop[k], t, k - lo)
                    }
                }
            }
            forEachEvent { s, _, _ in counts[Int(s) + 1] &+= 1 }
            for i in 0..<stopCount { counts[i + 1] &+= counts[i] }
            var fill = counts
            var keys = [UInt64](repeating: 0, count: Int(counts[stopCount]))
            var eventTrip = [UInt32](repeating: 0, count: keys.count)
            var eventPosition = [UInt16](repeating: 0, count: keys.count)
            let times = arrivalsBoard ? arrivals : departures
            forEachEvent { s, t, k in
                let place = Int(fill[Int(s)])
                keys[place] = UInt64(UInt32(bitPattern: times[Int(tripTimes[t]) + k] + tripShift[t])) << 32 | UInt64(place)
                eventTrip[place] = UInt32(t)
                eventPosition[place] = UInt16(k)
                fill[Int(s)] &+= 1
            }
            for s in 0..<stopCount {
                let lo = Int(counts[s]), hi = Int(counts[s + 1])
                if hi - lo > 1 { keys[lo..<hi].sort() }
            }
            var trip = [UInt32](repeating: 0, count: keys.count)
            var position = [UInt16](repeating: 0, count: keys.count)
            for (i, key) in keys.enumerated() {
                let place = Int(key & 0xFFFF_FFFF)
                trip[i] = eventTrip[place]
                position[i] = eventPosition[place]
            }
            return EventIndex(start: counts, trip: trip, position: position)
        }
        // The four indices are independent: built two at a time, they take about half the time (an import's
        // last step, when the other core is idle).
        let made = Mutex([EventIndex?](repeating: nil, count: 4))
        DispatchQueue.concurrentPerform(iterations: 4) { i in
            let built = index(frequency: i >= 2, arrivalsBoard: i % 2 == 1)
            made.withLock { $0[i] = built }
        }
        let all = made.withLock { $0.map { $0! } }
        return (all[0], all[1], all[2], all[3])
    }
}

struct PatternKey: Hashable {
    var stops: [UInt32]
    var flags: [UInt8]
    var sequences: [UInt32]
    var headsigns: [UInt32]
}
