import API
import Foundation
import Hummingbird
import Services
import Transit
import TransitSources

/// `POST /api/v1/feeds/refresh[?feed=NAME]`: an operator asks for a check of the static feeds now
/// (`onward feeds refresh`). Only with the operator's token (`operator_token`), sent as a bearer
/// token; a server with none configured refuses every request (401), as it does a wrong token.
struct FeedRoutes {
    let deps: ServerDependencies

    func add<R: RouterMethods>(to v1: R) where R.Context == OnwardRequestContext {
        v1.post("feeds/refresh") { request, _ in
            guard let expected = deps.settings.operatorToken, let given = Self.bearer(request),
                  Secrets.constantTimeEqual(Secrets.sha256(given), Secrets.sha256(expected)) else {
                throw Problem(status: .unauthorized, code: "operator-token-required", title: "Unauthorized",
                              detail: "Refreshing the feeds needs the operator's token (operator_token) as a bearer token.")
            }
            guard let feeds = deps.feedRefresh else {
                throw Problem(status: .notFound, code: "feed-not-found", title: "No feeds kept",
                              detail: "This server keeps no feeds to refresh: it serves the bundled network or a compiled snapshot.")
            }
            let feed = request.uri.queryParameters.get("feed")
            if let feed, !feeds.feedNames.contains(feed) {
                throw Problem(status: .notFound, code: "feed-not-found", title: "No such feed",
                              detail: "No static feed is named '\(feed)' (configured: \(feeds.feedNames.joined(separator: ", "))).",
                              parameter: "feed")
            }
            let outcome = await feeds.refreshNow(feed: feed)
            let timetables = deps.sources.sources.flatMap { $0.status(now: deps.now()) }.filter { $0.version != nil }.map(SourcesDTO.UpstreamDTO.init)
            return try json(FeedRefreshDTO(accepted: outcome == .accepted, forwarded: outcome == .askedOfAnother, timetables: timetables))
        }
    }

    static func bearer(_ request: Request) -> String? {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { return nil }
        return String(header.dropFirst("Bearer ".count))
    }
}
