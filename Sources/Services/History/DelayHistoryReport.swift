import OnwardCore
import Storage

/// The history of one stop (each route calling there) or one route (at all its stops together), by kind of day and
/// hour: what `GET /api/v1/stops/{stopId}/history`, `GET /api/v1/routes/{routeId}/history` and `onward history` answer.
public struct DelayHistoryReport: Sendable, Hashable {
    public enum Subject: Sendable, Hashable {
        case stop(String)
        case route(String)
    }

    public struct Row: Sendable, Hashable {
        /// The route, for a stop's history; nil for a route's (all its stops together).
        public var routeID: String?
        public var usual: UsualDelay
    }

    public var subject: Subject
    /// The service dates read.
    public var dates: ClosedRange<ServiceDate>
    /// By route, kind of day (weekday, Saturday, Sunday) and hour; only hours with history.
    public var rows: [Row]

    /// Reads the aggregates of `dates` for `subject` and sums them by route (for a stop), kind of day and hour.
    /// `stops`: the stop IDs a stop's history reads (a station's platforms with it).
    public static func read(_ subject: Subject, stops: [String] = [], dates: ClosedRange<ServiceDate>,
                            from repository: any DelayHistoryRepository) async throws -> DelayHistoryReport {
        var aggregates: [DelayAggregate] = []
        switch subject {
        case .stop(let id):
            for stop in Set([id] + stops).sorted() { aggregates += try await repository.aggregates(dates, routeID: nil, stopID: stop) }
        case .route(let id):
            aggregates = try await repository.aggregates(dates, routeID: id, stopID: nil)
        }
        struct Key: Hashable { var route: String?; var kind: DayKind; var hour: Int }
        var groups: [Key: [DelayAggregate]] = [:]
        for a in aggregates {
            let route: String? = if case .stop = subject { a.routeID } else { nil }
            groups[Key(route: route, kind: a.hourOfWeek.dayKind, hour: a.hourOfWeek.hour), default: []].append(a)
        }
        let kinds = DayKind.allCases
        let rows = groups.map { Row(routeID: $0.key.route, usual: UsualDelay(dayKind: $0.key.kind, hour: $0.key.hour, $0.value)) }
            .sorted { a, b in
                (a.routeID ?? "", kinds.firstIndex(of: a.usual.dayKind)!, a.usual.hour) < (b.routeID ?? "", kinds.firstIndex(of: b.usual.dayKind)!, b.usual.hour)
            }
        return DelayHistoryReport(subject: subject, dates: dates, rows: rows)
    }
}
