import Foundation
import OnwardCore

/// What a check of a watched journey found: the watched option as the live data has it now.
public struct WatchFindings: Sendable, Hashable, Codable {
    /// A ride of it is cancelled, or no longer calls where it is boarded.
    public var cancelled: Bool = false
    /// The ride that is (its route's short name), when cancelled.
    public var cancelledRide: String?
    /// How late it is, in whole minutes: the later of the departure and the arrival (0 when on time or early).
    public var delayMinutes: Int = 0
    /// The first ride's platform, when the live data moved it from the timetable's.
    public var platform: String?
    /// Where a change can no longer be made (the live margin is shorter than the walk), when one cannot.
    public var lostChangeAt: String?
    /// The live departure and arrival.
    public var departure: Instant
    public var arrival: Instant

    public init(departure: Instant, arrival: Instant) { self.departure = departure; self.arrival = arrival }

    /// A departure the day's timetable does not have: as good as cancelled.
    public static func notRunning(at departure: Instant) -> WatchFindings {
        var f = WatchFindings(departure: departure, arrival: departure)
        f.cancelled = true
        return f
    }

    /// The findings for `option` as the timetable has it and `live`, the same journey with the live data now.
    public init(option: Journey, live: Journey) {
        self.init(departure: live.departure, arrival: live.arrival)
        if let ride = live.rides.first(where: { $0.status == .cancelled || $0.status == .skipped }) {
            cancelled = true
            cancelledRide = ride.routeShortName
        }
        func lateMinutes(_ expected: Instant, _ scheduled: Instant) -> Int { max(0, Int(expected.epochSeconds - scheduled.epochSeconds) / 60) }
        delayMinutes = max(lateMinutes(live.departure, option.departure), lateMinutes(live.arrival, option.arrival))
        if let now = live.rides.first?.from.platform, now != option.rides.first?.from.platform { platform = now }
        lostChangeAt = live.changes.first { !$0.canBeMade }?.arrivingAt.name
    }

    /// What a watcher has not been told yet, given what they were last told (`told`; nil: nothing yet) and their
    /// threshold: the most important change first, nil when nothing worth a message changed. A delay is news when
    /// it reaches the threshold, and again when it moves by the threshold from the delay last told, so a train
    /// drifting a minute at a time gives one message per threshold, not one per poll.
    public func news(since told: WatchFindings?, thresholdMinutes: Int) -> WatchNotice.Kind? {
        let before = told ?? WatchFindings(departure: departure, arrival: arrival)
        if cancelled && !before.cancelled { return .cancelled }
        if !cancelled && before.cancelled { return .reinstated }
        if cancelled { return nil }
        if let at = lostChangeAt, at != before.lostChangeAt { return .connectionLost }
        let late = delayMinutes >= thresholdMinutes, wasLate = before.delayMinutes >= thresholdMinutes
        if late && (!wasLate || abs(delayMinutes - before.delayMinutes) >= thresholdMinutes) { return .delayed }
        if !late && wasLate { return .backOnTime }
        if let platform, platform != before.platform { return .platformChanged }
        return nil
    }
}

/// One message to a watcher: what changed, why, and what to take instead.
public struct WatchNotice: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case delayed, backOnTime, cancelled, reinstated, platformChanged, connectionLost
    }

    /// The best other way to go, from the planner with the live data.
    public struct Alternative: Sendable, Hashable, Codable {
        public var departure: Instant
        public var arrival: Instant
        /// The first ride's route short name.
        public var route: String
        /// Minutes later (negative: sooner) than the watched option was to arrive by the timetable; nil when
        /// the day's timetable does not have the option.
        public var laterMinutes: Int?

        public init(departure: Instant, arrival: Instant, route: String, laterMinutes: Int?) {
            self.departure = departure; self.arrival = arrival; self.route = route; self.laterMinutes = laterMinutes
        }

        /// The journey of `journeys` arriving first that is not the watched option (other rides, or the same
        /// first ride and another after a lost change) and can be made (no ride cancelled, every
        /// change possible), compared with the option's timetabled arrival; nil when there is none.
        public static func best(of journeys: [Journey], besides option: Journey?) -> Alternative? {
            func runs(_ j: Journey) -> [String] { j.rides.map { "\($0.tripID) \($0.serviceDate)" } }
            let usable = journeys.filter { j in
                option.map { runs(j) != runs($0) } ?? true
                    && !j.rides.contains { $0.status == .cancelled || $0.status == .skipped }
                    && j.changes.allSatisfy(\.canBeMade)
            }
            guard let best = usable.min(by: { ($0.arrival, $0.departure) < ($1.arrival, $1.departure) }) else { return nil }
            return Alternative(departure: best.departure, arrival: best.arrival, route: best.rides.first?.routeShortName ?? "",
                               laterMinutes: option.map { Int((best.arrival.epochSeconds - $0.arrival.epochSeconds) / 60) })
        }
    }

    public var kind: Kind
    /// When it was found.
    public var at: Instant
    /// The watched departure (by the timetable) it is about.
    public var departure: Instant
    public var findings: WatchFindings
    public var alternative: Alternative?
    /// In words, for a notification: "The 07:40 to Bundaran HI is cancelled: take the 07:48, arriving 08:19, 3 min later."
    public var message: String

    public init(kind: Kind, at: Instant, departure: Instant, findings: WatchFindings, alternative: Alternative?, destination: String, zone: TimeZone) {
        self.kind = kind; self.at = at; self.departure = departure; self.findings = findings; self.alternative = alternative
        message = Self.message(kind, departure: departure, findings: findings, alternative: alternative, destination: destination, zone: zone)
    }

    /// Whether the kind calls for another way to go.
    public static func wantsAlternative(_ kind: Kind) -> Bool { kind == .cancelled || kind == .connectionLost || kind == .delayed }

    static func message(_ kind: Kind, departure: Instant, findings f: WatchFindings, alternative: Alternative?, destination: String,
                        zone: TimeZone) -> String {
        func clock(_ i: Instant) -> String { LocalTime(i, in: zone).hhmm }
        let the = "The \(clock(departure)) to \(destination)"
        func instead(_ lead: String) -> String {
            guard let a = alternative else { return lead + (kind == .delayed ? "." : ", and no other way was found.") }
            let later = a.laterMinutes.map { $0 == 0 ? ", on time" : $0 > 0 ? ", \($0) min later" : ", \(-$0) min sooner" } ?? ""
            return lead + ": take the \(clock(a.departure)), arriving \(clock(a.arrival))\(later)."
        }
        switch kind {
        case .cancelled:
            return instead("\(the) is cancelled" + (f.cancelledRide.map { $0.isEmpty ? "" : " (the \($0))" } ?? ""))
        case .connectionLost:
            return instead("\(the): the change at \(f.lostChangeAt ?? "?") can no longer be made")
        case .delayed:
            let lead = "\(the) is \(f.delayMinutes) min late: it leaves at \(clock(f.departure)) and arrives at \(clock(f.arrival))"
            // Only an alternative that arrives sooner than the late train is worth naming.
            if let a = alternative, a.arrival < f.arrival { return instead(lead) }
            return lead + "."
        case .backOnTime:
            return "\(the) is running on time again: it leaves at \(clock(f.departure))."
        case .reinstated:
            return "\(the) is running again: it leaves at \(clock(f.departure))."
        case .platformChanged:
            return "\(the) now leaves from platform \(f.platform ?? "?")."
        }
    }
}
