import Foundation
import OnwardCore

/// What the journey calls for: each alert's stop, and when it is due.
extension CommuteSession {
    /// Something to say at a stop: when to say it by the clock (and what that time is based on), the
    /// earliest a position may say it, and when its ride leaves.
    struct Target {
        var kind: CommuteAlert.Kind
        var stop: JourneyStop
        var timeTrigger: Instant?
        var basis: CommuteAlert.Basis
        /// For an arrival: when the vehicle leaves the stop before (live, else the timetable's).
        var earliest: Instant?
        var rideLeaves: Instant?
        /// The ride's course, for an arrival.
        var course: RideCourse?
        /// Made only when the alert is given: targets are worked out for every event.
        var message: () -> String

        /// Once per station: a platform counts as its station.
        var key: String { Self.key(kind, stop) }
        static func key(_ kind: CommuteAlert.Kind, _ stop: JourneyStop) -> String { "\(kind.rawValue) \(stop.stationID ?? stop.stopID)" }

        func alert(at now: Instant, basis: CommuteAlert.Basis) -> CommuteAlert {
            CommuteAlert(at: now, kind: kind, stopID: stop.stopID, stopName: stop.name, message: message(), basis: basis)
        }
    }

    /// The alerts the journey calls for: its first vehicle arriving, then arriving at each change and at the end.
    /// "Arriving" is due when the vehicle leaves the stop before (or, riding one stop, the stop boarded): by its
    /// live times, else by the timetable's shifted by the delay the traveller's positions showed.
    func targets() -> [Target] {
        var list: [Target] = []
        let rides = journey.rides
        if let first = rides.first {
            let course = journey.courses[0]
            let leaves = course.leaves
            let platform = first.from.platform.map { ", platform \($0)" } ?? ""
            list.append(Target(kind: .vehicleArriving, stop: first.from,
                               timeTrigger: leaves.adding(seconds: -Int64(settings.vehicleLeadSeconds)), basis: course.isLive ? .liveTimes : .timetable,
                               rideLeaves: leaves,
                               message: { "Your \(first.routeShortName) to \(first.headsign) is arriving at \(first.from.name)\(platform): it leaves at \(Self.clock(leaves, first.from))." }))
        }
        for (i, ride) in rides.enumerated() {
            let course = journey.courses[i]
            let before = course.points[course.points.count - 2].time
            let delay = course.isLive ? 0 : observedDelay?[ride.tripID] ?? 0
            let basis: CommuteAlert.Basis = course.isLive ? .liveTimes : delay > 0 ? .position : .timetable
            var target = Target(kind: .arrivingAtDestination, stop: ride.to, timeTrigger: before.adding(seconds: delay), basis: basis,
                                earliest: before, rideLeaves: course.leaves, course: course,
                                message: { "Next stop \(ride.to.name): your stop. Time to get ready to get off." })
            // Staying on board into the next trip is no change: nothing to say there.
            if i + 1 < rides.count, rides[i + 1].staysSeated == true { continue }
            if i + 1 < rides.count {
                let next = rides[i + 1]
                let nextLeaves = journey.courses[i + 1].leaves
                let platform = next.from.platform.map { ", platform \($0)" } ?? ""
                target.kind = .arrivingAtTransfer
                let lost = lostConnections?[ride.to.stationID ?? ride.to.stopID].map { "the \($0) will have left: " } ?? ""
                target.message = { "Next stop \(ride.to.name): \(lost)change to the \(next.routeShortName) to \(next.headsign)\(platform), leaving at \(Self.clock(nextLeaves, next.from))." }
            }
            list.append(target)
        }
        return list
    }

    static func clock(_ i: Instant, _ stop: JourneyStop) -> String {
        LocalTime(i, in: TimeZone.named(stop.timeZone)).hhmm
    }
}
