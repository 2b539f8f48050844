import API
import Foundation
import HTTPTypes
import Services

/// `/live?commute=ID`: the commute's state at once (`{"type": "commute", "commute": …}`), each alert
/// as it is given (`{"type": "alert", "alert": …, "commute": …}`); the page sends its positions and
/// beacon sightings the other way (`{"type": "position", "at", "lat", "lon", "accuracy"}`,
/// `{"type": "beacon", "at", "beacon": {"uuid", "major", "minor"}}`). A message it cannot read is
/// answered with `{"type": "error", "error": …}` and the channel stays open. It closes when the commute ends.
struct CommuteLive: LiveChannel {
    enum Input: Sendable {
        case update(CommuteUpdate)
        /// A client's message was refused.
        case refused(Problem)
    }

    /// Alerts are messages of their own: as many as the commute's hub keeps.
    static var keep: Int { 64 }

    let commutes: CommuteService
    let id: String
    /// The state when the channel opened.
    let first: CommuteDTO
    /// The web app's rendering of the journey (`format=html`), sent as `html`.
    let html: (@Sendable (CommuteDTO) -> String)?

    struct Outgoing: Encodable {
        var type: String
        var commute: CommuteDTO?
        var alert: CommuteAlertDTO?
        var html: String?
        var error: Problem?
    }

    func opening() async throws -> [String] { [try text(Outgoing(type: "commute", commute: first))] }

    func messages(for input: Input) async throws -> [String] {
        switch input {
        case .update(.state(let c)): [try text(Outgoing(type: "commute", commute: c))]
        case .update(.alert(let a, let c)): [try text(Outgoing(type: "alert", commute: c, alert: a))]
        case .refused(let problem): [try text(Outgoing(type: "error", error: problem))]
        }
    }

    /// A position or beacon sighting, handed to the commute; what it changes comes back as updates.
    func read(_ text: String) async -> Input? {
        do {
            let sighting = try JSONDecoder().decode(CommuteSightingDTO.self, from: Data(text.utf8))
            try CommuteRoutes.check(sighting)
            _ = try await commutes.sighting(id, sighting)
            return nil
        } catch let error as DecodingError {
            return .refused(Problem(status: .badRequest, code: "invalid-body", title: "Invalid message", detail: describeBodyError(error)))
        } catch {
            return .refused(Problem.from(error))
        }
    }

    private func text(_ m: Outgoing) throws -> String {
        var m = m
        if let html, let c = m.commute { m.html = html(c) }
        return String(decoding: try JSONEncoder.api.encode(m), as: UTF8.self)
    }
}
