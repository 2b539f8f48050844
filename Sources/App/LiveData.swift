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
        /// The static feed whose IDs it was matched against (`--realtime NAME=…`, else the first feed).
        public var feed: String?
        public var kinds: [String]
        public var report: RealtimeMatchReport?
        public var error: SourceError?
    }

    public var overlay = RealtimeOverlay.empty
    /// The vehicle positions, alerts and other non-trip-update entities of each message read.
    public var messages: [TransitRealtime_FeedMessage] = []
    /// The ID prefix of the static feed each of `messages` belongs to.
    public var messagePrefixes: [String] = []
    public var sources: [SourceReport] = []

    public init() {}

    /// Whether any source delivered data.
    public var isLive: Bool { sources.contains { $0.error == nil } }

    /// Reads each input (a file path or an http(s) URL, or `NAME=` either to bind it to the
    /// static feed NAME); each may hold trip updates, vehicle positions or alerts, in any mix.
    /// An input that names no feed belongs to `idPrefix`'s, by default the first feed's.
    public static func load(_ inputs: [String], timetable: Timetable, idPrefix: String? = nil, fetcher: any HTTPFetching,
                            now: Instant = .now()) async -> LiveData {
        var live = LiveData()
        for input in inputs {
            let named = NamedFeedLocation(input)
            let location = named?.location.description ?? input
            let prefix: String
            if let name = named?.explicitName {
                guard let f = timetable.feed(named: name) else {
                    let known = timetable.feeds.map(\.name).joined(separator: ", ")
                    live.sources.append(SourceReport(source: input, feed: nil, kinds: [], report: nil,
                                                     error: SourceError(.configuration, "no static feed is named '\(name)' (loaded: \(known))")))
                    continue
                }
                prefix = f.idPrefix
            } else {
                prefix = idPrefix ?? timetable.defaultIDPrefix
            }
            do {
                let bytes = try await RealtimeInput.load(location, fetcher: fetcher)
                let message = try RealtimeFeed.decode(bytes, source: location)
                live.apply(message, source: input, timetable: timetable, idPrefix: prefix, now: now)
            } catch {
                let feed = timetable.feeds.first { $0.idPrefix == prefix }?.name
                live.sources.append(SourceReport(source: input, feed: feed, kinds: [], report: nil, error: error))
            }
        }
        return live
    }

    /// Applies one decoded message to the overlay; its bare IDs take `idPrefix` (nil: the first feed's).
    public mutating func apply(_ message: RealtimeMessage, source: String, timetable: Timetable, idPrefix: String? = nil,
                               now: Instant) {
        let idPrefix = idPrefix ?? timetable.defaultIDPrefix
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
        messagePrefixes.append(idPrefix)
        let feed = timetable.feeds.first { $0.idPrefix == idPrefix }?.name
        sources.append(SourceReport(source: source, feed: feed, kinds: kinds, report: report, error: nil))
    }

    /// The same, for a message built in code.
    public mutating func apply(_ message: TransitRealtime_FeedMessage, source: String, timetable: Timetable, idPrefix: String? = nil,
                               now: Instant) {
        apply(RealtimeMessage(message), source: source, timetable: timetable, idPrefix: idPrefix, now: now)
    }
}

extension LiveData {
    /// The alerts of every message read, resolved against the timetable.
    public func alertBook(_ timetable: Timetable) -> AlertBook {
        let alerts = zip(messages, messagePrefixes).flatMap { AlertDecoding.alerts(from: $0, idPrefix: $1) }
        return AlertBook(alerts: alerts, timetable: timetable)
    }

    /// Adds the demonstration source's data, labelled as simulated.
    public mutating func applySimulation(timetable: Timetable, now: Instant) {
        let prefix = timetable.defaultIDPrefix
        let simulated = SimulatedFeed(timetable: timetable, idPrefix: prefix).messages(at: now)
        for (name, message) in simulated.bySource {
            apply(message, source: name, timetable: timetable, idPrefix: prefix, now: now)
        }
        overlay.isSimulated = true
    }
}
