import API
import OnwardCore
import Transit

extension DelayHistoryKeeper {
    /// The history a request asks for (`Queries.historySubject`), over its days up to `today`: what the history API,
    /// the history page and `onward history` show.
    public func report(_ subject: Queries.HistorySubject, today: ServiceDate) async throws -> HistoryDTO {
        let dates = try await window(days: subject.days, today: today)
        let report = try await DelayHistoryReport.read(subject.kind == .stop ? .stop(subject.id) : .route(subject.id), stops: subject.stops,
                                                       dates: dates, from: repository)
        return HistoryDTO(kind: subject.kind.rawValue, id: subject.id, name: subject.name, from: dates.lowerBound.isoString,
                          through: dates.upperBound.isoString,
                          rows: report.rows.map { HistoryDTO.Row(routeId: $0.routeID, usual: UsualDelayDTO($0.usual)) })
    }
}
