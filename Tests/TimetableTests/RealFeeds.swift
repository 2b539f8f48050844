import Foundation
import GTFS
import OnwardCore
import OnwardTesting
import Timetable

/// Real feeds from ../shared/data, each imported once per test run.
enum RealFeeds {
    static let caltrain = load("caltrain-2023-09")
    static let wmata = load("wmata-metrorail-2026-04")
    static let halifax = load("halifax-transit-2025-08")

    private static func load(_ name: String) -> Result<Timetable, any Error> {
        Result { try GTFSImporter.load(paths: [Fixtures.gtfs(name)]).timetable }
    }
}

/// One expected board row, as read from the feed's files.
struct GoldenRow: CustomStringConvertible, Equatable {
    var trip: String
    var localTime: String
    var headsign: String
    var stop: String
    var serviceDate: String
    var route: String

    init(_ trip: String, _ localTime: String, _ headsign: String, _ stop: String, _ serviceDate: String, _ route: String) {
        self.trip = trip; self.localTime = localTime; self.headsign = headsign; self.stop = stop
        self.serviceDate = serviceDate; self.route = route
    }

    var description: String { "\(localTime) \(trip) \(route) → \(headsign) [\(stop)] \(serviceDate)" }
}

extension GoldenRow {
    /// The board row as the engine gave it, with its time as the wall clock at a fixed UTC offset
    /// (worked out by arithmetic, not by the code under test).
    init(_ entry: BoardEntry, offsetHours: Int64) {
        let local = entry.scheduled.epochSeconds + offsetHours * 3600
        let s = ((local % 86_400) + 86_400) % 86_400
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        self.init(entry.tripID, "\(two(s / 3600)):\(two(s / 60 % 60)):\(two(s % 60))", entry.headsign, entry.stopID,
                  entry.serviceDate.isoString, entry.routeShortName)
    }

    /// The row as every output now gives it: trip and stop IDs canonical, `feed:local`;
    /// times, headsigns, dates, routes and the order unchanged.
    func canonical(_ feed: String) -> GoldenRow {
        GoldenRow(CanonicalID.make(source: feed, local: trip), localTime, headsign, CanonicalID.make(source: feed, local: stop),
                  serviceDate, route)
    }

    /// Rows at the same instant have no defined order: compare by (time, trip ID).
    static func sorted(_ rows: [GoldenRow]) -> [GoldenRow] {
        rows.sorted { ($0.localTime, $0.trip) < ($1.localTime, $1.trip) }
    }
}

extension [GoldenRow] {
    /// Each row with canonical IDs (see `GoldenRow.canonical`).
    func canonical(_ feed: String) -> [GoldenRow] { map { $0.canonical(feed) } }
}
