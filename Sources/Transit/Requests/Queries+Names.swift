import API
import Foundation
import OnwardCore
import TransitSources

extension Queries {
    /// A stop typed by ID or by name ("blok m", "York"), across every source: an ID first, then the
    /// names. The one rule for every place a request names (a board, its calling point, a journey's
    /// ends, alerts), in the API, the pages and the CLI. A name that matches several stops, or none,
    /// is an error naming `parameter`, with the candidates to choose from.
    public func matchStop(_ text: String, parameter: String? = nil) async throws(QueryError) -> StopPlace {
        switch registry.lookup(text, as: .stop) {
        case .found(let source, let id):
            do { return try await source.place(id) } catch { throw QueryError(error, sourceName: source.displayName) }
        case .ambiguous(let ids):
            var places: [StopPlace] = []
            for id in ids { if let p = try? await place(id) { places.append(p) } }
            throw QueryError(.stopNotFound, "'\(text)' matches several stops; name one by ID:\n" + Self.list(places), parameter: parameter,
                             candidates: places.map(Self.candidate))
        case .notFound: break
        }
        var found: [StopPlace] = [], candidates: [StopPlace] = [], near: [StopPlace] = []
        for s in registry.sources {
            switch await s.matchStop(named: text) {
            case .found(let p): found.append(p)
            case .ambiguous(let list): candidates += list
            case .notFound(let suggestions): near += suggestions
            }
        }
        if found.count == 1 && candidates.isEmpty { return found[0] }
        if !found.isEmpty || !candidates.isEmpty {
            let all = Array((found + candidates).prefix(12))
            throw QueryError(.stopNotFound, "'\(text)' matches several stops; name one by ID:\n" + Self.list(all), parameter: parameter,
                             candidates: all.map(Self.candidate))
        }
        if near.isEmpty {
            throw QueryError(.stopNotFound, "no stop or station matches '\(text)'; search by part of its name", parameter: parameter)
        }
        let nearest = Array(near.prefix(3))
        var error = QueryError(.stopNotFound, "no stop or station matches '\(text)'. Did you mean:\n" + Self.list(nearest, kinds: false),
                               parameter: parameter, candidates: nearest.map(Self.candidate))
        error.candidatesAreNearest = true
        throw error
    }

    /// A route by ID (canonical, or unprefixed when one source has it), or by its short or long name
    /// among every source's routes; several or none is an error naming `parameter`, with the candidates.
    public func matchRoute(_ text: String, parameter: String? = nil) throws(QueryError) -> String {
        switch registry.lookup(text, as: .route) {
        case .found(_, let id): return id
        case .ambiguous(let ids):
            throw QueryError(.routeNotFound, "'\(text)' is a route of several feeds; name one by ID:\n" + ids.map { "  " + $0 }.joined(separator: "\n"),
                             parameter: parameter, candidates: ids.map { QueryError.Candidate(id: $0, name: $0) })
        case .notFound: break
        }
        let found = registry.sources.flatMap { $0.routes(named: text) }
        if found.count == 1 { return found[0].id }
        if found.count > 1 {
            let some = found.prefix(12)
            throw QueryError(.routeNotFound, "'\(text)' matches several routes; name one by ID:\n"
                             + some.map { "  \($0.id)  \($0.shortName)  \($0.longName)" }.joined(separator: "\n"),
                             parameter: parameter, candidates: some.map { QueryError.Candidate(id: $0.id, name: $0.shortName, detail: $0.longName) })
        }
        throw QueryError(.routeNotFound, "no route matches '\(text)'; give a route ID or short name", parameter: parameter)
    }

    private static func list(_ places: [StopPlace], kinds: Bool = true) -> String {
        places.map { "  \($0.id)  \($0.name)\(kinds && $0.kind == .station ? " (station)" : "")" }.joined(separator: "\n")
    }

    private static func candidate(_ p: StopPlace) -> QueryError.Candidate {
        QueryError.Candidate(id: p.id, name: p.name, detail: p.kind == .station ? "station" : nil)
    }
}
