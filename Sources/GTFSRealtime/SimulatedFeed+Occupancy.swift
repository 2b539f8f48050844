import Foundation
import OnwardCore
import Timetable

/// How full the simulation says each run is: fuller in the weekday peaks (around 08:00 and 17:30) and towards the
/// middle of its route, less at night, with a steady difference per run; trains get six carriages, the middle ones
/// fuller (where the stairs lead). Deterministic, as the rest of the simulation is.
extension SimulatedFeed {
    /// Percent of capacity for a run leaving call `k` of `n`.
    func occupancyPercent(_ key: TripInstance, call k: Int, calls n: Int) -> Int {
        // Seconds of its service day: the run's first departure, and its running time to call k.
        let seconds = Double(Int64(timetable.firstDepartureTime(of: key.trip) + key.shift)
            + timetable.scheduledDeparture(key, k) - timetable.scheduledDeparture(key, 0))
        let hour = (seconds / 3600).truncatingRemainder(dividingBy: 24)
        let peak = max(exp(-pow(hour - 8, 2) / 2), exp(-pow(hour - 17.5, 2) / 2))
        let day = hour >= 6 && hour < 22 ? 0.3 : 0.1
        let along = sin(Double.pi * Double(k + 1) / Double(n + 1))
        let own = Double(Int(hash(key) % 31) - 15) / 100
        let share = (day + 0.5 * peak) * (0.5 + 0.5 * along) + own
        return Int((min(max(share, 0.02), 1.1) * 100).rounded())
    }

    /// Six carriages for a train (rail, metro or tram route types), the middle ones fuller; none for a bus.
    func carriages(_ key: TripInstance, percent: Int) -> [TransitRealtime_VehiclePosition.CarriageDetails] {
        let type = timetable.routeInfo(timetable.route(of: key.trip)).type
        guard type <= 2 || (100..<200).contains(type) || (400..<500).contains(type) || (900..<1000).contains(type) else { return [] }
        let spread = [-0.35, -0.1, 0.2, 0.25, 0.05, -0.3]
        return spread.enumerated().map { i, d in
            var c = TransitRealtime_VehiclePosition.CarriageDetails()
            c.id = "C\(i + 1)"
            c.carriageSequence = UInt32(i + 1)
            let p = max(0, Int((Double(percent) * (1 + d)).rounded()))
            c.occupancyPercentage = Int32(p)
            c.occupancyStatus = Self.status(Occupancy.Level(percentage: p))
            return c
        }
    }

    /// The GTFS-Realtime value of a level: the one `Occupancy.Level(gtfsRealtime:)` reads back as it (that mapping is
    /// the only one written out).
    static func status(_ level: Occupancy.Level) -> TransitRealtime_VehiclePosition.OccupancyStatus {
        TransitRealtime_VehiclePosition.OccupancyStatus.allCases.first { Occupancy.Level(gtfsRealtime: $0.rawValue) == level } ?? .noDataAvailable
    }
}
