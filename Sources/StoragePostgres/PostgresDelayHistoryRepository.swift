import OnwardCore
import PostgresNIO
import Storage

/// Delay history in the `delay_observation` (raw, latest word per call), `delay_aggregate` (per day) and `delay_day`
/// (which dates wait to be folded) tables.
public struct PostgresDelayHistoryRepository: DelayHistoryRepository {
    let db: PostgresAccess

    /// Stands for "no time given" in the arrays sent to `unnest` (arrays of optionals do not encode).
    private static let none = Int32.min

    public func record(_ observations: [DelayObservation]) async throws {
        // One row per call: a statement may not update a row twice.
        var latest: [String: DelayObservation] = [:]
        for o in observations {
            let key = "\(o.source)\u{1F}\(o.tripID)\u{1F}\(o.serviceDate.dayNumber)\u{1F}\(o.call)"
            if let kept = latest[key], !o.replaces(kept) { continue }
            latest[key] = o
        }
        guard !latest.isEmpty else { return }
        let rows = Array(latest.values)
        let sources = rows.map(\.source), trips = rows.map(\.tripID), dates = rows.map(\.serviceDate.dayNumber)
        let calls = rows.map { Int32($0.call) }, routes = rows.map(\.routeID), stops = rows.map(\.stopID)
        let hours = rows.map { Int16($0.hourOfWeek.raw) }, departures = rows.map { $0.departureDelay.map(Int32.init(clamping:)) ?? Self.none }
        let arrivals = rows.map { $0.arrivalDelay.map(Int32.init(clamping:)) ?? Self.none }, cancelled = rows.map(\.cancelled)
        let observed = rows.map(\.observedAt.epochSeconds), none = Self.none
        let days = Array(Set(dates))
        try await db.transaction("record \(rows.count) delay observations") { tx in
            try await tx.run("""
                INSERT INTO delay_observation (source, trip_id, service_date, call, route_id, stop_id, hour_of_week, departure_delay,
                    arrival_delay, cancelled, observed_at)
                SELECT s, t, d, c, r, p, h, NULLIF(dd, \(none)), NULLIF(ad, \(none)), x, o
                FROM unnest(\(sources), \(trips), \(dates), \(calls), \(routes), \(stops), \(hours), \(departures), \(arrivals),
                            \(cancelled), \(observed)) AS u(s, t, d, c, r, p, h, dd, ad, x, o)
                ON CONFLICT (source, trip_id, service_date, call) DO UPDATE SET route_id = excluded.route_id, stop_id = excluded.stop_id,
                    hour_of_week = excluded.hour_of_week, departure_delay = excluded.departure_delay, arrival_delay = excluded.arrival_delay,
                    cancelled = excluded.cancelled, observed_at = excluded.observed_at
                WHERE excluded.observed_at >= delay_observation.observed_at
                """)
            try await tx.run("""
                INSERT INTO delay_day (service_date, folded) SELECT d, false FROM unnest(\(days)) AS u(d)
                ON CONFLICT (service_date) DO UPDATE SET folded = false
                """)
        }
    }

    public func fold(through: ServiceDate) async throws -> [ServiceDate] {
        let dates = try await db.rows("find delay history to fold", """
            SELECT service_date FROM delay_day WHERE NOT folded AND service_date <= \(through.dayNumber) ORDER BY service_date
            """) { try $0.decode(Int32.self) }
        for d in dates {
            let raw = try await observations(on: ServiceDate(dayNumber: d))
            let aggregates = DelayAggregate.fold(raw)
            try await db.transaction("fold delay history") { tx in
                try await tx.run("DELETE FROM delay_aggregate WHERE service_date = \(d)")
                if !aggregates.isEmpty {
                    let routes = aggregates.map(\.routeID), stops = aggregates.map(\.stopID), hours = aggregates.map { Int16($0.hourOfWeek.raw) }
                    let observed = aggregates.map { Int32($0.observed) }, cancelled = aggregates.map { Int32($0.cancelled) }
                    let departures = aggregates.map(\.departures.encoded), arrivals = aggregates.map(\.arrivals.encoded)
                    try await tx.run("""
                        INSERT INTO delay_aggregate (service_date, route_id, stop_id, hour_of_week, observed, cancelled, departures, arrivals)
                        SELECT \(d), r, s, h, o, c, dd, aa
                        FROM unnest(\(routes), \(stops), \(hours), \(observed), \(cancelled), \(departures), \(arrivals)) AS u(r, s, h, o, c, dd, aa)
                        """)
                }
                try await tx.run("UPDATE delay_day SET folded = true WHERE service_date = \(d)")
            }
        }
        return dates.map(ServiceDate.init(dayNumber:))
    }

    public func pruneRaw(before: ServiceDate) async throws -> Int {
        let n = try await db.rows("drop old delay observations",
                                  "DELETE FROM delay_observation WHERE service_date < \(before.dayNumber) RETURNING 1").count
        try await db.run("drop old delay days", "DELETE FROM delay_day WHERE service_date < \(before.dayNumber)")
        return n
    }

    public func pruneAggregates(before: ServiceDate) async throws -> Int {
        try await db.rows("drop old delay history", "DELETE FROM delay_aggregate WHERE service_date < \(before.dayNumber) RETURNING 1").count
    }

    public func aggregates(_ dates: ClosedRange<ServiceDate>, routeID: String?, stopID: String?) async throws -> [DelayAggregate] {
        // An absent filter is a NULL parameter that matches every row.
        try await db.rows("read delay history", """
            SELECT service_date, route_id, stop_id, hour_of_week, observed, cancelled, departures, arrivals FROM delay_aggregate
            WHERE service_date BETWEEN \(dates.lowerBound.dayNumber) AND \(dates.upperBound.dayNumber)
              AND (\(routeID)::text IS NULL OR route_id = \(routeID)) AND (\(stopID)::text IS NULL OR stop_id = \(stopID))
            ORDER BY service_date, route_id COLLATE "C", stop_id COLLATE "C", hour_of_week
            """) { row in
            let (d, r, s, h, o, c, dd, aa) = try row.decode((Int32, String, String, Int16, Int32, Int32, String, String).self)
            return DelayAggregate(serviceDate: ServiceDate(dayNumber: d), routeID: r, stopID: s,
                                  hourOfWeek: HourOfWeek(raw: Int(h)) ?? HourOfWeek(weekday: 0, hour: 0), observed: Int(o), cancelled: Int(c),
                                  departures: DelayHistogram(encoded: dd) ?? .init(), arrivals: DelayHistogram(encoded: aa) ?? .init())
        }
    }

    public func observations(on date: ServiceDate) async throws -> [DelayObservation] {
        try await db.rows("read delay observations", """
            SELECT source, trip_id, call, route_id, stop_id, hour_of_week, departure_delay, arrival_delay, cancelled, observed_at
            FROM delay_observation WHERE service_date = \(date.dayNumber) ORDER BY source COLLATE "C", trip_id COLLATE "C", call
            """) { row in
            let (s, t, c, r, p, h, dd, ad, x, o) = try row.decode((String, String, Int32, String, String, Int16, Int32?, Int32?, Bool, Int64).self)
            return DelayObservation(source: s, tripID: t, serviceDate: date, call: Int(c), routeID: r, stopID: p,
                                    hourOfWeek: HourOfWeek(raw: Int(h)) ?? HourOfWeek(weekday: 0, hour: 0), departureDelay: dd.map(Int.init),
                                    arrivalDelay: ad.map(Int.init), cancelled: x, observedAt: Instant(epochSeconds: o))
        }
    }

    public func lastFoldedDate() async throws -> ServiceDate? {
        try await db.rows("read the last day of delay history", "SELECT max(service_date) FROM delay_aggregate") {
            try $0.decode(Int32?.self)
        }.first?.map(ServiceDate.init(dayNumber:))
    }

    public func size() async throws -> DelayHistorySize {
        let counts = try await db.rows("count delay history", """
            SELECT (SELECT count(*) FROM delay_observation), (SELECT count(*) FROM delay_aggregate),
                   (SELECT count(*) FROM delay_day WHERE NOT folded)
            """) { try $0.decode((Int64, Int64, Int64).self) }
        let (o, a, u) = counts.first ?? (0, 0, 0)
        return DelayHistorySize(observations: Int(o), aggregates: Int(a), unfoldedDates: Int(u))
    }
}
