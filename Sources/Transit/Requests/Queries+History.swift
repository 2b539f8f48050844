import OnwardCore
import TransitSources

extension Queries {
    /// What a history request asks of: a stop (with a station's platforms) or a route, by ID or name, with a name for
    /// people, and how many days back (`days`, 1–400, default 56).
    public struct HistorySubject: Sendable, Hashable {
        public enum Kind: String, Sendable { case stop, route }
        public var kind: Kind
        /// Canonical.
        public var id: String
        public var name: String?
        /// The stop and a station's platforms: the stops whose history is read.
        public var stops: [String]
        public var days: Int
    }

    /// The stop or route `text` names (an ID, or a name as every other request takes it), and `days` from `p`.
    public func historySubject(_ kind: HistorySubject.Kind, _ text: String, _ p: RequestParameters) async throws(QueryError) -> HistorySubject {
        let days = try p.int("days", in: 1...400) ?? 56
        switch kind {
        case .stop:
            let r = try resolve(try await stopID(String(text.prefix(100)), parameter: "stopId"), as: .stop)
            let name = r.source.names(stopIDs: [r.id], routeIDs: []).stops[r.id]
            return HistorySubject(kind: .stop, id: r.id, name: name, stops: [r.id] + r.source.platformIDs(of: r.id), days: days)
        case .route:
            let r = try resolve(try matchRoute(String(text.prefix(100)), parameter: "routeId"), as: .route)
            return HistorySubject(kind: .route, id: r.id, name: r.source.names(stopIDs: [], routeIDs: [r.id]).routes[r.id], stops: [], days: days)
        }
    }
}
