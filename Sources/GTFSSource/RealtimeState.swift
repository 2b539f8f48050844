import GTFSRealtime
import OnwardCore
import Timetable

/// Everything realtime sources have delivered: the overlay boards and services
/// read, the alerts, and what each source matched. A value: each update makes
/// a new one, which `LiveStore` swaps in whole. It belongs to one timetable.
public struct RealtimeState: Sendable {
    public var overlay = RealtimeOverlay.empty
    /// Alerts per source, so a source's new fetch replaces only its own.
    public private(set) var alertsBySource: [String: [Alert]] = [:]
    /// The alerts of every source, indexed against the timetable.
    public private(set) var alertBook: AlertBook?
    /// What each source's last message matched.
    public private(set) var reports: [String: RealtimeMatchReport] = [:]
    /// Each source's IDs, resolved once and kept for its next messages.
    private var feedIDs: [String: FeedIDs] = [:]

    public init() {}

    /// Applies one decoded message from `source`: trip updates and vehicle
    /// positions go into the overlay, alerts replace the source's previous alerts.
    public mutating func apply(_ message: RealtimeMessage, source: String, timetable: Timetable, idPrefix: String, now: Instant) {
        var report = RealtimeMatchReport()
        report.entities = message.entityCount
        if !message.tripUpdates.isEmpty {
            (overlay, report) = TripUpdateApplier(timetable: timetable, idPrefix: idPrefix)
                .apply(message, to: overlay, now: now, ids: &feedIDs[source, default: FeedIDs()])
        }
        if message.hasVehicles {
            let r: RealtimeMatchReport
            (overlay, r) = VehiclePositionApplier(timetable: timetable, idPrefix: idPrefix).apply(message.others, to: overlay, now: now)
            report.vehiclePositions = r.vehiclePositions
            report.matchedVehicles = r.matchedVehicles
            report.unknownVehicleTrips = r.unknownVehicleTrips
            report.unmatchedInstances += r.unmatchedInstances
        }
        let alerts = AlertDecoding.alerts(from: message.others, idPrefix: idPrefix)
        if !alerts.isEmpty || alertsBySource[source] != nil {
            alertsBySource[source] = alerts
            let all = alertsBySource.keys.sorted().flatMap { alertsBySource[$0] ?? [] }
            alertBook = AlertBook(alerts: all, timetable: timetable)
        }
        reports[source] = report
    }
}
