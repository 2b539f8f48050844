import OnwardCore

/// Why a service cannot be shown.
public enum ServiceLookupError: Error, Sendable, Hashable {
    case unknownTrip(String)
    /// The trip was in the feed but skipped at import (see the import's notices).
    case skippedAtImport(String)
    /// The trip does not run on that date; `runsOn` gives up to a few dates it does run.
    case notRunning(trip: String, date: ServiceDate, runsOn: [ServiceDate])
}

extension Timetable {
    /// Every calling point of a trip on a service date. For a frequency-based
    /// trip, `startTime` (seconds of the service day) picks the run: the first
    /// run starting at or after it, or the day's first run.
    public func service(_ trip: TripIndex, on date: ServiceDate, startTime: Int32? = nil) throws(ServiceLookupError) -> ServiceDetails {
        let t = Int(trip.raw)
        guard tripPattern[t] != Timetable.none else { throw .skippedAtImport(tripID[t]) }
        guard isActive(service: tripService[t], day: date.dayNumber) else {
            let upcoming = serviceDates(of: trip).filter { $0 >= date }.prefix(3)
            let fallback = upcoming.isEmpty ? serviceDates(of: trip).suffix(3) : upcoming
            throw .notRunning(trip: tripID[t], date: date, runsOn: Array(fallback))
        }
        let p = patternRange(tripPattern[t])
        let dayBase = base(zone: tripZone[t], day: date.dayNumber)
        var shift: Int32 = 0
        var headway: Int?
        let blocks = tripFrequencies[t]
        if !blocks.isEmpty {
            let templateStart = scheduledDeparture(trip: t, call: 0)
            let wanted = startTime ?? frequencyStart[Int(blocks.first!)]
            var chosen: (Int32, Int32)? = nil
            for f in blocks {
                let start = frequencyStart[Int(f)], end = frequencyEnd[Int(f)], h = max(frequencyHeadway[Int(f)], 1)
                let k = wanted <= start ? 0 : (wanted - start + h - 1) / h
                let run = start + k * h
                if run < end { chosen = (run, h); break }
            }
            let (run, h) = chosen ?? (frequencyStart[Int(blocks.first!)], frequencyHeadway[Int(blocks.first!)])
            shift = run - templateStart
            headway = Int(h)
        }
        var calls: [CallingPoint] = []
        calls.reserveCapacity(p.count)
        for k in 0..<p.count {
            let stop = Int(patternStop[p.lowerBound + k])
            let flags = patternFlags[p.lowerBound + k]
            let headsignIndex = patternHeadsign[p.lowerBound + k]
            calls.append(CallingPoint(
                stopID: stopID[stop], stopName: stopName[stop],
                platform: stopPlatform[stop].isEmpty ? nil : stopPlatform[stop],
                stopSequence: Int(patternSequence[p.lowerBound + k]),
                scheduledArrival: Instant(epochSeconds: dayBase + Int64(scheduledArrival(trip: t, call: k) + shift)),
                scheduledDeparture: Instant(epochSeconds: dayBase + Int64(scheduledDeparture(trip: t, call: k) + shift)),
                timeZone: zoneIDs[Int(stopZone[stop])], pickup: pickup(flags: flags), dropOff: dropOff(flags: flags),
                isTimepoint: flags & 0x10 != 0, stopHeadsign: headsignIndex == 0 ? nil : strings[Int(headsignIndex)]))
            if stopLat[stop].isFinite && stopLon[stop].isFinite {
                calls[calls.count - 1].latitude = stopLat[stop]
                calls[calls.count - 1].longitude = stopLon[stop]
            }
        }
        let route = Int(tripRoute[t])
        var details = ServiceDetails(tripID: tripID[t], routeID: routeID[route], routeShortName: routeShortName[route],
                                     routeLongName: routeLongName[route], headsign: headsign(trip: trip.raw, position: 0),
                                     serviceDate: date, calls: calls, headwaySeconds: headway)
        details.routeColor = routeInfo(RouteIndex(raw: UInt32(route))).color
        return details
    }
}
