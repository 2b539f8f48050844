import API
import Foundation
import OnwardCore
import Synchronization
import Transit
import TransitSources

/// What a live client watches: a board, a service, or a route's vehicles.
public enum LiveSubject: Sendable, Hashable {
    case board(Queries.BoardQuery)
    case service(tripID: String, date: ServiceDate?, languages: [String])
    case route(routeID: String, languages: [String])
}

/// One live message: the current state of the subject, as JSON and, for the
/// web app, as the page fragment to swap in.
struct LiveMessage: Encodable {
    var type: String
    var version: Int
    var board: BoardDTO?
    var service: ServiceDTO?
    var route: RouteVehiclesDTO?
    var html: String?
    var updatedAt: String?
    var stale: Bool
    var error: Problem?
}

/// `/live?board=…`, `/live?service=…` and `/live?route=…`: the subject's state at once, then again whenever a realtime
/// update (or, for a source asked on demand, a refresh) changes it. An unchanged state is not sent again.
struct BoardLive: LiveChannel {
    let subject: LiveSubject
    /// With the web app's page fragment (`format=html`).
    let html: Bool
    /// The subject's source's change announcements; nil for a source asked on demand.
    let updates: (any SourceUpdates)?
    /// The subject's state as one JSON text, for a state version (see `LiveRoutes.message`).
    let message: @Sendable (LiveSubject, _ html: Bool, _ version: Int?) async -> String?
    /// What was sent last.
    var last: String? = nil

    mutating func opening() async throws -> [String] { await changed() }

    /// Something may have changed: "look again".
    mutating func messages(for input: Void) async throws -> [String] { await changed() }

    private mutating func changed() async -> [String] {
        guard let text = await message(subject, html, updates?.version), text != last else { return [] }
        last = text
        return [text]
    }
}

extension LiveRoutes {
    /// The change announcements of the subject's source, or nil for a source asked on demand
    /// (or an ID no source has: its error message is sent once).
    func updates(of subject: LiveSubject) -> (any SourceUpdates)? {
        switch subject {
        case .board(let q): deps.sources.resolve(q.stopID, as: .stop)?.source.updates
        case .service(let id, _, _): deps.sources.resolve(id, as: .service)?.source.updates
        case .route(let id, _): deps.sources.resolve(id, as: .route)?.source.updates
        }
    }

    /// The subject's state now, as one JSON text (version left out, so an unchanged state is not sent again).
    /// From a source that announces changes it is computed once per subject, state version and second,
    /// and shared by every subscriber: a thousand phones on one board cost one board, not a thousand.
    func message(_ subject: LiveSubject, html: Bool, version: Int?) async -> String? {
        let queries = deps.queries()
        guard let version else { return await render(subject, html: html, queries: queries) }
        return await shared.answer(LiveKey(subject: subject, html: html), version: version, second: queries.now.epochSeconds) {
            await render(subject, html: html, queries: queries)
        }
    }

    private func render(_ subject: LiveSubject, html: Bool, queries: Queries) async -> String? {
        var m = LiveMessage(type: "board", version: 0, stale: false)
        do {
            switch subject {
            case .board(let q):
                m.board = try await queries.board(q)
            case .service(let tripID, let date, let languages):
                m.type = "service"
                m.service = try await queries.service(tripID, date: date, languages: languages)
            case .route(let routeID, _):
                m.type = "route"
                m.route = try await queries.routeVehicles(routeID)
            }
            let live = m.board?.live ?? m.service?.live ?? m.route?.live
            m.stale = live?.stale ?? false
            m.updatedAt = live?.updatedAt
            if html { m.html = fragment(subject, queries, m) }
        } catch {
            m.type = "error"
            m.error = Problem.from(error)
        }
        return (try? JSONEncoder.api.encode(m)).map { String(decoding: $0, as: UTF8.self) }
    }

}

struct LiveKey: Hashable, Sendable {
    var subject: LiveSubject
    var html: Bool
}

/// The live messages of this second and state version, by subject.
final class LiveMessageCache: Sendable {
    private struct Table {
        var version = -1
        var second: Int64 = -1
        var messages: [LiveKey: String?] = [:]
    }

    private let table = Mutex(Table())

    func answer(_ key: LiveKey, version: Int, second: Int64, compute: () async -> String?) async -> String? {
        if let hit = table.withLock({ t -> String?? in t.version == version && t.second == second ? t.messages[key] : nil }) { return hit }
        let fresh = await compute()
        table.withLock { t in
            if t.version != version || t.second != second { t = Table(version: version, second: second) }
            t.messages[key] = fresh
        }
        return fresh
    }
}
