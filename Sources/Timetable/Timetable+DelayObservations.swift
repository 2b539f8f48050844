import OnwardCore

extension Timetable {
    /// What `overlay`'s trip updates said of each call, as delay history records it: each call a stop time update spoke
    /// of (not the calls whose times were carried from it), and every call of a cancelled run. A run's first call has no
    /// arrival and its last no departure, as for a traveller.
    public func delayObservations(_ overlay: RealtimeOverlay, source: String, observedAt: Instant) -> [DelayObservation] {
        var result: [DelayObservation] = []
        for (key, live) in overlay.trips {
            let t = Int(key.trip.raw)
            guard t < tripID.count, live.status == .cancelled || !live.reported.isEmpty else { continue }
            let n = callCount(of: key.trip)
            let route = routeID[Int(tripRoute[t])]
            let date = ServiceDate(dayNumber: key.serviceDay)
            // A frequency-based trip's runs share its ID: each is told apart by its start, in seconds of the service day.
            let run = isFrequencyBased(key.trip) ? tripID[t] + "@\(Int(firstDepartureTime(of: key.trip)) + Int(key.shift))" : tripID[t]
            for k in 0..<n where live.status == .cancelled || live.reported[k] {
                let stop = Int(patternStopAt(trip: key.trip, call: k).raw)
                let scheduledDeparture = scheduledDeparture(key, k), scheduledArrival = scheduledArrival(key, k)
                let hour = HourOfWeek(Instant(epochSeconds: k == n - 1 ? scheduledArrival : scheduledDeparture), in: zones[Int(stopZone[stop])])
                let cancelled = live.status == .cancelled || live.callStatus[k] == .skipped
                var departure: Int?, arrival: Int?
                if !cancelled {
                    if k < n - 1, live.departure[k] != TripLive.unknown { departure = Int(live.departure[k] - scheduledDeparture) }
                    if k > 0, live.arrival[k] != TripLive.unknown { arrival = Int(live.arrival[k] - scheduledArrival) }
                }
                result.append(DelayObservation(source: source, tripID: run, serviceDate: date, call: k, routeID: route,
                                               stopID: stopID[stop], hourOfWeek: hour, departureDelay: departure, arrivalDelay: arrival,
                                               cancelled: cancelled, observedAt: observedAt))
            }
        }
        return result
    }
}
