import Foundation
import OnwardCore

/// Positions: which fixes are believed, what they show, and the alerts positions and the clock give.
extension CommuteSession {
    /// Keeps a believable fix: precise enough, and neither a move faster than the traveller can go
    /// (by the mode of the ride under way, on foot between rides) nor, on a ride, ahead of the
    /// vehicle's estimate or off its line by more than the fix's accuracy allows. A doubtful fix is
    /// held: a second fix that agrees with it is believed (as is one where the traveller was last
    /// believed to be: it says nothing new); one that does not replaces it.
    mutating func accept(_ fix: Fix) -> Bool {
        guard fix.accuracy.isFinite, fix.accuracy <= settings.worstAccuracy, fix.latitude.isFinite, fix.longitude.isFinite else { return false }
        let limit = speedLimit(at: fix.at)
        var doubt = judge(fix)
        if doubt == nil, let last = lastFix, fix.at >= last.at, !Self.agree(last, fix, limit: limit) { doubt = .tooFast }
        guard doubt != nil else {
            believe(fix)
            return true
        }
        // Confirmed by the held fix it agrees with, or where the traveller was last believed to be.
        if let held = doubtful, fix.at >= held.at, Self.agree(held, fix, limit: limit) {
            believe(fix)
            return true
        }
        if let last = lastFix, fix.at >= last.at,
           GreatCircle.metres(last.latitude, last.longitude, fix.latitude, fix.longitude) <= last.accuracy + fix.accuracy + settings.radius {
            believe(fix)
            return true
        }
        doubtful = fix
        return false
    }

    /// Why a fix is doubtful on the ride under way, if it is.
    enum Doubt: Equatable {
        case tooFast, aheadOfVehicle, offTheLine
    }

    /// Whether `b` can follow `a`: within their accuracies of each other (the same place, as far as they
    /// can tell), or no faster a move than `limit`. Fixes come a second or less apart (times are whole
    /// seconds): a second at least between two.
    static func agree(_ a: Fix, _ b: Fix, limit: Double) -> Bool {
        let metres = GreatCircle.metres(a.latitude, a.longitude, b.latitude, b.longitude)
        return metres <= a.accuracy + b.accuracy || metres / Double(max(b.at.epochSeconds - a.at.epochSeconds, 1)) <= limit
    }

    /// A fix against the ride under way at its time: off the line by more than its accuracy and the
    /// stop radius allow, or further along than the vehicle can be a minute ahead of its estimate.
    func judge(_ fix: Fix) -> Doubt? {
        guard let (_, course) = rideUnderWay(at: fix.at) else { return nil }
        let place = course.place(latitude: fix.latitude, longitude: fix.longitude)
        if place.offLine > fix.accuracy + settings.radius { return .offTheLine }
        if place.distance - fix.accuracy > course.distance(at: fix.at.adding(seconds: Self.aheadSeconds)) + settings.radius { return .aheadOfVehicle }
        return nil
    }

    /// How far ahead of its estimate (live or the timetable's) a vehicle may run.
    static let aheadSeconds: Int64 = 60

    mutating func believe(_ fix: Fix) {
        doubtful = nil
        if lastFix.map({ fix.at >= $0.at }) ?? true { lastFix = fix }
        learn(fix)
    }

    /// A believed position on a ride with no live times tells how late its vehicle runs.
    mutating func learn(_ fix: Fix) {
        guard let (ride, course) = rideUnderWay(at: fix.at), !course.isLive else { return }
        let place = course.place(latitude: fix.latitude, longitude: fix.longitude)
        guard place.offLine <= fix.accuracy + settings.radius else { return }
        let late = fix.at.epochSeconds - course.time(atDistance: place.distance).epochSeconds
        observedDelay = (observedDelay ?? [:]).merging([ride.tripID: max(late, 0)]) { $1 }
    }

    /// The ride whose vehicle is between leaving its boarding stop and two minutes past its arrival
    /// at `t` (the later ride where two overlap), with its course.
    func rideUnderWay(at t: Instant) -> (TransitLeg, RideCourse)? {
        for (ride, course) in zip(journey.rides, journey.courses).reversed() {
            if t >= course.leaves, t <= course.arrives.adding(seconds: 120) { return (ride, course) }
        }
        return nil
    }

    /// The fastest the traveller can move at `t`: the mode of the ride under way, else on foot.
    func speedLimit(at t: Instant) -> Double {
        guard let (ride, _) = rideUnderWay(at: t) else { return TravelSpeed.walking }
        return TravelSpeed.fastest(routeType: ride.routeType) ?? settings.fastestMove
    }

    /// A stop of the journey (a boarding, a call or an alighting) by its ID or its station's.
    func journeyStop(_ id: String) -> JourneyStop? {
        for ride in journey.rides {
            for stop in [ride.from] + ride.calls.map(\.stop) + [ride.to] where stop.stopID == id || stop.stationID == id { return stop }
        }
        return nil
    }

    /// Where the traveller was last believed to be.
    public var believedPosition: (latitude: Double, longitude: Double, at: Instant)? {
        lastFix.map { ($0.latitude, $0.longitude, $0.at) }
    }

    /// Whether the traveller is at a stop now: a beacon of that stop (or of its station) in the last two
    /// minutes, or the last fix within the radius (allowing for its accuracy, up to 50 m).
    func isAt(_ stop: JourneyStop, now: Instant) -> Bool { beaconAt(stop, now: now) || fixAt(stop, now: now) }

    func beaconAt(_ stop: JourneyStop, now: Instant) -> Bool {
        guard let b = lastBeacon, now.epochSeconds - b.at.epochSeconds <= 120 else { return false }
        return b.stopID == stop.stopID || b.stopID == stop.stationID
    }

    func fixAt(_ stop: JourneyStop, now: Instant) -> Bool {
        guard let fix = freshFix(now: now) else { return false }
        return GreatCircle.metres(fix.latitude, fix.longitude, stop.latitude, stop.longitude) <= settings.radius + min(fix.accuracy, 50)
    }

    /// The last believed fix, if it is under two minutes old.
    func freshFix(now: Instant) -> Fix? {
        guard let fix = lastFix, now.epochSeconds - fix.at.epochSeconds <= 120 else { return nil }
        return fix
    }

    mutating func positionAlerts(now: Instant) -> [CommuteAlert] {
        var alerts: [CommuteAlert] = []
        let started = journey.rides.first.map { now >= $0.expectedDeparture ?? $0.departure } ?? true
        if settings.nearStation, !started, let fix = lastFix {
            for s in stations where GreatCircle.metres(fix.latitude, fix.longitude, s.latitude, s.longitude) <= settings.radius + min(fix.accuracy, 50) {
                let key = "nearStation \(s.id)"
                if fired.insert(key).inserted {
                    alerts.append(CommuteAlert(at: now, kind: .nearStation, stopID: s.id, stopName: s.name,
                                               message: "You are near \(s.name).", basis: .position))
                }
            }
        }
        // Arriving, by a beacon at the stop once its ride has left; by a position (at the stop, or past the
        // stop before) only once the vehicle has left the stop before, by its live times or the timetable's.
        for target in targets() where target.kind != .vehicleArriving && !fired.contains(target.key) {
            guard let leaves = target.rideLeaves, now >= leaves else { continue }
            if beaconAt(target.stop, now: now) {
                fired.insert(target.key)
                alerts.append(target.alert(at: now, basis: .beacon))
            } else if let earliest = target.earliest, now >= earliest, fixAt(target.stop, now: now) || pastStopBefore(target, now: now) {
                fired.insert(target.key)
                alerts.append(target.alert(at: now, basis: .position))
            }
        }
        return alerts
    }

    mutating func timeAlerts(now: Instant) -> [CommuteAlert] {
        var alerts: [CommuteAlert] = []
        for target in targets() where !fired.contains(target.key) {
            guard let t = target.timeTrigger, now >= t else { continue }
            // A vehicle that has already left is no longer arriving.
            if target.kind == .vehicleArriving, let leaves = target.rideLeaves, now > leaves { fired.insert(target.key); continue }
            fired.insert(target.key)
            alerts.append(target.alert(at: now, basis: target.basis))
        }
        return alerts
    }

    /// Whether a fresh fix on the target's ride lies clearly past the stop before the target.
    func pastStopBefore(_ target: Target, now: Instant) -> Bool {
        guard let fix = freshFix(now: now), let course = target.course, course.points.count >= 2 else { return false }
        let place = course.place(latitude: fix.latitude, longitude: fix.longitude)
        return place.offLine <= fix.accuracy + settings.radius && place.distance >= course.points[course.points.count - 2].distance + fix.accuracy + settings.radius
    }
}
