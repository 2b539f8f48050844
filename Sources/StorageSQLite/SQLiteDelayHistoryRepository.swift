import GRDB
import OnwardCore
import Storage

/// Delay history in the `delay_observation` (raw, latest word per call), `delay_aggregate` (per day) and `delay_day`
/// (which dates wait to be folded) tables.
public struct SQLiteDelayHistoryRepository: DelayHistoryRepository {
    let db: SQLiteAccess

    public func record(_ observations: [DelayObservation]) async throws {
        guard !observations.isEmpty else { return }
        try await db.write("record \(observations.count) delay observations") { db in
            let upsert = try db.cachedStatement(sql: """
                INSERT INTO delay_observation (source, trip_id, service_date, call, route_id, stop_id, hour_of_week, departure_delay,
                    arrival_delay, cancelled, observed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (source, trip_id, service_date, call) DO UPDATE SET route_id = excluded.route_id, stop_id = excluded.stop_id,
                    hour_of_week = excluded.hour_of_week, departure_delay = excluded.departure_delay, arrival_delay = excluded.arrival_delay,
                    cancelled = excluded.cancelled, observed_at = excluded.observed_at
                WHERE excluded.observed_at >= delay_observation.observed_at
                """)
            var dates = Set<Int32>()
            for o in observations {
                try upsert.execute(arguments: [o.source, o.tripID, o.serviceDate.dayNumber, o.call, o.routeID, o.stopID, o.hourOfWeek.raw,
                                               o.departureDelay, o.arrivalDelay, o.cancelled, o.observedAt.epochSeconds])
                dates.insert(o.serviceDate.dayNumber)
            }
            for d in dates {
                try db.execute(sql: "INSERT INTO delay_day (service_date, folded) VALUES (?, 0) ON CONFLICT (service_date) DO UPDATE SET folded = 0",
                               arguments: [d])
            }
        }
    }

    public func fold(through: ServiceDate) async throws -> [ServiceDate] {
        try await db.write("fold delay history") { db in
            let dates = try Int32.fetchAll(db, sql: "SELECT service_date FROM delay_day WHERE folded = 0 AND service_date <= ? ORDER BY service_date",
                                           arguments: [through.dayNumber])
            for d in dates {
                let raw = try Row.fetchCursor(db, sql: "SELECT * FROM delay_observation WHERE service_date = ?", arguments: [d]).map(Self.observation)
                let aggregates = DelayAggregate.fold(try Array(raw))
                try db.execute(sql: "DELETE FROM delay_aggregate WHERE service_date = ?", arguments: [d])
                let insert = try db.cachedStatement(sql: """
                    INSERT INTO delay_aggregate (service_date, route_id, stop_id, hour_of_week, observed, cancelled, departures, arrivals)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                for a in aggregates {
                    try insert.execute(arguments: [d, a.routeID, a.stopID, a.hourOfWeek.raw, a.observed, a.cancelled, a.departures.encoded,
                                                   a.arrivals.encoded])
                }
                try db.execute(sql: "UPDATE delay_day SET folded = 1 WHERE service_date = ?", arguments: [d])
            }
            return dates.map(ServiceDate.init(dayNumber:))
        }
    }

    public func pruneRaw(before: ServiceDate) async throws -> Int {
        try await db.write("drop old delay observations") { db in
            try db.execute(sql: "DELETE FROM delay_observation WHERE service_date < ?", arguments: [before.dayNumber])
            let n = db.changesCount
            try db.execute(sql: "DELETE FROM delay_day WHERE service_date < ?", arguments: [before.dayNumber])
            return n
        }
    }

    public func pruneAggregates(before: ServiceDate) async throws -> Int {
        try await db.write("drop old delay history") { db in
            try db.execute(sql: "DELETE FROM delay_aggregate WHERE service_date < ?", arguments: [before.dayNumber])
            return db.changesCount
        }
    }

    public func aggregates(_ dates: ClosedRange<ServiceDate>, routeID: String?, stopID: String?) async throws -> [DelayAggregate] {
        try await db.read("read delay history") { db in
            var sql = "SELECT * FROM delay_aggregate WHERE service_date BETWEEN ? AND ?"
            var arguments: StatementArguments = [dates.lowerBound.dayNumber, dates.upperBound.dayNumber]
            if let routeID { sql += " AND route_id = ?"; arguments += [routeID] }
            if let stopID { sql += " AND stop_id = ?"; arguments += [stopID] }
            sql += " ORDER BY service_date, route_id, stop_id, hour_of_week"
            return try Row.fetchCursor(db, sql: sql, arguments: arguments).map { row in
                DelayAggregate(serviceDate: ServiceDate(dayNumber: row["service_date"]), routeID: row["route_id"], stopID: row["stop_id"],
                               hourOfWeek: HourOfWeek(raw: row["hour_of_week"]) ?? HourOfWeek(weekday: 0, hour: 0),
                               observed: row["observed"], cancelled: row["cancelled"],
                               departures: DelayHistogram(encoded: row["departures"]) ?? .init(),
                               arrivals: DelayHistogram(encoded: row["arrivals"]) ?? .init())
            }.reduce(into: []) { $0.append($1) }
        }
    }

    public func observations(on date: ServiceDate) async throws -> [DelayObservation] {
        try await db.read("read delay observations") { db in
            try Row.fetchAll(db, sql: "SELECT * FROM delay_observation WHERE service_date = ? ORDER BY source, trip_id, call",
                             arguments: [date.dayNumber]).map(Self.observation)
        }
    }

    public func lastFoldedDate() async throws -> ServiceDate? {
        try await db.read("read the last day of delay history") { db in
            try Int32.fetchOne(db, sql: "SELECT max(service_date) FROM delay_aggregate").map(ServiceDate.init(dayNumber:))
        }
    }

    public func size() async throws -> DelayHistorySize {
        try await db.read("count delay history") { db in
            DelayHistorySize(observations: try Int.fetchOne(db, sql: "SELECT count(*) FROM delay_observation") ?? 0,
                             aggregates: try Int.fetchOne(db, sql: "SELECT count(*) FROM delay_aggregate") ?? 0,
                             unfoldedDates: try Int.fetchOne(db, sql: "SELECT count(*) FROM delay_day WHERE folded = 0") ?? 0)
        }
    }

    static func observation(_ row: Row) -> DelayObservation {
        DelayObservation(source: row["source"], tripID: row["trip_id"], serviceDate: ServiceDate(dayNumber: row["service_date"]),
                         call: row["call"], routeID: row["route_id"], stopID: row["stop_id"],
                         hourOfWeek: HourOfWeek(raw: row["hour_of_week"]) ?? HourOfWeek(weekday: 0, hour: 0),
                         departureDelay: row["departure_delay"], arrivalDelay: row["arrival_delay"], cancelled: row["cancelled"],
                         observedAt: Instant(epochSeconds: row["observed_at"]))
    }
}
