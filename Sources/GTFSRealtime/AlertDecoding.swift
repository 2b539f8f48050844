import DataSources
import Foundation
import OnwardCore

/// Turns GTFS-Realtime alerts into `Alert` values.
public enum AlertDecoding {
    /// The alerts of a message: every entity with an `alert`, except those marked
    /// `is_deleted`, in feed order. `idPrefix` (the bound static feed's `name:`) is
    /// put before every agency, route, trip and stop ID so they are canonical and
    /// match the timetable's; the alerts' own IDs are left as the feed gave them.
    public static func alerts(from message: TransitRealtime_FeedMessage, idPrefix: String = "") -> [Alert] {
        message.entity.compactMap { entity in
            guard entity.hasAlert, !entity.isDeleted else { return nil }
            return alert(entity.alert, id: entity.id, idPrefix: idPrefix)
        }
    }

    /// Decodes bytes and returns their alerts; throws `.undecodable` for anything that is not a feed.
    public static func alerts(from bytes: Data, source: String = "feed", idPrefix: String = "") throws(SourceError) -> [Alert] {
        alerts(from: try RealtimeFeed.decode(bytes, source: source).others, idPrefix: idPrefix)
    }

    static func alert(_ a: TransitRealtime_Alert, id: String, idPrefix: String) -> Alert {
        Alert(id: id,
              activePeriods: a.activePeriod.map(period),
              informedEntities: a.informedEntity.map { entity($0, idPrefix: idPrefix) },
              cause: a.hasCause ? cause(a.cause) : .unknown,
              effect: a.hasEffect ? effect(a.effect) : .unknown,
              severity: a.hasSeverityLevel ? severity(a.severityLevel) : .unknown,
              header: text(a.headerText), description: text(a.descriptionText), url: text(a.url))
    }

    /// A bound of 0 is read as absent: some producers write 0 for "not set", and
    /// taken literally an end of 0 would hide the alert forever.
    static func period(_ r: TransitRealtime_TimeRange) -> Alert.ActivePeriod {
        Alert.ActivePeriod(start: r.hasStart && r.start > 0 ? Instant(epochSeconds: Int64(clamping: r.start)) : nil,
                           end: r.hasEnd && r.end > 0 ? Instant(epochSeconds: Int64(clamping: r.end)) : nil)
    }

    static func entity(_ s: TransitRealtime_EntitySelector, idPrefix: String) -> Alert.InformedEntity {
        var e = Alert.InformedEntity()
        if s.hasAgencyID { e.agencyID = idPrefix + s.agencyID }
        if s.hasRouteID { e.routeID = idPrefix + s.routeID }
        if s.hasRouteType { e.routeType = Int(s.routeType) }
        if s.hasDirectionID { e.directionID = Int(s.directionID) }
        if s.hasStopID { e.stopID = idPrefix + s.stopID }
        if s.hasTrip {
            let t = s.trip
            if t.hasTripID { e.tripID = idPrefix + t.tripID }
            if t.hasRouteID { e.tripRouteID = idPrefix + t.routeID }
            if t.hasDirectionID { e.tripDirectionID = Int(t.directionID) }
            if t.hasStartTime { e.tripStartTime = t.startTime }
            if t.hasStartDate { e.tripStartDate = t.startDate }
        }
        return e
    }

    static func text(_ s: TransitRealtime_TranslatedString) -> LocalizedText {
        LocalizedText(s.translation.map {
            LocalizedText.Translation(text: $0.text, language: $0.hasLanguage && !$0.language.isEmpty ? $0.language : nil)
        })
    }

    static func cause(_ c: TransitRealtime_Alert.Cause) -> Alert.Cause {
        switch c {
        case .unknownCause: .unknown
        case .otherCause: .other
        case .technicalProblem: .technicalProblem
        case .strike: .strike
        case .demonstration: .demonstration
        case .accident: .accident
        case .holiday: .holiday
        case .weather: .weather
        case .maintenance: .maintenance
        case .construction: .construction
        case .policeActivity: .policeActivity
        case .medicalEmergency: .medicalEmergency
        }
    }

    static func effect(_ e: TransitRealtime_Alert.Effect) -> Alert.Effect {
        switch e {
        case .noService: .noService
        case .reducedService: .reducedService
        case .significantDelays: .significantDelays
        case .detour: .detour
        case .additionalService: .additionalService
        case .modifiedService: .modifiedService
        case .otherEffect: .other
        case .unknownEffect: .unknown
        case .stopMoved: .stopMoved
        case .noEffect: .noEffect
        case .accessibilityIssue: .accessibilityIssue
        }
    }

    static func severity(_ s: TransitRealtime_Alert.SeverityLevel) -> Alert.Severity {
        switch s {
        case .unknownSeverity: .unknown
        case .info: .info
        case .warning: .warning
        case .severe: .severe
        }
    }
}
