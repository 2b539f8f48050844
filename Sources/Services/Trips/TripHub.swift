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

    private struct Listener {
        var trip: String
        var person: String
        var continuation: AsyncStream<TripSignal>.Continuation
    }

    private struct State {
        var rooms: [String: Room] = [:]
        var listeners: [Int: Listener] = [:]
    }

    private let state = Mutex(State())
    private let nextID = Atomic<Int>(0)
    private let relay = Mutex<LiveRelay?>(nil)

    public init() {}

    /// Signals for `person` watching `trip`, from now on. Older signals are dropped when a slow
    /// connection falls 4,096 behind; a page that sees a gap in chat numbers reads the page again.
    public func subscribe(trip: String, person: String) -> AsyncStream<TripSignal> {
        let id = nextID.add(1, ordering: .relaxed).newValue
        let (stream, continuation) = AsyncStream<TripSignal>.makeStream(bufferingPolicy: .bufferingNewest(4_096))
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { s in
                s.listeners[id] = nil
                // The room is kept only while someone watches its trip.
                if !s.listeners.values.contains(where: { $0.trip == trip }) { s.rooms[trip] = nil }
            }
        }
        state.withLock { s in
            s.listeners[id] = Listener(trip: trip, person: person, continuation: continuation)
            if s.rooms[trip] == nil { s.rooms[trip] = Room() }
        }
        return stream
    }

    /// Fills a watched trip's room from storage, read after subscribing: what was announced since
    /// (newer than what was read) is kept.
    public func seed(_ trip: Trip, positions: [SharedPosition]) {
        state.withLock { s in
            guard var room = s.rooms[trip.id] else { return }
            if room.trip == nil { room.trip = trip }
            for p in positions where room.positions[p.person] == nil { room.positions[p.person] = p }
            s.rooms[trip.id] = room
        }
    }

    /// A watched trip's members and positions as this server knows them.
    public func room(_ trip: String) -> Room? { state.withLock { $0.rooms[trip] } }

    /// Sends this hub's changes to the other servers too.
    func relay(_ relay: LiveRelay) { self.relay.withLock { $0 = relay } }

    /// A change made on this server: announced here and to the other servers.
    public func publish(_ signal: TripSignal) {
        deliver(signal)
        relay.withLock { $0 }?.announce(signal.relayed)
    }

    /// Announces on this server only (what the relay brings from another).
    func deliver(_ signal: TripSignal) {
        let targets: [AsyncStream<TripSignal>.Continuation] = state.withLock { s in
            switch signal {
            case .position(let trip, let p):
                s.rooms[trip]?.positions[p.person] = p
                return s.listeners.values.filter { $0.trip == trip }.map(\.continuation)
            case .members(let trip):
                s.rooms[trip.id]?.trip = trip
                return s.listeners.values.filter { $0.trip == trip.id }.map(\.continuation)
            case .event(let e):
                return s.listeners.values.filter { $0.trip == e.tripId }.map(\.continuation)
            case .broadcast(let b):
                return s.listeners.values.filter { $0.trip == b.tripId }.map(\.continuation)
            case .chat(.trip(let trip), _):
                return s.listeners.values.filter { $0.trip == trip }.map(\.continuation)
            case .chat(.direct(let a, let b), _):
                return s.listeners.values.filter { $0.person == a || $0.person == b }.map(\.continuation)
            }
        }
        for c in targets { c.yield(signal) }
    }

    /// The trips someone on this server watches.
    var watchedTrips: [String] { state.withLock { Array($0.rooms.keys) } }

    /// The people with a live trip connection on this server.
    var watchingPeople: Set<String> { state.withLock { Set($0.listeners.values.map(\.person)) } }

    /// How many live trip connections are open.
    public var count: Int { state.withLock { $0.listeners.count } }
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
