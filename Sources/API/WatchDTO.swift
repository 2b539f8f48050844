import Commute
import Foundation
import OnwardCore

/// `POST /api/v1/me/watches`: watch a journey option ("my 07:40 to work, on weekdays").
public struct WatchRequestDTO: Codable, Sendable, Equatable {
    /// Where from and to: stop or station IDs (or names), as a journey request takes them.
    public var from: String
    public var to: String
    /// The option's departure, ISO 8601 with its offset: its time of day is watched, and, without `days`, its date.
    public var departure: String
    /// The days of the week it is watched on (`mon` … `sun`); absent or empty: only `departure`'s date.
    public var days: [String]?
    /// How long before the departure the watching starts (5–180, default 30).
    public var leadMinutes: Int?
    /// A delay is news from this many minutes, and again when it moves by as many (1–60, default 3).
    public var thresholdMinutes: Int?
    public var name: String?

    public init(from: String, to: String, departure: String, days: [String]? = nil, leadMinutes: Int? = nil, thresholdMinutes: Int? = nil,
                name: String? = nil) {
        self.from = from; self.to = to; self.departure = departure; self.days = days
        self.leadMinutes = leadMinutes; self.thresholdMinutes = thresholdMinutes; self.name = name
    }
}

/// One watched journey, and what its watcher was told of it.
public struct WatchDTO: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var from: String
    public var fromName: String
    public var to: String
    public var toName: String
    /// The departure's local time, `HH:MM`, in `timeZone`.
    public var time: String
    public var timeZone: String
    /// `mon` … `sun`; empty for a one-day watch (`date`).
    public var days: [String]
    /// `YYYY-MM-DD`, for a one-day watch.
    public var date: String?
    public var leadMinutes: Int
    public var thresholdMinutes: Int
    /// The next departure watched, ISO 8601 local with offset; absent once a one-day watch's day has passed.
    public var nextDeparture: String?
    /// What was said, oldest first (the last ten).
    public var notices: [WatchNoticeDTO]

    public init(id: String, watch w: JourneyWatch, notices: [WatchNotice], now: Instant) {
        let zone = TimeZone.named(w.timeZone)
        self.id = id; name = w.name; from = w.from; fromName = w.fromName; to = w.to; toName = w.toName
        time = String(format: "%02d:%02d", w.departureSeconds / 3600, w.departureSeconds / 60 % 60)
        timeZone = w.timeZone; days = w.days.sorted().map { JourneyWatch.dayNames[$0] }; date = w.date?.isoString
        leadMinutes = w.leadMinutes; thresholdMinutes = w.thresholdMinutes
        nextDeparture = w.nextDeparture(after: now).map { LocalTime($0, in: zone).iso8601 }
        self.notices = notices.map { WatchNoticeDTO($0, zone: zone) }
    }
}

/// `GET /api/v1/me/watches`.
public struct WatchesDTO: Codable, Sendable, Equatable {
    public var watches: [WatchDTO]
    public init(watches: [WatchDTO]) { self.watches = watches }
}

/// One message to a watcher: in the API, on the live channel (`watchNotice`), and as the push's body.
public struct WatchNoticeDTO: Codable, Sendable, Equatable {
    /// `delayed`, `backOnTime`, `cancelled`, `reinstated`, `platformChanged` or `connectionLost`.
    public var kind: String
    /// When it was found, and the watched departure (by the timetable): ISO 8601 local with offset.
    public var at: String
    public var departure: String
    public var message: String
    /// The option as found: live departure and arrival, minutes late, cancelled, new platform, where a change was lost.
    public var expectedDeparture: String
    public var expectedArrival: String
    public var delayMinutes: Int
    public var cancelled: Bool
    public var platform: String?
    public var lostChangeAt: String?
    public var alternative: WatchAlternativeDTO?

    public init(_ n: WatchNotice, zone: TimeZone) {
        func local(_ i: Instant) -> String { LocalTime(i, in: zone).iso8601 }
        kind = n.kind.rawValue; at = local(n.at); departure = local(n.departure); message = n.message
        expectedDeparture = local(n.findings.departure); expectedArrival = local(n.findings.arrival)
        delayMinutes = n.findings.delayMinutes; cancelled = n.findings.cancelled; platform = n.findings.platform
        lostChangeAt = n.findings.lostChangeAt
        alternative = n.alternative.map {
            WatchAlternativeDTO(departure: local($0.departure), arrival: local($0.arrival), route: $0.route, laterMinutes: $0.laterMinutes)
        }
    }
}

/// The best other way to go, when a notice names one.
public struct WatchAlternativeDTO: Codable, Sendable, Equatable {
    public var departure: String
    public var arrival: String
    /// The first ride's route short name.
    public var route: String
    /// Minutes later (negative: sooner) than the watched option was to arrive by the timetable (absent when the
    /// day's timetable does not have the option).
    public var laterMinutes: Int?
}

/// `/live?me`'s message for a watched journey's notice.
public struct WatchNoticeMessage: Codable, Sendable, Equatable {
    public var type = "watchNotice"
    public var notice: WatchNoticeDTO
    public init(notice: WatchNoticeDTO) { self.notice = notice }
}
