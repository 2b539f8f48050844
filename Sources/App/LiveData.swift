import DataSources
import Foundation
import GTFSRealtime
import OnwardCore
import Timetable

/// Realtime data read once from files or URLs: the overlay for boards and
/// services, the decoded messages (for alerts), and what went wrong. A source
/// that fails is reported, never fatal: boards then say "no live data".
public struct LiveData: Sendable {
    public struct SourceReport: Sendable {
        public var source: String
        public var kinds: [String]
        public var report: RealtimeMatchReport?
        public var error: SourceError?
    }

    public var overlay = RealtimeOverlay.empty
    /// The vehicle positions, alerts and other non-trip-update entities of each message read.
    public var messages: [TransitRealtime_FeedMessage] = []
    public var sources: [SourceReport] = []

    public init() {}

    /// Whether any source delivered data.
    public var isLive: Bool { sources.contains { $0.error == nil } }

    /// Reads each input (a file path or an http(s) URL); each may hold trip
    /// updates, vehicle positions or alerts, in any mix.
    public static func load(_ inputs: [String], timetable: Timetable, idPrefix: String = "", fetcher: any HTTPFetching,
                            now: Instant = .now()) async -> LiveData {
        var live = LiveData()
        for input in inputs {
            do {
                let bytes = try await RealtimeInput.load(input, fetcher: fetcher)
                let message = try RealtimeFeed.decode(bytes, source: input)
                live.apply(message, source: input, timetable: timetable, idPrefix: idPrefix, now: now)
            } catch {
                live.sources.append(SourceReport(source: input, kinds: [], report: nil, error: error))
            }
        }
        return live
    }

    /// Applies one decoded message to the overlay.
    public mutating func apply(_ message: RealtimeMessage, source: String, timetable: Timetable, idPrefix: String,
                               now: Instant) {
        var kinds: [String] = []
        var report = RealtimeMatchReport()
        if !message.tripUpdates.isEmpty {
            kinds.append("trip updates")
            (overlay, report) = TripUpdateApplier(timetable: timetable, idPrefix: idPrefix).apply(message, to: overlay, now: now)
        }
        if message.hasVehicles {
            kinds.append("vehicle positions")
            let r: RealtimeMatchReport
            (overlay, r) = VehiclePositionApplier(timetable: timetable, idPrefix: idPrefix).apply(message.others, to: overlay, now: now)
            report.entities = message.entityCount
            report.vehiclePositions = r.vehiclePositions
            report.matchedVehicles = r.matchedVehicles
            report.unknownVehicleTrips = r.unknownVehicleTrips
            report.unmatchedInstances += r.unmatchedInstances
        }
        if message.hasAlerts { kinds.append("alerts") }
        if kinds.isEmpty { kinds.append("no entities") }
        messages.append(message.others)
        sources.append(SourceReport(source: source, kinds: kinds, report: report, error: nil))
    }

    /// The same, for a message built in code.
    public mutating func apply(_ message: TransitRealtime_FeedMessage, source: String, timetable: Timetable, idPrefix: String,
                               now: Instant) {
        apply(RealtimeMessage(message), source: source, timetable: timetable, idPrefix: idPrefix, now: now)
    }
}

extension LiveData {
    /// The alerts of every message read, resolved against the timetable.
    public func alertBook(_ timetable: Timetable) -> AlertBook {
        let prefix = timetable.feeds.first?.idPrefix ?? ""
        return AlertBook(alerts: messages.flatMap { AlertDecoding.alerts(from: $0, idPrefix: prefix) }, timetable: timetable)
    }

    /// Adds the demonstration source's data, labelled as simulated.
    public mutating func applySimulation(timetable: Timetable, now: Instant) {
        let prefix = timetable.feeds.first?.idPrefix ?? ""
        let simulated = SimulatedFeed(timetable: timetable, idPrefix: prefix).messages(at: now)
        for (name, message) in simulated.bySource {
            apply(message, source: name, timetable: timetable, idPrefix: prefix, now: now)
        }
        overlay.isSimulated = true
    }
}
