import API
import Foundation
import OnwardCore
import Services
import Storage
import Trips

/// `/live?trip=ID`: a trip member's live map, events, chat and broadcasts over the WebSocket.
///
/// First a `state` message (the positions the member may see, their events, the newest chat page,
/// the broadcasts), then one message per change: `position` and `hidden` as people come into and
/// leave the member's view, `event` when an event they may see is sent or answered, `chat` for the
/// trip's conversation and the member's direct ones, `broadcast`, and `left` (then the socket closes)
/// when the member is no longer on the trip. Every rule is `MapVisibility`'s and `TripEvent`'s, applied
/// here per connection; the client may send `{"type":"radius","metres":N}` to change its view.
struct TripLive: LiveChannel {
    let trips: TripService
    /// The trip as it was when the channel opened.
    let trip: Trip
    var viewer: Viewer
    var isOver = false

    var tripID: String { trip.id }

    enum Input: Sendable {
        case signal(TripSignal)
        case radius(Double)
        /// Time passing: a share may have ended.
        case tick
    }

    /// Each signal is a message of its own (a chat line, an event).
    static var keep: Int { 8_192 }

    struct Viewer {
        let person: String
        var radius: Double
        /// What the client was last sent, by person.
        var shown: [String: SharedPosition] = [:]
        var names: [String: String] = [:]
    }

    mutating func opening() async throws -> [String] {
        var viewer = self.viewer
        defer { self.viewer = viewer }
        return [try await state(trip, &viewer)]
    }

    mutating func messages(for input: Input) async throws -> [String] {
        if case .signal(.members(let t)) = input, !t.isMember(viewer.person) { isOver = true }
        var viewer = self.viewer
        defer { self.viewer = viewer }
        return try await messages(for: input, &viewer)
    }

    func read(_ text: String) async -> Input? { Self.radius(text).map(Input.radius) }

    static func radius(_ text: String) -> Double? {
        struct Radius: Decodable { var type: String; var metres: Double }
        guard let r = try? JSONDecoder().decode(Radius.self, from: Data(text.utf8)), r.type == "radius", r.metres >= 1, r.metres <= 100_000 else { return nil }
        return r.metres
    }

    // MARK: - Messages

    struct StateMessage: Encodable {
        var type = "state"
        var trip: TripDTO
        var radius: Double
        var positions: [TripPositionsDTO.Position]
        var events: [TripEventDTO]
        var chat: ChatPageDTO
        var broadcasts: [BroadcastDTO]
    }

    struct PositionMessage: Encodable { var type = "position"; var position: TripPositionsDTO.Position }
    struct HiddenMessage: Encodable { var type = "hidden"; var person: String }
    struct EventMessage: Encodable { var type = "event"; var event: TripEventDTO }
    struct ChatMessageOut: Encodable { var type = "chat"; var conversation: String; var message: ChatMessageDTO }
    struct BroadcastMessage: Encodable { var type = "broadcast"; var broadcast: BroadcastDTO }
    struct MembersMessage: Encodable { var type: String }

    func state(_ trip: Trip, _ viewer: inout Viewer) async throws -> String {
        let room = trips.hub.room(tripID) ?? TripHub.Room(trip: trip)
        let visible = MapVisibility.visible(to: viewer.person, on: room.trip ?? trip, positions: Array(room.positions.values), now: trips.now(),
                                            radiusMetres: viewer.radius)
        viewer.shown = Dictionary(uniqueKeysWithValues: visible.map { ($0.person, $0) })
        let events = try await trips.events(tripID, for: viewer.person).map(TripService.dto)
        let chat = try await trips.chat("trip:\(tripID)", for: viewer.person, before: nil, limit: 50)
        let broadcasts = try await trips.broadcasts(tripID, for: viewer.person).broadcasts
        return try encode(StateMessage(trip: TripService.dto(room.trip ?? trip, for: viewer.person), radius: viewer.radius,
                                       positions: visible.map(TripService.dto), events: events, chat: chat, broadcasts: broadcasts))
    }

    func messages(for input: Input, _ viewer: inout Viewer) async throws -> [String] {
        switch input {
        case .radius(let metres):
            viewer.radius = metres
            return try redraw(&viewer)
        case .tick:
            return try redraw(&viewer)
        case .signal(.position(_, let p)) where p.person == viewer.person:
            // One's own move changes who is within one's radius.
            return try redraw(&viewer)
        case .signal(.position(_, let p)):
            guard let room = trips.hub.room(tripID), let trip = room.trip else { return [] }
            let visible = MapVisibility.isVisible(p, to: viewer.person, on: trip, viewerPosition: room.positions[viewer.person], now: trips.now(),
                                                  radiusMetres: viewer.radius)
            return try change(p.person, to: visible ? p : nil, &viewer)
        case .signal(.members(let trip)):
            guard trip.isMember(viewer.person) else { return [try encode(MembersMessage(type: "left"))] }
            return try [encode(MembersMessage(type: "members"))] + redraw(&viewer)
        case .signal(.event(let e)):
            guard let trip = trips.hub.room(tripID)?.trip, e.isVisible(to: viewer.person, trip: trip) else { return [] }
            return [try encode(EventMessage(event: TripService.dto(e)))]
        case .signal(.chat(let conversation, let m)):
            let name = try await name(m.author, &viewer)
            let dto = ChatMessageDTO(sequence: m.sequence, author: m.author, authorName: name, text: m.text, at: m.at.description)
            return [try encode(ChatMessageOut(conversation: TripService.key(conversation, for: viewer.person), message: dto))]
        case .signal(.broadcast(let b)):
            return [try encode(BroadcastMessage(broadcast: TripService.dto(b)))]
        }
    }

    /// Everything the viewer may see now against what they were sent: the differences.
    func redraw(_ viewer: inout Viewer) throws -> [String] {
        guard let room = trips.hub.room(tripID), let trip = room.trip else { return [] }
        let visible = MapVisibility.visible(to: viewer.person, on: trip, positions: Array(room.positions.values), now: trips.now(),
                                            radiusMetres: viewer.radius)
        var out: [String] = []
        let now = Dictionary(uniqueKeysWithValues: visible.map { ($0.person, $0) })
        for person in Set(viewer.shown.keys).union(now.keys).sorted() { out += try change(person, to: now[person], &viewer) }
        return out
    }

    /// The message that brings the client's view of one person to `position` (nil: not shown), if it changed.
    func change(_ person: String, to position: SharedPosition?, _ viewer: inout Viewer) throws -> [String] {
        guard viewer.shown[person] != position else { return [] }
        viewer.shown[person] = position
        if let position { return [try encode(PositionMessage(position: TripService.dto(position)))] }
        return [try encode(HiddenMessage(person: person))]
    }

    func name(_ person: String, _ viewer: inout Viewer) async throws -> String {
        if let known = viewer.names[person] { return known }
        let name = try await trips.displayName(person)
        viewer.names[person] = name
        return name
    }

    func encode(_ value: some Encodable) throws -> String { String(decoding: try JSONEncoder.api.encode(value), as: UTF8.self) }
}
