import Foundation
import OnwardCore

/// One alert on the wire, its texts already in the reader's language.
public struct AlertDTO: Codable, Sendable, Equatable {
    /// A period in ISO 8601 with the offset of the time zone asked for; nil bounds are open.
    public struct PeriodDTO: Codable, Sendable, Equatable {
        public var start: String?
        public var end: String?
    }

    /// An informed entity; absent fields are not part of it.
    public struct EntityDTO: Codable, Sendable, Equatable {
        public var agencyId: String?
        public var routeId: String?
        public var routeType: Int?
        public var directionId: Int?
        public var tripId: String?
        public var stopId: String?

        public init(_ e: Alert.InformedEntity) {
            agencyId = e.agencyID; routeId = e.routeID ?? e.tripRouteID; routeType = e.routeType
            directionId = e.directionID ?? e.tripDirectionID; tripId = e.tripID; stopId = e.stopID
        }
    }

    public var id: String
    /// `Alert.Cause` raw values, e.g. "construction", "medicalEmergency".
    public var cause: String
    /// `Alert.Effect` raw values, e.g. "detour", "significantDelays".
    public var effect: String
    /// "severe", "warning", "info" or "unknown".
    public var severity: String
    /// Whether a board shows it above the departures (`Alert.isHighPriority`).
    public var highPriority: Bool
    public var header: String?
    public var description: String?
    public var url: String?
    /// The language tag of the chosen header (or description) text, when the feed gave one.
    public var language: String?
    /// Empty: always active.
    public var activePeriods: [PeriodDTO]
    public var informedEntities: [EntityDTO]

    /// - Parameters:
    ///   - languages: the reader's languages, most preferred first (`LocalizedText.best(for:)`).
    ///   - timeZone: the zone whose offset the periods are written in (UTC when nil).
    public init(_ a: Alert, languages: [String], timeZone: TimeZone? = nil) {
        let zone = timeZone ?? .gmt
        id = a.id; cause = a.cause.rawValue; effect = a.effect.rawValue; severity = a.severity.rawValue
        highPriority = a.isHighPriority
        let h = a.header.bestTranslation(for: languages), d = a.description.bestTranslation(for: languages)
        // Feeds pad texts with spaces and newlines (BART's header ends in a space); readers get them trimmed.
        func trimmed(_ s: String?) -> String? { s?.trimmingCharacters(in: .whitespacesAndNewlines) }
        header = trimmed(h?.text); description = trimmed(d?.text); url = trimmed(a.url.best(for: languages))
        language = (h ?? d)?.language
        activePeriods = a.activePeriods.map {
            PeriodDTO(start: $0.start.map { LocalTime($0, in: zone).iso8601 }, end: $0.end.map { LocalTime($0, in: zone).iso8601 })
        }
        informedEntities = a.informedEntities.map(EntityDTO.init)
    }
}

/// The answer of `onward alerts --json` and of the alerts endpoint.
public struct AlertsDTO: Codable, Sendable, Equatable {
    /// The instant the alerts were filtered at, ISO 8601.
    public var at: String
    /// The stop or station asked about, if any.
    public var stop: StopDTO?
    /// The route asked about, if any.
    public var routeId: String?
    /// The trip asked about, if any.
    public var tripId: String?
    /// The time zone `at` and the periods are written in (the stop's, else the agency's).
    public var timeZone: String?
    /// Active at `at`, most severe first.
    public var alerts: [AlertDTO]
    /// Alerts the feeds hold (for this stop or route) that are not active at `at`.
    public var inactiveCount: Int
    /// All alerts the feeds hold, whatever they inform and whenever they apply.
    public var totalInFeeds: Int
    /// Remarks for an operator about the feeds' alerts ("Not in the timetable: 2 of 9 stops …").
    public var notes: [String]?

    public init(at: String, stop: StopPlace?, routeId: String?, alerts: [AlertDTO], inactiveCount: Int, totalInFeeds: Int) {
        self.at = at; self.stop = stop.map(StopDTO.init); self.routeId = routeId; self.alerts = alerts
        self.inactiveCount = inactiveCount; self.totalInFeeds = totalInFeeds
    }
}
