import API
import Foundation
import HTTPTypes
import HummingbirdWebSocket
import NIOCore
import ServiceLifecycle
import Services

/// `/live?commute=ID`: the commute's state at once (`{"type": "commute", "commute": …}`), each alert
/// as it is given (`{"type": "alert", "alert": …, "commute": …}`); the page sends its positions and
/// beacon sightings the other way (`{"type": "position", "at", "lat", "lon", "accuracy"}`,
/// `{"type": "beacon", "at", "beacon": {"uuid", "major", "minor"}}`). A message it cannot read is
/// answered with `{"type": "error", "error": …}` and the channel stays open.
struct CommuteLive {
    let commutes: CommuteService
    /// The web app's rendering of the journey (`format=html`), sent as `html`.
    let html: (@Sendable (CommuteDTO) -> String)?

    struct Outgoing: Encodable {
        var type: String
        var commute: CommuteDTO?
        var alert: CommuteAlertDTO?
        var html: String?
        var error: Problem?
    }

    func run(_ id: String, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        guard let (first, updates, cancel) = await commutes.watch(id) else { return }
        defer { cancel() }
        @Sendable func send(_ m: Outgoing) async throws {
            var m = m
            if let html, let c = m.commute { m.html = html(c) }
            try await outbound.write(.text(String(decoding: try JSONEncoder.api.encode(m), as: UTF8.self)))
        }
        try await send(Outgoing(type: "commute", commute: first))
        try await cancelWhenGracefulShutdown {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for try await message in inbound.messages(maxSize: 4096) {
                        guard case .text(let text) = message else { continue }
                        do {
                            let sighting = try JSONDecoder().decode(CommuteSightingDTO.self, from: Data(text.utf8))
                            try CommuteRoutes.check(sighting)
                            _ = try await commutes.sighting(id, sighting)
                        } catch {
                            var problem = Problem.from(error)
                            if error is DecodingError {
                                problem = Problem(status: .badRequest, code: "invalid-body", title: "Invalid message", detail: describeBodyError(error))
                            }
                            try await send(Outgoing(type: "error", error: problem))
                        }
                    }
                }
                group.addTask {
                    for await update in updates {
                        switch update {
                        case .state(let c): try await send(Outgoing(type: "commute", commute: c))
                        case .alert(let a, let c): try await send(Outgoing(type: "alert", commute: c, alert: a))
                        }
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        }
    }
}
