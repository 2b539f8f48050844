/// A change between two rides of a journey: where, the walk between, and the time to spare, by the
/// timetable and by the live times. The one rule for a change's margin, which the API, the pages, the
/// CLI and commuting mode all read.
public struct JourneyChange: Sendable, Hashable {
    /// Where the ride arriving stops, and where the next one leaves.
    public var arrivingAt: JourneyStop
    public var leavingFrom: JourneyStop
    /// Walking (or changing platform) between the two.
    public var walkSeconds: Int
    /// Seconds to change by the timetable: from the arrival to the next departure (the walk is part of it).
    public var marginSeconds: Int
    /// The same by the live times, when either ride has them.
    public var liveMarginSeconds: Int?
    /// How late (negative: early) the arriving ride and the next one run, when live.
    public var arrivingLateSeconds: Int?
    public var leavingLateSeconds: Int?
    /// The traveller stays on board: the vehicle goes on as the next ride, so nothing can be missed here.
    public var staysSeated = false
    /// How late the arriving ride usually is here at this hour, where there is history enough.
    public var usualArrival: UsualDelay?

    /// The margin the traveller has now: live where known.
    public var currentMarginSeconds: Int { liveMarginSeconds ?? marginSeconds }

    /// Whether the change can be made: the margin covers the walk.
    public static func canBeMade(margin: Int, walk: Int) -> Bool { margin >= walk }

    /// Whether this change can be made now: always where the traveller stays on board (the vehicle goes on, however
    /// late, and the next trip's own live times may not know it yet), else by the margin it has now.
    public var canBeMade: Bool { staysSeated || Self.canBeMade(margin: currentMarginSeconds, walk: walkSeconds) }

    /// Whether it is tight: under a minute to spare beyond the walk.
    public static func isTight(margin: Int, walk: Int) -> Bool { margin < walk + 60 }

    /// Whether history says the change often fails: the arriving ride's usual (median) lateness here is more than the
    /// time to spare. Only while no live time is known: live data then says how it stands today.
    public var isRisky: Bool { !staysSeated && liveMarginSeconds == nil && !holds(at: 0.5) }

    /// Whether the change holds when the arriving ride is as late as `fraction` of its history (0.8: four days in
    /// five). True with no history: nothing says otherwise.
    public func holds(at fraction: Double) -> Bool {
        guard !staysSeated, let allowance = usualArrival?.arrivalAllowance(fraction) else { return true }
        return currentMarginSeconds - allowance >= walkSeconds
    }
}

extension Journey {
    /// The first `rides` rides of this journey (with the walks before them), then `rest`: the journey
    /// planned again from where the last ride kept arrives.
    public func keepingRides(_ rides: Int, then rest: Journey) -> Journey {
        var kept: [JourneyLeg] = []
        var count = 0
        for leg in legs where count < rides {
            kept.append(leg)
            if case .transit = leg { count += 1 }
        }
        return Journey(legs: kept + rest.legs)
    }

    /// Each change, in order: between one ride and the next, with the walks between them.
    public var changes: [JourneyChange] {
        var changes: [JourneyChange] = []
        var arriving: TransitLeg?
        var walk = 0
        for leg in legs {
            switch leg {
            case .walk(let w):
                walk += w.seconds
            case .transit(let next):
                if let ride = arriving {
                    let live = ride.expectedArrival != nil || next.expectedDeparture != nil
                    func seconds(_ later: Instant, _ earlier: Instant) -> Int { Int(later.epochSeconds - earlier.epochSeconds) }
                    changes.append(JourneyChange(
                        arrivingAt: ride.to, leavingFrom: next.from, walkSeconds: walk,
                        marginSeconds: seconds(next.departure, ride.arrival),
                        liveMarginSeconds: live ? seconds(next.expectedDeparture ?? next.departure, ride.expectedArrival ?? ride.arrival) : nil,
                        arrivingLateSeconds: ride.expectedArrival.map { seconds($0, ride.arrival) },
                        leavingLateSeconds: next.expectedDeparture.map { seconds($0, next.departure) }, staysSeated: next.staysSeated == true,
                        usualArrival: ride.usualArrival))
                }
                arriving = next
                walk = 0
            }
        }
        return changes
    }
}
