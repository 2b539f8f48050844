import API
import Foundation
import OnwardCore
import TransitSources

extension Queries {
    /// A stop's ID resolved once for a request: the source that has it and its canonical ID.
    public struct ResolvedStop: Sendable {
        public let source: any TransitSource
        /// `SOURCE:LOCAL`.
        public let id: String

        /// The version of the source's data, for answers kept while it stays the same; nil for a source
        /// asked on demand (which announces no changes).
        public var version: Int? { source.updates?.version }
    }

    /// The stop an ID names (a path's `{stopId}`), resolved once: its source and canonical ID.
    public func resolvedStop(_ id: String) throws(QueryError) -> ResolvedStop {
        let (source, canonical) = try resolveStop(id)
        return ResolvedStop(source: source, id: canonical)
    }

    /// The board a request asks of `stop`: `to` (or `from` for arrivals) a stop's ID or name, `date` and
    /// `time` in the stop's own time zone (or `at`, ISO 8601 with an offset), `window` minutes and/or
    /// `limit` rows (`defaultLimit` rows when neither is given), and the request's languages. The stop's
    /// place is asked of its source only when a local date or time needs its zone.
    public func boardQuery(_ p: RequestParameters, stop: ResolvedStop, arrivals: Bool) async throws(QueryError) -> BoardQuery {
        let viaName = arrivals ? "from" : "to"
        var via: String?
        if let text = p.string(viaName) { via = try await stopID(String(text.prefix(100)), parameter: viaName) }
        let window = try p.int("window", in: 1...Queries.maxWindowMinutes, unit: " minutes")
        let limit = try p.int("limit", in: 1...Queries.maxLimit)
        return BoardQuery(stopID: stop.id, arrivals: arrivals, via: via, at: try await moment(p, at: stop), windowMinutes: window,
                          limit: limit, languages: p.languages)
    }

    /// Journeys a request asks for: `from` and `to` (a stop's ID or name), `date` and `time` in the
    /// origin's time zone (or `at`), `arriveBy`, `window` minutes, `limit` (every option in the window
    /// when a window is given, else `JourneyQuery.defaults.limit`), `maxWalk` metres, `transferSlack`
    /// seconds, `maxTransfers`, `wheelchair`, `lessCrowded`, `reliable`. What is not given takes `JourneyQuery.defaults`.
    public func journeyQuery(_ p: RequestParameters) async throws(QueryError) -> JourneyQuery {
        let fromText = try p.required("from", maxLength: RequestParameters.maxValueLength)
        let toText = try p.required("to", maxLength: RequestParameters.maxValueLength)
        let origin = try await matchStop(fromText, parameter: "from"), destination = try await matchStop(toText, parameter: "to")
        let zone = TimeZone.named(origin.timeZone)
        var q = JourneyQuery(from: origin.id, to: destination.id, at: try p.moment(in: zone, now: now))
        q.arriveBy = try p.bool("arriveBy") ?? q.arriveBy
        q.windowMinutes = try p.int("window", in: 0...Queries.maxWindowMinutes, unit: " minutes") ?? q.windowMinutes
        // A window asks for every option leaving in it: it decides, not the default count.
        q.limit = try p.int("limit", in: 1...Queries.maxLimit) ?? (q.windowMinutes > 0 ? Queries.maxLimit : q.limit)
        q.maxWalkMetres = try p.int("maxWalk", in: 0...Queries.maxWalkMetres, unit: " metres") ?? q.maxWalkMetres
        q.transferSlackSeconds = try p.int("transferSlack", in: 0...Queries.maxTransferSlackSeconds, unit: " seconds") ?? q.transferSlackSeconds
        q.maxTransfers = try p.int("maxTransfers", in: 0...Queries.maxTransfersAllowed) ?? q.maxTransfers
        q.wheelchair = try p.bool("wheelchair") ?? q.wheelchair
        q.lessCrowded = try p.bool("lessCrowded") ?? q.lessCrowded
        q.reliable = try p.bool("reliable") ?? q.reliable
        return q
    }

    /// Stops whose names match a request's `q`, at most `limit` (default 10).
    public func searchStops(_ p: RequestParameters) async throws(QueryError) -> StopsDTO {
        let text = try p.required("q", maxLength: 100)
        return try await searchStops(text, limit: try p.int("limit", in: 1...Queries.maxLimit) ?? Queries.defaultStopsLimit)
    }

    /// Stops near a request's `lat` and `lon`, within `radius` metres (default 800), at most `limit` (default 10).
    public func nearbyStops(_ p: RequestParameters) async throws(QueryError) -> StopsDTO {
        let lat = try p.requiredDouble("lat"), lon = try p.requiredDouble("lon")
        return try await nearbyStops(latitude: lat, longitude: lon, radius: try p.double("radius") ?? Queries.defaultRadiusMetres,
                                     limit: try p.int("limit", in: 1...Queries.maxLimit) ?? Queries.defaultStopsLimit)
    }

    /// What alerts a request asks about: `stop` (a stop's ID or name) or `route` (a route's ID or name).
    public func alertScope(_ p: RequestParameters) async throws(QueryError) -> (stopID: String?, routeID: String?) {
        var stop: String?
        if let text = p.string("stop") { stop = try await stopID(String(text.prefix(100)), parameter: "stop") }
        let route = try p.string("route").map { text throws(QueryError) in try matchRoute(String(text.prefix(100)), parameter: "route") }
        return (stop, route)
    }

    /// The canonical ID of a stop typed by ID (no source is asked) or by name (`matchStop`).
    public func stopID(_ text: String, parameter: String) async throws(QueryError) -> String {
        if case .found(_, let id) = registry.lookup(text, as: .stop) { return id }
        return try await matchStop(text, parameter: parameter).id
    }

    /// The moment a request names for `stop` (`at`, or `date`/`time` read in the stop's zone); nil for now.
    public func moment(_ p: RequestParameters, at stop: ResolvedStop) async throws(QueryError) -> Instant? {
        guard p.namesAMoment else { return nil }
        let needsZone = p.string("time") != nil || p.string("date") != nil
        var zone = TimeZone.gmt
        if needsZone {
            let place: StopPlace
            do { place = try await stop.source.place(stop.id) } catch { throw QueryError(error, sourceName: stop.source.displayName) }
            zone = TimeZone.named(place.timeZone)
        }
        return try p.moment(in: zone, now: now)
    }
}
