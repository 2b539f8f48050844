import API
import Foundation
import OnwardCore
import Services
import Transit

/// `/live?me`: a person's saved routes over the WebSocket. The state is sent at once (so a
/// reconnecting device catches up without a reload) and again after every change made on any
/// device. With `view=glance` (and for the web app's pages, `format=html`) each message also
/// carries what the top of the current stack shows, sent again when live data changes it. The
/// connection ends when the account is deleted or the session that opened it signs out. Each notice of a
/// journey the person watches comes on it too, as it is given.
struct MeLive: LiveChannel {
    enum Input: Sendable {
        /// The routes changed; nil: the account is gone.
        case routes(SavedRoutes?)
        /// Live data may have changed what the current stack's top shows.
        case liveData
        /// A watched journey's notice, sent as it is (`{"type": "watchNotice", "notice": …}`).
        case watchNotice(WatchNoticeDTO)
    }

    let deps: ServerDependencies
    let accountId: String
    /// The current stack's top, for the glance view.
    let glance: Bool
    let languages: [String]
    /// The web app's rendering, for `format=html`.
    let html: (@Sendable (SavedRoutes, RouteResultDTO?) -> String)?
    /// What was sent last.
    var last: String? = nil
    /// The account is gone.
    var isOver = false

    /// Whether live data changes what it shows (the glance, and the web app's routes page).
    var followsLiveData: Bool { glance || html != nil }

    mutating func opening() async throws -> [String] { try await changed() }

    mutating func messages(for input: Input) async throws -> [String] {
        switch input {
        case .routes(nil):
            isOver = true
            return []
        case .watchNotice(let notice):
            return [String(decoding: try JSONEncoder.api.encode(WatchNoticeMessage(notice: notice)), as: UTF8.self)]
        default:
            return try await changed()
        }
    }

    private mutating func changed() async throws -> [String] {
        let text = try await message()
        guard text != last else { return [] }
        last = text
        return [text]
    }

    func message() async throws -> String {
        let routes = try await deps.people.routes(accountId)
        // The web app's routes page shows the current stack's top too.
        let result = followsLiveData ? await deps.queries().currentResult(routes, languages: languages) : nil
        let m = RoutesMessage(routes, glance: result, html: html?(routes, result))
        return String(decoding: try JSONEncoder.api.encode(m), as: UTF8.self)
    }
}
