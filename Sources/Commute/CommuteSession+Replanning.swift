import Foundation
import OnwardCore

/// When the journey has to be planned again: a ride cancelled, a connection that can no longer be made, a change missed.
extension CommuteSession {
    // MARK: A cancelled ride

    /// A ride not yet over that its live data says is cancelled: said at once (once per run), and the journey
    /// is planned again from where that ride would have been boarded (or, on board, from its next stop).
    mutating func cancellations(now: Instant) -> [CommuteAlert] {
        for (ride, course) in zip(journey.rides, journey.courses) where ride.status == .cancelled {
            guard now < course.arrives, fired.insert("tripCancelled \(ride.tripID) \(ride.serviceDate.dayNumber)").inserted else { continue }
            let from = now < course.leaves ? ride.from : course.points.first { $0.time > now }?.stop ?? ride.to
            replanFrom = from
            return [CommuteAlert(at: now, kind: .tripCancelled, stopID: ride.from.stopID, stopName: ride.from.name,
                                 message: "Your \(Self.clock(course.leaves, ride.from)) \(ride.routeShortName) to \(ride.headsign) is cancelled. Finding another way…",
                                 basis: .liveTimes)]
        }
        return []
    }

    // MARK: A connection that can no longer be made

    /// By the live times, a change ahead no longer covers its walk: ask for a plan from that change as the
    /// ride arrives there, keeping the rides up to it, so the alert before the change offers the way on.
    mutating func connectionsAtRisk(now: Instant) {
        guard replanFrom == nil else { return }
        // Staying on board is no change: the vehicle goes on however late it runs.
        for i in journey.rides.indices.dropLast() where i < journey.walks.count && journey.rides[i + 1].staysSeated != true {
            let ride = journey.rides[i], next = journey.rides[i + 1]
            let arrives = journey.courses[i].arrives, leaves = journey.courses[i + 1].leaves
            guard now < arrives, !fired.contains(Target.key(.arrivingAtTransfer, ride.to)),
                  !JourneyChange.canBeMade(margin: Int(leaves.epochSeconds - arrives.epochSeconds), walk: journey.walks[i]),
                  fired.insert("connectionLost \(next.tripID) \(next.serviceDate.dayNumber)").inserted else { continue }
            replanFrom = ride.to
            replan = Replan(at: arrives, keepRides: i + 1)
            let key = ride.to.stationID ?? ride.to.stopID
            lostConnections = (lostConnections ?? [:]).merging([key: "\(Self.clock(leaves, next.from)) \(next.routeShortName)"]) { $1 }
            return
        }
    }

    // MARK: A missed change

    /// The change under way: the ride after a station where "arriving at your change" was said.
    func pendingConnection() -> (station: JourneyStop, next: TransitLeg, after: Instant?)? {
        for (i, ride) in journey.rides.enumerated() where i + 1 < journey.rides.count {
            let key = Target.key(.arrivingAtTransfer, ride.to)
            let next = journey.rides[i + 1]
            let leaves = next.expectedDeparture ?? next.departure
            if fired.contains(key), !fired.contains(Target.key(.missedConnection, ride.to)) {
                return (ride.to, next, leaves)
            }
        }
        return nil
    }

    /// Still at the change well after the connection left: say so, and ask for a new plan from there.
    mutating func missedConnection(now: Instant) -> [CommuteAlert] {
        guard let (station, next, after) = pendingConnection(), let leaves = after,
              now.epochSeconds > leaves.epochSeconds + Int64(settings.missedGraceSeconds) else { return [] }
        // Seen at the change since the connection left (a position, or a beacon there).
        let seen = (lastFix.map { $0.at > leaves } ?? false) || (lastBeacon.map { $0.at > leaves } ?? false)
        guard seen, isAt(station, now: now) || isAt(next.from, now: now) else { return [] }
        fired.insert(Target.key(.missedConnection, station))
        replanFrom = next.from
        let time = Self.clock(leaves, next.from)
        return [CommuteAlert(at: now, kind: .missedConnection, stopID: next.from.stopID, stopName: next.from.name,
                             message: "You missed the \(time) \(next.routeShortName) to \(next.headsign) at \(next.from.name). Finding another way…",
                             basis: beaconAt(station, now: now) || beaconAt(next.from, now: now) ? .beacon : .position)]
    }
}
