import API
import Foundation
import HummingbirdWebSocket
import OnwardCore
import ServiceLifecycle
import Services
import Synchronization
import Storage
import Transit
import TransitSources

/// `/live?me`: a person's saved routes over the WebSocket. The state is sent at once (so a
/// reconnecting device catches up without a reload) and again after every change made on any
/// device. With `view=glance` (and for the web app's pages, `format=html`) each message also
/// carries what the top of the current stack shows, sent again when live data changes it. The connection ends when the account is deleted.
struct MeLive {
    let deps: ServerDependencies
    /// The current stack's top, for the glance view.
    let glance: Bool
    let languages: [String]
    /// The web app's rendering, for `format=html`.
    let html: (@Sendable (SavedRoutes, RouteResultDTO?) -> String)?

    func run(_ signed: PeopleService.Signed, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let accountId = signed.account.id
        // Subscribed before the first read, so no change falls between the two.
        let changes = deps.people.hub.subscribe(accountId)
        let ended = deps.people.sessionEnds.watch(signed.session)
        let (ticks, tick) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        try await cancelWhenGracefulShutdown {
            try await withThrowingTaskGroup(of: Void.self) { group in
                // Reading until the client closes; what it sends is not used.
                group.addTask { for try await _ in inbound {} }
                // Until the session that opened the connection is signed out.
                group.addTask { for await _ in ended {} }
                group.addTask {
                    for await routes in changes {
                        guard routes != nil else { break }
                        tick.yield()
                    }
                    tick.finish()
                }
                if glance || html != nil {
                    // Live data changes what a board or a service shows (on the glance and on the web app's routes page);
                    // a source asked on demand is asked again each refresh.
                    for updates in deps.sources.sources.compactMap(\.updates) {
                        let stream = updates.subscribe()
                        group.addTask { for await _ in stream { tick.yield() } }
                    }
                    group.addTask {
                        while !Task.isCancelled {
                            try await Task.sleep(for: deps.settings.sourceRefresh)
                            tick.yield()
                        }
                    }
                }
                group.addTask {
                    var last: String?
                    func send() async throws {
                        let text = try await message(accountId)
                        guard text != last else { return }
                        try await outbound.write(.text(text))
                        last = text
                    }
                    try await send()
                    for await _ in ticks { try await send() }
                }
                try await group.next()
                group.cancelAll()
            }
        }
    }

    func message(_ accountId: String) async throws -> String {
        let routes = try await deps.people.routes(accountId)
        // The web app's routes page shows the current stack's top too.
        let result = glance || html != nil ? await deps.queries().currentResult(routes, languages: languages) : nil
        let m = RoutesMessage(routes, glance: result, html: html?(routes, result))
        return String(decoding: try JSONEncoder.api.encode(m), as: UTF8.self)
    }
}
