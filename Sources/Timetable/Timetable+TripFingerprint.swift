import OnwardCore

/// What a trip is, apart from its ID: its route, the stops it calls at in order, its times and its
/// frequencies. Agencies' new timetables often rename every trip while most run exactly as before;
/// two versions' trips with one fingerprint are the same train (see `RetiredIDs.renamed`).
public struct TripFingerprint: Hashable, Sendable {
    let route: String
    let stops: [String]
    let times: [Int32]
    let frequencies: [Int32]
}

extension Timetable {
    /// The trip's fingerprint; nil for a trip left out at import (it has no calls).
    public func fingerprint(of trip: TripIndex) -> TripFingerprint? {
        let t = Int(trip.raw)
        guard tripPattern[t] != Timetable.none else { return nil }
        let calls = patternRange(tripPattern[t])
        let first = Int(tripTimes[t])
        var times = [Int32]()
        times.reserveCapacity(calls.count * 2)
        for k in 0..<calls.count { times.append(arrivals[first + k] + tripShift[t]); times.append(departures[first + k] + tripShift[t]) }
        var frequencies = [Int32]()
        for f in tripFrequencies[t] {
            let i = Int(f)
            frequencies += [frequencyStart[i], frequencyEnd[i], frequencyHeadway[i], Int32(frequencyExact[i])]
        }
        return TripFingerprint(route: routeID[Int(tripRoute[t])], stops: calls.map { stopID[Int(patternStop[$0])] },
                               times: times, frequencies: frequencies)
    }
}
