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
    /// The last position believed, and a jump waiting for a second position to confirm it.
    private var lastFix: Fix?
    private var pendingJump: Fix?
    /// The last stop a beacon was seen at, and when.
    private var lastBeacon: Sighting?
    /// Set when a change was missed: the driver plans again from there and hands the new journey in.
    public private(set) var replanFrom: JourneyStop?
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

    /// The journey being made, as the session reads it.
    public struct JourneyState: Sendable, Codable, Hashable {
        public var rides: [TransitLeg]
        public var destination: JourneyStop?

        init(_ j: Journey) {
            rides = j.rides
            destination = j.legs.last?.toStop
        }
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
            alerts += positionAlerts(now: now)
        case .tick:
            break
        case .journey(let j, _):
            journey = JourneyState(j)
            replanFrom = nil
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
        }
        if let next = pendingConnection(), let leaves = next.after { times.append(leaves.adding(seconds: Int64(settings.missedGraceSeconds) + 1)) }
        return times.filter { $0 > now }.min()
    }

    // MARK: Positions

    /// Keeps a believable fix: precise enough, and not a jump faster than any vehicle
    /// unless the next fix agrees with the jump.
    private mutating func accept(_ fix: Fix) -> Bool {
        guard fix.accuracy.isFinite, fix.accuracy <= settings.worstAccuracy, fix.latitude.isFinite, fix.longitude.isFinite else { return false }
        // Fixes come a second or less apart (times are whole seconds): a second at least between two.
        func speed(_ a: Fix, _ b: Fix) -> Double {
            GreatCircle.metres(a.latitude, a.longitude, b.latitude, b.longitude) / Double(max(b.at.epochSeconds - a.at.epochSeconds, 1))
        }
        if let last = lastFix, fix.at >= last.at {
            if speed(last, fix) > settings.fastestMove {
                if let pending = pendingJump, fix.at >= pending.at, speed(pending, fix) <= settings.fastestMove {
                    pendingJump = nil
                    lastFix = fix
                    return true
                }
                pendingJump = fix
                return false
            }
        }
        pendingJump = nil
        lastFix = fix
        return true
    }

    /// Whether the traveller is at a stop now: the last fix within the radius (allowing for its
    /// accuracy, up to 50 m), or a beacon of that stop (or of its station) in the last two minutes.
    private func isAt(_ stop: JourneyStop, now: Instant) -> Bool {
        if let b = lastBeacon, now.epochSeconds - b.at.epochSeconds <= 120, b.stopID == stop.stopID || b.stopID == stop.stationID {
            return true
        }
        guard let fix = lastFix, now.epochSeconds - fix.at.epochSeconds <= 120 else { return false }
        return GreatCircle.metres(fix.latitude, fix.longitude, stop.latitude, stop.longitude) <= settings.radius + min(fix.accuracy, 50)
    }

    private mutating func positionAlerts(now: Instant) -> [CommuteAlert] {
        var alerts: [CommuteAlert] = []
        let started = journey.rides.first.map { now >= $0.expectedDeparture ?? $0.departure } ?? true
        if settings.nearStation, !started, let fix = lastFix {
            for s in stations where GreatCircle.metres(fix.latitude, fix.longitude, s.latitude, s.longitude) <= settings.radius + min(fix.accuracy, 50) {
                let key = "nearStation \(s.id)"
                if fired.insert(key).inserted {
                    alerts.append(CommuteAlert(at: now, kind: .nearStation, stopID: s.id, stopName: s.name,
                                               message: "You are near \(s.name)."))
                }
            }
        }
        // Arriving, by position: only once the ride that goes there has left.
        for target in targets() where target.kind != .vehicleArriving && !fired.contains(target.key) {
            if let leaves = target.rideLeaves, now >= leaves, isAt(target.stop, now: now) {
                fired.insert(target.key)
                alerts.append(target.alert(at: now))
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
            alerts.append(target.alert(at: now))
        }
        return alerts
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
                             message: "You missed the \(time) \(next.routeShortName) to \(next.headsign) at \(next.from.name). Finding another way…")]
    }

    // MARK: Targets

    /// Something to say at a stop, with when to say it by the clock, and when its ride leaves.
    struct Target {
        var kind: CommuteAlert.Kind
        var stop: JourneyStop
        var timeTrigger: Instant?
        var rideLeaves: Instant?
        var message: String

        /// Once per station: a platform counts as its station.
        var key: String { Self.key(kind, stop) }
        static func key(_ kind: CommuteAlert.Kind, _ stop: JourneyStop) -> String { "\(kind.rawValue) \(stop.stationID ?? stop.stopID)" }

        func alert(at now: Instant) -> CommuteAlert {
            CommuteAlert(at: now, kind: kind, stopID: stop.stopID, stopName: stop.name, message: message)
        }
    }

    /// The alerts the journey calls for: its first vehicle arriving, then arriving at each change and at the end.
    /// "Arriving" is due when the vehicle leaves the stop before (or, riding one stop, the stop boarded).
    func targets() -> [Target] {
        var list: [Target] = []
        let rides = journey.rides
        if let first = rides.first {
            let leaves = first.expectedDeparture ?? first.departure
            let platform = first.from.platform.map { ", platform \($0)" } ?? ""
            list.append(Target(kind: .vehicleArriving, stop: first.from,
                               timeTrigger: leaves.adding(seconds: -Int64(settings.vehicleLeadSeconds)), rideLeaves: leaves,
                               message: "Your \(first.routeShortName) to \(first.headsign) is arriving at \(first.from.name)\(platform): it leaves at \(Self.clock(leaves, first.from))."))
        }
        for (i, ride) in rides.enumerated() {
            let leaves = ride.expectedDeparture ?? ride.departure
            let before = ride.calls.last.map { $0.expectedDeparture ?? $0.departure } ?? leaves
            if i + 1 < rides.count {
                let next = rides[i + 1]
                let nextLeaves = next.expectedDeparture ?? next.departure
                let platform = next.from.platform.map { ", platform \($0)" } ?? ""
                list.append(Target(kind: .arrivingAtTransfer, stop: ride.to, timeTrigger: before, rideLeaves: leaves,
                                   message: "Next stop \(ride.to.name): change to the \(next.routeShortName) to \(next.headsign)\(platform), leaving at \(Self.clock(nextLeaves, next.from))."))
            } else {
                list.append(Target(kind: .arrivingAtDestination, stop: ride.to, timeTrigger: before, rideLeaves: leaves,
                                   message: "Next stop \(ride.to.name): your stop. Time to get ready to get off."))
            }
        }
        return list
    }

    static func clock(_ i: Instant, _ stop: JourneyStop) -> String {
        LocalTime(i, in: TimeZone(identifier: stop.timeZone) ?? .gmt).hhmm
    }
}
