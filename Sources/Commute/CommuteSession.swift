import Foundation
import OnwardCore

/// Commuting mode for one journey, as a value: events in (positions, beacon sightings,
/// time passing, new live times), alerts out, no I/O. It says each kind of thing once
/// per station and never twice: `fired` remembers, and a stored session (it is `Codable`)
/// picks up where it was after a restart.
public struct CommuteSession: Sendable, Codable, Equatable {
    public private(set) var journey: JourneyState
    public let settings: CommuteSettings
    /// Stations for `nearStation`.
    public let stations: [StopPlace]
    /// "kind station" of every alert given.
    public private(set) var fired: Set<String> = []
    /// The last position believed, and a doubtful one held until something confirms it: a second
    /// position that agrees with it, a beacon there, or live times that put the vehicle there.
    private var lastFix: Fix?
    private var doubtful: Fix?
    /// How late the positions showed a ride to run, by trip, when it has no live times: the estimate
    /// of where the vehicle is goes on with that delay when the positions stop (a tunnel).
    private var observedDelay: [String: Int64]?
    /// The last stop a beacon was seen at, and when.
    private var lastBeacon: Sighting?
    /// Set when a change was missed (or a ride cancelled, or a connection can no longer be made): the
    /// driver plans again from there and hands the new journey in.
    public private(set) var replanFrom: JourneyStop?
    /// For a connection that can no longer be made: plan from the change as the ride arrives there
    /// (not now), keeping the rides up to it (`Journey.keepingRides`).
    public private(set) var replan: Replan?
    /// The connections given up at each change station ("the 08:20 T2"), said with the next alert there.
    private var lostConnections: [String: String]?
    /// The time of the last event handled: the session's own clock.
    public private(set) var time: Instant?

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

    /// The journey being made, as the session reads it.
    public struct JourneyState: Sendable, Codable, Hashable {
        public let rides: [TransitLeg]
        public let destination: JourneyStop?
        /// Walking between each ride and the next, in seconds.
        let walks: [Int]
        /// Each ride's course, worked out once: every event reads them several times (the engine's cost per fix).
        let courses: [RideCourse]

        init(_ j: Journey) { self.init(rides: j.rides, destination: j.legs.last?.toStop, walks: j.changes.map(\.walkSeconds)) }

        init(rides: [TransitLeg], destination: JourneyStop?, walks: [Int]) {
            self.rides = rides
            self.destination = destination
            self.walks = walks
            courses = rides.map(RideCourse.init)
        }

        private enum CodingKeys: String, CodingKey { case rides, destination, walks }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let rides = try c.decode([TransitLeg].self, forKey: .rides)
            // Kept before walks were: none known.
            self.init(rides: rides, destination: try c.decodeIfPresent(JourneyStop.self, forKey: .destination),
                      walks: try c.decodeIfPresent([Int].self, forKey: .walks) ?? Array(repeating: 0, count: max(rides.count - 1, 0)))
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(rides, forKey: .rides)
            try c.encodeIfPresent(destination, forKey: .destination)
            try c.encode(walks, forKey: .walks)
        }

        // The courses follow from the rides.
        public static func == (a: JourneyState, b: JourneyState) -> Bool { a.rides == b.rides && a.destination == b.destination && a.walks == b.walks }
        public func hash(into hasher: inout Hasher) { hasher.combine(rides); hasher.combine(destination); hasher.combine(walks) }
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

    // MARK: Positions

    /// Keeps a believable fix: precise enough, and neither a move faster than the traveller can go
    /// (by the mode of the ride under way, on foot between rides) nor, on a ride, ahead of the
    /// vehicle's estimate or off its line by more than the fix's accuracy allows. A doubtful fix is
    /// held: a second fix that agrees with it is believed (as is one where the traveller was last
    /// believed to be: it says nothing new); one that does not replaces it.
    private mutating func accept(_ fix: Fix) -> Bool {
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

    private mutating func believe(_ fix: Fix) {
        doubtful = nil
        if lastFix.map({ fix.at >= $0.at }) ?? true { lastFix = fix }
        learn(fix)
    }

    /// A believed position on a ride with no live times tells how late its vehicle runs.
    private mutating func learn(_ fix: Fix) {
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
    private func speedLimit(at t: Instant) -> Double {
        guard let (ride, _) = rideUnderWay(at: t) else { return TravelSpeed.walking }
        return TravelSpeed.fastest(routeType: ride.routeType) ?? settings.fastestMove
    }

    /// A stop of the journey (a boarding, a call or an alighting) by its ID or its station's.
    private func journeyStop(_ id: String) -> JourneyStop? {
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
    private func isAt(_ stop: JourneyStop, now: Instant) -> Bool { beaconAt(stop, now: now) || fixAt(stop, now: now) }

    private func beaconAt(_ stop: JourneyStop, now: Instant) -> Bool {
        guard let b = lastBeacon, now.epochSeconds - b.at.epochSeconds <= 120 else { return false }
        return b.stopID == stop.stopID || b.stopID == stop.stationID
    }

    private func fixAt(_ stop: JourneyStop, now: Instant) -> Bool {
        guard let fix = freshFix(now: now) else { return false }
        return GreatCircle.metres(fix.latitude, fix.longitude, stop.latitude, stop.longitude) <= settings.radius + min(fix.accuracy, 50)
    }

    /// The last believed fix, if it is under two minutes old.
    private func freshFix(now: Instant) -> Fix? {
        guard let fix = lastFix, now.epochSeconds - fix.at.epochSeconds <= 120 else { return nil }
        return fix
    }

    private mutating func positionAlerts(now: Instant) -> [CommuteAlert] {
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

    private mutating func timeAlerts(now: Instant) -> [CommuteAlert] {
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
    private func pastStopBefore(_ target: Target, now: Instant) -> Bool {
        guard let fix = freshFix(now: now), let course = target.course, course.points.count >= 2 else { return false }
        let place = course.place(latitude: fix.latitude, longitude: fix.longitude)
        return place.offLine <= fix.accuracy + settings.radius && place.distance >= course.points[course.points.count - 2].distance + fix.accuracy + settings.radius
    }

    // MARK: A cancelled ride

    /// A ride not yet over that its live data says is cancelled: said at once (once per run), and the journey
    /// is planned again from where that ride would have been boarded (or, on board, from its next stop).
    private mutating func cancellations(now: Instant) -> [CommuteAlert] {
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
    private mutating func connectionsAtRisk(now: Instant) {
        guard replanFrom == nil else { return }
        for i in journey.rides.indices.dropLast() where i < journey.walks.count {
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
    private func pendingConnection() -> (station: JourneyStop, next: TransitLeg, after: Instant?)? {
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
    private mutating func missedConnection(now: Instant) -> [CommuteAlert] {
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

    // MARK: Targets

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
        LocalTime(i, in: TimeZone(identifier: stop.timeZone) ?? .gmt).hhmm
    }
}
