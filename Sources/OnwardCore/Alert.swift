import Foundation

/// A service alert: something a traveller should know about a stop, a route, a
/// trip or a whole network, for some periods of time (GTFS-Realtime `Alert`,
/// but not tied to it: any source can produce these).
public struct Alert: Sendable, Hashable, Identifiable {
    /// The source's ID of the alert (a GTFS-Realtime entity ID).
    public var id: String
    /// When the alert applies. Empty means always, as GTFS-Realtime says.
    public var activePeriods: [ActivePeriod]
    /// What the alert is about. IDs are canonical: they carry the static feed's `name:` prefix.
    public var informedEntities: [InformedEntity]
    public var cause: Cause
    public var effect: Effect
    public var severity: Severity
    public var header: LocalizedText
    public var description: LocalizedText
    public var url: LocalizedText

    public init(id: String, activePeriods: [ActivePeriod] = [], informedEntities: [InformedEntity] = [],
                cause: Cause = .unknown, effect: Effect = .unknown, severity: Severity = .unknown,
                header: LocalizedText = LocalizedText(), description: LocalizedText = LocalizedText(),
                url: LocalizedText = LocalizedText()) {
        self.id = id; self.activePeriods = activePeriods; self.informedEntities = informedEntities
        self.cause = cause; self.effect = effect; self.severity = severity
        self.header = header; self.description = description; self.url = url
    }

    /// Whether any active period contains `instant`; an alert without periods is always active.
    public func isActive(at instant: Instant) -> Bool {
        activePeriods.isEmpty || activePeriods.contains { $0.contains(instant) }
    }

    /// Whether the alert applies at any moment of `range` (a board's time window).
    public func isActive(during range: ClosedRange<Instant>) -> Bool {
        activePeriods.isEmpty || activePeriods.contains { $0.overlaps(range) }
    }

    /// The period that contains `instant`, if any (nil for an alert without periods).
    public func period(containing instant: Instant) -> ActivePeriod? {
        activePeriods.first { $0.contains(instant) }
    }

    /// The earliest start among the periods; nil when the alert has no periods or one is open at its start.
    public var earliestStart: Instant? {
        guard !activePeriods.isEmpty else { return nil }
        var earliest: Instant?
        for p in activePeriods {
            guard let s = p.start else { return nil }
            if earliest == nil || s < earliest! { earliest = s }
        }
        return earliest
    }

    /// Whether a board shows this alert above its departures rather than below.
    ///
    /// The rule: an explicit `severe` is always high priority and an explicit
    /// `info` never is. Otherwise (unknown or `warning`, which is what most feeds
    /// send) the effect decides: it is high priority when it changes whether, where
    /// or when a traveller can board — `noService`, `reducedService`,
    /// `significantDelays`, `detour` and `stopMoved`. Vaguer effects
    /// (`modifiedService`, `otherEffect`, `accessibilityIssue`, …) go below.
    public var isHighPriority: Bool {
        switch severity {
        case .severe: return true
        case .info: return false
        case .warning, .unknown:
            switch effect {
            case .noService, .reducedService, .significantDelays, .detour, .stopMoved: return true
            default: return false
            }
        }
    }

    /// Most severe first, then earliest start (an open start counts as earliest), then ID, so lists are stable.
    public static func mostSevereFirst(_ a: Alert, _ b: Alert) -> Bool {
        if a.severity != b.severity { return a.severity > b.severity }
        let sa = a.earliestStart?.epochSeconds ?? .min, sb = b.earliestStart?.epochSeconds ?? .min
        if sa != sb { return sa < sb }
        return a.id < b.id
    }
}

extension Alert {
    /// A time interval during which an alert applies: `start` inclusive, `end`
    /// exclusive, each open when nil (the GTFS-Realtime `TimeRange` rule).
    public struct ActivePeriod: Sendable, Hashable {
        public var start: Instant?
        public var end: Instant?

        public init(start: Instant?, end: Instant?) { self.start = start; self.end = end }

        public func contains(_ instant: Instant) -> Bool {
            if let start, instant < start { return false }
            if let end, instant >= end { return false }
            return true
        }

        /// Whether the period and `range` share a moment.
        public func overlaps(_ range: ClosedRange<Instant>) -> Bool {
            if let start, range.upperBound < start { return false }
            if let end, range.lowerBound >= end { return false }
            return true
        }
    }

    /// One thing an alert is about. Fields given together narrow each other (logical AND,
    /// as GTFS-Realtime's `EntitySelector`): route 7 at stop 6096 is route 7 only there.
    public struct InformedEntity: Sendable, Hashable {
        public var agencyID: String?
        public var routeID: String?
        public var routeType: Int?
        public var directionID: Int?
        public var tripID: String?
        /// The route named inside a trip descriptor (which may come without a trip ID).
        public var tripRouteID: String?
        public var tripDirectionID: Int?
        /// GTFS `HH:MM:SS` and `YYYYMMDD` of one run of the trip, when the feed narrows it so.
        public var tripStartTime: String?
        public var tripStartDate: String?
        public var stopID: String?

        public init(agencyID: String? = nil, routeID: String? = nil, routeType: Int? = nil, directionID: Int? = nil,
                    tripID: String? = nil, tripRouteID: String? = nil, tripDirectionID: Int? = nil,
                    tripStartTime: String? = nil, tripStartDate: String? = nil, stopID: String? = nil) {
            self.agencyID = agencyID; self.routeID = routeID; self.routeType = routeType; self.directionID = directionID
            self.tripID = tripID; self.tripRouteID = tripRouteID; self.tripDirectionID = tripDirectionID
            self.tripStartTime = tripStartTime; self.tripStartDate = tripStartDate; self.stopID = stopID
        }

        /// Names nothing at all (a selector the feed sent empty).
        public var isEmpty: Bool {
            agencyID == nil && routeID == nil && routeType == nil && directionID == nil && tripID == nil
                && tripRouteID == nil && stopID == nil
        }
    }

    /// Why (GTFS-Realtime `Cause`). Raw values are the wire names of the JSON API.
    public enum Cause: String, Sendable, Hashable, Codable, CaseIterable {
        case unknown, other, technicalProblem, strike, demonstration, accident, holiday, weather, maintenance
        case construction, policeActivity, medicalEmergency

        /// "medical emergency", for a line of text.
        public var words: String { Alert.words(rawValue) }
    }

    /// What happens to service (GTFS-Realtime `Effect`). Raw values are the wire names of the JSON API.
    public enum Effect: String, Sendable, Hashable, Codable, CaseIterable {
        case noService, reducedService, significantDelays, detour, additionalService, modifiedService
        case other, unknown, stopMoved, noEffect, accessibilityIssue

        /// "significant delays", for a line of text.
        public var words: String { Alert.words(rawValue) }
    }

    /// How bad it is. Ordered: `severe > warning > info > unknown`.
    public enum Severity: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
        case unknown, info, warning, severe

        private var rank: Int {
            switch self {
            case .unknown: 0
            case .info: 1
            case .warning: 2
            case .severe: 3
            }
        }

        public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
    }

    /// "significantDelays" → "significant delays".
    static func words(_ camel: String) -> String {
        var out = ""
        for c in camel {
            if c.isUppercase { out += " " + c.lowercased() } else { out.append(c) }
        }
        return out
    }
}

/// A text in the languages a source gives it (GTFS-Realtime `TranslatedString`).
public struct LocalizedText: Sendable, Hashable {
    /// One language's text. `language` is a BCP-47 tag, or nil for the feed's default language.
    public struct Translation: Sendable, Hashable {
        public var text: String
        public var language: String?

        public init(text: String, language: String? = nil) { self.text = text; self.language = language }
    }

    /// In the source's order; translations with empty text are dropped on creation.
    public let translations: [Translation]

    public init(_ translations: [Translation] = []) {
        self.translations = translations.filter { !$0.text.isEmpty }
    }

    /// A text in one, untagged language.
    public init(_ text: String) { self.init([Translation(text: text)]) }

    public var isEmpty: Bool { translations.isEmpty }

    /// The text to show a person who prefers `preferredLanguages` (most preferred first).
    public func best(for preferredLanguages: [String]) -> String? { bestTranslation(for: preferredLanguages)?.text }

    /// The translation to show, so callers can also say which language they chose.
    ///
    /// For each preferred tag in turn: an exact match (case-insensitive, `_` read as `-`),
    /// then a translation in the same base language ("en" for "en-US", and "en-GB" for
    /// "en" when nothing closer exists). With no preference met, the untagged translation
    /// (the feed's default language, as GTFS-Realtime defines it), else the feed's first.
    public func bestTranslation(for preferredLanguages: [String]) -> Translation? {
        guard !translations.isEmpty else { return nil }
        let tags = translations.map { $0.language.map(LocalizedText.normalise) }
        for wanted in preferredLanguages.map(LocalizedText.normalise) where !wanted.isEmpty {
            if let i = tags.firstIndex(where: { $0 == wanted }) { return translations[i] }
            let base = LocalizedText.base(wanted)
            if let i = tags.firstIndex(where: { $0 == base }) { return translations[i] }
            if let i = tags.firstIndex(where: { $0.map(LocalizedText.base) == base }) { return translations[i] }
        }
        if let i = tags.firstIndex(where: { $0 == nil || $0 == "" }) { return translations[i] }
        return translations[0]
    }

    static func normalise(_ tag: String) -> String {
        tag.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "-").lowercased()
    }

    static func base(_ tag: String) -> String { String(tag.split(separator: "-", maxSplits: 1).first ?? "") }
}
