import Foundation
import OnwardCore

/// Commuting mode for one journey, as a value: events in (positions, beacon sightings,
/// time passing, new live times), alerts out, no I/O. It says each kind of thing once
/// per station and never twice: `fired` remembers, and a stored session (it is `Codable`)
/// picks up where it was after a restart.
public struct CommuteSession: Sendable, Codable, Equatable {
    public internal(set) var journey: JourneyState
    public let settings: CommuteSettings
    /// Stations for `nearStation`.
    public let stations: [StopPlace]
    /// "kind station" of every alert given.
    public internal(set) var fired: Set<String> = []
    /// The last position believed, and a doubtful one held until something confirms it: a second
    /// position that agrees with it, a beacon there, or live times that put the vehicle there.
    var lastFix: Fix?
    var doubtful: Fix?
    /// How late the positions showed a ride to run, by trip, when it has no live times: the estimate
    /// of where the vehicle is goes on with that delay when the positions stop (a tunnel).
    var observedDelay: [String: Int64]?
    /// The last stop a beacon was seen at, and when.
    var lastBeacon: Sighting?
    /// Set when a change was missed (or a ride cancelled, or a connection can no longer be made): the
    /// driver plans again from there and hands the new journey in.
    public internal(set) var replanFrom: JourneyStop?
    /// For a connection that can no longer be made: plan from the change as the ride arrives there
    /// (not now), keeping the rides up to it (`Journey.keepingRides`).
    public internal(set) var replan: Replan?
    /// The connections given up at each change station ("the 08:20 T2"), said with the next alert there.
    var lostConnections: [String: String]?
    /// The time of the last event handled: the session's own clock.
    public internal(set) var time: Instant?

    struct Sighting: Sendable, Codable, Hashable {
        var stopID: String
        var at: Instant
    }

    struct Fix: Sendable, Codable, Hashable {
        var at: Instant
        var latitude: Double
        var longitude: Double
        var accuracy: Double
    }

    /// How to plan again ahead of a change that can no longer be made.
    public struct Replan: Sendable, Codable, Hashable {
        /// When the ride arrives at the change.
        public var at: Instant
        /// How many rides of the journey to keep.
        public var keepRides: Int

        public init(at: Instant, keepRides: Int) { self.at = at; self.keepRides = keepRides }
    }

    /// The journey being made, whole (as a commute shows it; kept once, here), and as the session reads it.
    public struct JourneyState: Sendable, Codable, Hashable {
        /// The journey whole: its rides and the walks between.
        public let whole: Journey
        public let rides: [TransitLeg]
        public let destination: JourneyStop?
        /// Walking between each ride and the next, in seconds.
        let walks: [Int]
        /// Each ride's course, worked out once: every event reads them several times (the engine's cost per fix).
        let courses: [RideCourse]

        init(_ j: Journey) { self.init(whole: j, destination: j.legs.last?.toStop, walks: j.changes.map(\.walkSeconds)) }

        init(whole: Journey, destination: JourneyStop?, walks: [Int]) {
            self.whole = whole
            rides = whole.rides
            self.destination = destination
            self.walks = walks
            courses = rides.map(RideCourse.init)
        }

        private enum CodingKeys: String, CodingKey { case legs, rides, destination, walks }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            if let legs = try c.decodeIfPresent([JourneyLeg].self, forKey: .legs) {
                self.init(Journey(legs: legs))
                return
            }
            // Kept before the session kept the whole journey: the rides, the destination and the walks' times (none
            // known when kept before those were). The journey whole is then the rides alone, until `restoreJourney`.
            let rides = try c.decode([TransitLeg].self, forKey: .rides)
            self.init(whole: Journey(legs: rides.map(JourneyLeg.transit)), destination: try c.decodeIfPresent(JourneyStop.self, forKey: .destination),
                      walks: try c.decodeIfPresent([Int].self, forKey: .walks) ?? Array(repeating: 0, count: max(rides.count - 1, 0)))
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(whole.legs, forKey: .legs)
        }

        // The rest follows from the journey whole.
        public static func == (a: JourneyState, b: JourneyState) -> Bool { a.whole == b.whole && a.destination == b.destination && a.walks == b.walks }
        public func hash(into hasher: inout Hasher) { hasher.combine(whole); hasher.combine(destination); hasher.combine(walks) }
    }

    /// Takes up the journey whole for a session stored before it kept it (its storage kept the journey beside it).
    public mutating func restoreJourney(_ j: Journey) {
        journey = JourneyState(j)
    }

    public init(journey: Journey, settings: CommuteSettings = CommuteSettings(), stations: [StopPlace] = []) {
        self.journey = JourneyState(journey)
        self.settings = settings
        self.stations = stations
    }

    // MARK: Events

    /// Handles one event (events come in time order) and returns the alerts it causes, in time order.
    public mutating func handle(_ event: CommuteEvent) -> [CommuteAlert] {
        let now = event.at
        time = max(time ?? now, now)
        var alerts: [CommuteAlert] = []
        switch event {
        case .position(let at, let lat, let lon, let accuracy):
            if accept(Fix(at: at, latitude: lat, longitude: lon, accuracy: accuracy)) { alerts += positionAlerts(now: now) }
        case .beacon(let at, let stopID):
            lastBeacon = Sighting(stopID: stopID, at: at)
            if let stop = journeyStop(stopID) {
                // A beacon is where the vehicle is: a fix with no error, and it confirms a held fix there.
                learn(Fix(at: at, latitude: stop.latitude, longitude: stop.longitude, accuracy: 0))
                if let held = doubtful, GreatCircle.metres(held.latitude, held.longitude, stop.latitude, stop.longitude) <= settings.radius + held.accuracy {
                    believe(held)
                }
            }
            alerts += positionAlerts(now: now)
        case .tick:
            // A fix already at the stop says it once the vehicle has left the stop before.
            alerts += positionAlerts(now: now)
        case .journey(let j, _):
            // A new plan (other rides) answers a request to plan again; new live times for the same rides do not.
            if j.rides.map(\.tripID) != journey.rides.map(\.tripID) {
                replanFrom = nil
                replan = nil
                forgetAlerts(ofRidesNotIn: journey.rides, comingIn: j.rides)
            }
            journey = JourneyState(j)
            // New live times may put the vehicle where a held fix said it was.
            if let held = doubtful, judge(held) == nil { believe(held) }
            alerts += cancellations(now: now)
            connectionsAtRisk(now: now)
        }
        alerts += timeAlerts(now: now)
        alerts += missedConnection(now: now)
        return alerts
    }

    /// A new plan's own rides get their own alerts: what was said at a station of a train the traveller is no
    /// longer taking (the destination, said as a connection they missed left the stop before) is said again for
    /// the train that replaces it. Once per station still holds for each ride.
    private mutating func forgetAlerts(ofRidesNotIn old: [TransitLeg], comingIn new: [TransitLeg]) {
        let kept = Set(old.map { "\($0.tripID) \($0.serviceDate.dayNumber)" })
        for ride in new where !kept.contains("\(ride.tripID) \(ride.serviceDate.dayNumber)") {
            fired.remove(Target.key(.vehicleArriving, ride.from))
            fired.remove(Target.key(.arrivingAtTransfer, ride.to))
            fired.remove(Target.key(.arrivingAtDestination, ride.to))
        }
    }

    /// Handles, in time order, the events due by `now` and the deadlines between them, taking the
    /// events it handles off the front of `events` (sorted by time). It stops early when a change
    /// was missed, so the driver can plan again (`replanFrom`), hand the new journey in and call again
    /// (when no new journey is found, calling again goes on with the old one).
    public mutating func advance(to now: Instant, events: inout ArraySlice<CommuteEvent>) -> [CommuteAlert] {
        var alerts: [CommuteAlert] = []
        if time == nil { alerts += handle(.tick(min(now, events.first?.at ?? now))) }
        let waiting = replanFrom != nil
        while replanFrom == nil || waiting {
            let deadline = nextDeadline(after: time ?? now)
            if let next = events.first, next.at <= now, deadline.map({ next.at <= $0 }) ?? true {
                events.removeFirst()
                alerts += handle(next)
            } else if let deadline, deadline <= now {
                alerts += handle(.tick(deadline))
            } else {
                break
            }
        }
        return alerts
    }

    /// What the journey's times alone would say from now until `end`, each at its moment: the same rules, with no new
    /// position, beacon or live time. A phone that loses its network (a tunnel) says these by itself when they come.
    /// A session that has heard nothing yet starts from `now` (else it would start at `end`).
    public func ahead(from now: Instant, until end: Instant) -> [CommuteAlert] {
        var timetableOnly = self
        var none = ArraySlice<CommuteEvent>()
        let first = timetableOnly.time == nil ? timetableOnly.handle(.tick(now)) : []
        return first + timetableOnly.advance(to: end, events: &none)
    }

    /// The next moment something may be due without any new position: the driver wakes the session then.
    public func nextDeadline(after now: Instant) -> Instant? {
        var times: [Instant] = []
        for target in targets() where !fired.contains(target.key) {
            if let t = target.timeTrigger, t > now { times.append(t) }
            // A fix already at the stop says it once the vehicle has left the stop before.
            if let t = target.earliest, t > now { times.append(t) }
        }
        if let next = pendingConnection(), let leaves = next.after { times.append(leaves.adding(seconds: Int64(settings.missedGraceSeconds) + 1)) }
        return times.filter { $0 > now }.min()
    }
}
