import OnwardCore
import Synchronization
import Trips

/// What changed on a trip, announced to the live connections that may see it.
public enum TripSignal: Sendable, Hashable {
    case position(trip: String, SharedPosition)
    /// Its members changed (someone joined or left).
    case members(Trip)
    case event(TripEvent)
    case chat(Conversation, ChatMessage)
    case broadcast(Broadcast)
}

/// Announces trip changes to the live connections of this server, and keeps, for each trip someone
/// watches, its members and latest positions: a position fans out to every viewer without a read of
/// storage per viewer. Each connection applies the privacy rules itself (`MapVisibility`,
/// `TripEvent.isVisible`); the hub only routes: a trip's signals to that trip's connections, a
/// direct message to the connections of its two people.
public final class TripHub: Sendable {
    public struct Room: Sendable {
        public var trip: Trip?
        public var positions: [String: SharedPosition] = [:]

        public init(trip: Trip? = nil, positions: [String: SharedPosition] = [:]) { self.trip = trip; self.positions = positions }
    }

    /// Who a live connection is: the trip it watches and the person watching.
    private struct Viewer: Hashable, Sendable {
        var trip: String
        var person: String
    }

    /// By trip, while someone watches it.
    private let rooms = Mutex<[String: Room]>([:])
    /// Each signal is a message of its own (a chat line, an event), so a slow connection keeps up to
    /// 4,096 of them before the oldest go; a page that sees a gap in chat numbers reads the page again.
    private let viewers = LiveHub<Viewer, TripSignal>(keep: 4_096)
    private let relay = LiveRelay.Slot()

    public init() {}

    /// Signals for `person` watching `trip`, from now on.
    public func subscribe(trip: String, person: String) -> AsyncStream<TripSignal> {
        rooms.withLock { rooms in
            if rooms[trip] == nil { rooms[trip] = Room() }
            // Subscribed while the room is held, so the room is never dropped between the two.
            return viewers.subscribe(Viewer(trip: trip, person: person)) { [weak self] in self?.forget(trip) }
        }
    }

    /// The room is kept only while someone watches its trip.
    private func forget(_ trip: String) {
        rooms.withLock { rooms in
            if !viewers.topics.contains(where: { $0.trip == trip }) { rooms[trip] = nil }
        }
    }

    /// Fills a watched trip's room from storage, read after subscribing: what was announced since
    /// (newer than what was read) is kept.
    public func seed(_ trip: Trip, positions: [SharedPosition]) {
        rooms.withLock { rooms in
            guard var room = rooms[trip.id] else { return }
            if room.trip == nil { room.trip = trip }
            for p in positions where room.positions[p.person] == nil { room.positions[p.person] = p }
            rooms[trip.id] = room
        }
    }

    /// A watched trip's members and positions as this server knows them.
    public func room(_ trip: String) -> Room? { rooms.withLock { $0[trip] } }

    /// Sends this hub's changes to the other servers too.
    func relay(_ relay: LiveRelay) { self.relay.set(relay) }

    /// A change made on this server: announced here and to the other servers.
    public func publish(_ signal: TripSignal) {
        deliver(signal)
        relay.announce(signal.relayed)
    }

    /// Announces on this server only (what the relay brings from another).
    func deliver(_ signal: TripSignal) {
        switch signal {
        case .position(let trip, let p):
            rooms.withLock { $0[trip]?.positions[p.person] = p }
            viewers.publish(signal) { $0.trip == trip }
        case .members(let trip):
            rooms.withLock { $0[trip.id]?.trip = trip }
            viewers.publish(signal) { $0.trip == trip.id }
        case .event(let e):
            viewers.publish(signal) { $0.trip == e.tripId }
        case .broadcast(let b):
            viewers.publish(signal) { $0.trip == b.tripId }
        case .chat(.trip(let trip), _):
            viewers.publish(signal) { $0.trip == trip }
        case .chat(.direct(let a, let b), _):
            viewers.publish(signal) { $0.person == a || $0.person == b }
        }
    }

    /// The trips someone on this server watches.
    var watchedTrips: [String] { rooms.withLock { Array($0.keys) } }

    /// The people with a live trip connection on this server.
    var watchingPeople: Set<String> { Set(viewers.topics.map(\.person)) }

    /// How many live trip connections are open.
    public var count: Int { viewers.count }
}

extension TripSignal {
    /// What other servers are told: IDs they read back, or a position whole.
    var relayed: RelayMessage {
        switch self {
        case .position(let trip, let p): .position(trip: trip, p)
        case .members(let trip): .members(trip: trip.id)
        case .event(let e): .event(id: e.id)
        case .chat(let c, let m): .chat(c, sequence: m.sequence)
        case .broadcast(let b): .broadcast(trip: b.tripId, id: b.id)
        }
    }
}
