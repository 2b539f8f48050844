import API
import Foundation
import Logging
import OnwardCore
import ServiceLifecycle
import Storage
import Synchronization
import Tracing
import Trips

/// What one server tells the others sharing its database, so each announces the change to its own
/// live connections. Small on purpose (PostgreSQL's NOTIFY carries under 8,000 bytes): IDs, which
/// the receiver reads from storage, and a position whole (it is small and comes often).
public enum RelayMessage: Sendable, Hashable, Codable {
    case routes(account: String)
    /// The account was deleted, or signed out everywhere: its live connections end.
    case accountClosed(account: String)
    /// One session was signed out: the live connections it opened end (the hash storage keeps, not the token).
    case sessionEnded(session: String)
    case position(trip: String, SharedPosition)
    case members(trip: String)
    case event(id: String)
    case chat(Conversation, sequence: Int)
    case broadcast(trip: String, id: String)
    /// A commute in progress changed or ended (its ID is a secret, but no more than in the database itself).
    case commute(id: String)
    /// The server polling a realtime source stored a new feed from it: the others apply the stored one.
    case feed(source: String)
    /// The server that checks the static feeds stored a new version: the others load it from the database.
    case timetable
    /// An operator asked a server that does not check the static feeds for a check (of one feed, or all): the one that does, checks.
    case timetableCheckAsked(feed: String?)
}

extension RelayMessage {
    /// What kind of change it is, to name its span (never its IDs: a commute's is a secret).
    var kind: String {
        switch self {
        case .routes: "routes"
        case .accountClosed: "account closed"
        case .sessionEnded: "session ended"
        case .position: "position"
        case .members: "members"
        case .event: "event"
        case .chat: "chat"
        case .broadcast: "broadcast"
        case .commute: "commute"
        case .feed: "realtime feed stored"
        case .timetable: "timetable stored"
        case .timetableCheckAsked: "timetable check asked"
        }
    }
}

/// How relay messages travel between servers (PostgreSQL's LISTEN/NOTIFY; see App).
public protocol RelayTransport: Sendable {
    /// Sends a text to every server listening (this one too); returns once the database has it.
    func send(_ text: String) async throws
    /// Calls `heard` with each text sent by any server, until cancelled; with `nil` after each (re)connection,
    /// when texts sent during a break may have been missed.
    func listen(_ heard: @escaping @Sendable (String?) async -> Void) async
}

/// Carries live changes between servers on one database. A hub's `publish` hands its change here (in
/// order, without waiting); this service sends it, and turns what other servers send into the same
/// changes on this server's hubs (`deliver`, which never sends again).
public final class LiveRelay: Service, Sendable {
    /// This server, so it skips what it sent itself.
    let origin = UUID().uuidString
    private let transport: any RelayTransport
    private let outgoing: AsyncStream<Outgoing>.Continuation
    private let queued: AsyncStream<Outgoing>
    private let receivers = Mutex<Receivers?>(nil)
    private let logger: Logger

    struct Envelope: Codable {
        var from: String
        var message: RelayMessage
        /// The trace the change was made in (W3C Trace Context fields), when spans are exported: the
        /// receiver's work joins it, so one request shows as one trace across servers.
        var trace: [String: String]?
    }

    /// A change waiting to be sent, with the trace it was announced in.
    struct Outgoing: Sendable {
        var message: RelayMessage
        var context: ServiceContext?
    }

    /// Where what other servers announce is read and announced here.
    struct Receivers: Sendable {
        var people: PeopleService
        var trips: TripService?
        var commutes: CommuteService?
        /// Applies a realtime source's stored feed; every source's when nil.
        var feedStored: (@Sendable (String?) async -> Void)?
        /// Loads a static feed version another server stored; checks the feeds when an operator asked another server.
        var timetable: TimetableSharing?
    }

    /// What a server does when another says something of the static feeds.
    public struct TimetableSharing: Sendable {
        /// Another server stored a new version (or announcements may have been missed): load what is stored.
        public var stored: @Sendable () async -> Void
        /// An operator asked another server for a check of `feed` (nil: all); the server that checks the feeds checks.
        public var checkAsked: @Sendable (String?) async -> Void

        public init(stored: @escaping @Sendable () async -> Void, checkAsked: @escaping @Sendable (String?) async -> Void) {
            self.stored = stored; self.checkAsked = checkAsked
        }
    }

    public init(transport: any RelayTransport, logger: Logger) {
        self.transport = transport
        self.logger = logger
        (queued, outgoing) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// Connects the hubs: their changes go out through this relay, and others' come in to them.
    /// `feedStored` applies a realtime source's feed that another server stored (every source's when nil:
    /// after a break in hearing the others, when announcements may have been missed).
    public func connect(people: PeopleService, trips: TripService?, commutes: CommuteService?,
                        feedStored: (@Sendable (String?) async -> Void)? = nil, timetable: TimetableSharing? = nil) {
        receivers.withLock { $0 = Receivers(people: people, trips: trips, commutes: commutes, feedStored: feedStored, timetable: timetable) }
        people.hub.relay(self)
        people.sessionEnds.relay(self)
        trips?.hub.relay(self)
        commutes?.share(through: self)
    }

    /// Queues a change for the other servers, in order (the hubs call it; never waits).
    public func announce(_ message: RelayMessage) { outgoing.yield(Outgoing(message: message, context: ServiceContext.current)) }

    /// Where a hub keeps the relay it announces through, once servers share a database (none before).
    final class Slot: Sendable {
        private let relay = Mutex<LiveRelay?>(nil)

        func set(_ relay: LiveRelay) { self.relay.withLock { $0 = relay } }

        /// Whether changes are shared with other servers.
        var isSet: Bool { relay.withLock { $0 != nil } }

        /// Tells the other servers, when there are any.
        func announce(_ message: RelayMessage) { relay.withLock { $0 }?.announce(message) }
    }

    public func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.sendQueued() }
            group.addTask { await self.transport.listen { text in await self.heard(text) } }
            await withGracefulShutdownHandler {
                await group.next()
            } onGracefulShutdown: {
                self.outgoing.finish()
            }
            group.cancelAll()
        }
    }

    private func sendQueued() async {
        let encoder = JSONEncoder()
        var failures = 0
        for await item in queued {
            do {
                let trace = TracePropagation.fields(of: item.context)
                let envelope = Envelope(from: origin, message: item.message, trace: trace.isEmpty ? nil : trace)
                let text = String(decoding: try encoder.encode(envelope), as: UTF8.self)
                try await transport.send(text)
                failures = 0
            } catch {
                // The change is stored; only other servers' live connections miss it until they read again.
                // Said at the first failure in a row, then at the 10th, 100th…: a database that is away is not a log flood.
                failures += 1
                if String(failures).first == "1", String(failures).dropFirst().allSatisfy({ $0 == "0" }) {
                    logger.warning("live changes are not reaching the other servers", metadata: ["error": "\(error)", "failures": "\(failures)"])
                }
            }
        }
    }

    private func heard(_ text: String?) async {
        guard let text else {
            // (Re)connected: what was announced meanwhile is lost, so the feeds are read again and this
            // server's live connections are brought up to date from storage.
            guard let receivers = receivers.withLock({ $0 }) else { return }
            await receivers.feedStored?(nil)
            await receivers.timetable?.stored()
            await catchUp(receivers)
            return
        }
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(text.utf8)) else {
            logger.warning("a relay message this version cannot read was ignored")
            return
        }
        guard envelope.from != origin, let receivers = receivers.withLock({ $0 }) else { return }
        do {
            if let trace = envelope.trace {
                // Sent from within a trace: what this server does of it is part of the same one.
                try await withSpan("relay \(envelope.message.kind)", context: TracePropagation.context(from: trace), ofKind: .consumer) { _ in
                    try await apply(envelope.message, receivers)
                }
            } else {
                try await apply(envelope.message, receivers)
            }
        } catch {
            logger.warning("a live change from another server could not be read", metadata: ["error": "\(error)"])
        }
    }

    /// Announces, on this server only, the stored state of everything its live connections follow:
    /// each listening person's routes; each watched trip's members, positions, events and latest chat
    /// message, and the latest message of each direct conversation of the people watching (a page that
    /// sees a gap in chat numbers reads the page again); each followed commute.
    /// What a connection already has comes again, which it takes as it is.
    private func catchUp(_ r: Receivers) async {
        do {
            for account in r.people.hub.accountsListening {
                r.people.hub.deliver(try await r.people.repository.routes(accountId: account), of: account)
            }
            if let trips = r.trips {
                for id in trips.hub.watchedTrips {
                    guard let trip = try await trips.repository.trip(id: id) else { continue }
                    trips.hub.deliver(.members(trip))
                    let known = trips.hub.room(id)?.positions ?? [:]
                    for p in try await trips.repository.positions(trip: id) where known[p.person].map({ $0.at < p.at }) ?? true {
                        trips.hub.deliver(.position(trip: id, p))
                    }
                    for event in try await trips.repository.events(trip: id) { trips.hub.deliver(.event(event)) }
                    if let last = try await trips.repository.messages(in: .trip(id), before: nil, limit: 1).first {
                        trips.hub.deliver(.chat(.trip(id), last))
                    }
                }
                var direct = Set<Conversation>()
                for person in trips.hub.watchingPeople {
                    for friend in try await trips.friends(of: person) { direct.insert(.between(person, friend.id)) }
                }
                for conversation in direct {
                    if let last = try await trips.repository.messages(in: conversation, before: nil, limit: 1).first {
                        trips.hub.deliver(.chat(conversation, last))
                    }
                }
            }
        } catch {
            logger.warning("live connections could not be brought up to date after the relay reconnected", metadata: ["error": "\(error)"])
        }
        await r.commutes?.catchUp()
    }

    /// Reads what the message names and announces it on this server's hubs only.
    private func apply(_ message: RelayMessage, _ r: Receivers) async throws {
        switch message {
        case .routes(let account):
            r.people.hub.deliver(try await r.people.repository.routes(accountId: account), of: account)
        case .accountClosed(let account):
            r.people.hub.deliverClose(account)
            r.people.sessionEnds.deliverEndAll(account: account)
        case .sessionEnded(let session):
            r.people.sessionEnds.deliverEnd(session: session)
        case .position(let trip, let position):
            r.trips?.hub.deliver(.position(trip: trip, position))
        case .members(let id):
            guard let trips = r.trips, let trip = try await trips.repository.trip(id: id) else { return }
            trips.hub.deliver(.members(trip))
        case .event(let id):
            guard let trips = r.trips, let event = try await trips.repository.event(id: id) else { return }
            trips.hub.deliver(.event(event))
        case .chat(let conversation, let sequence):
            guard let trips = r.trips,
                  let message = try await trips.repository.messages(in: conversation, before: sequence + 1, limit: 1).first,
                  message.sequence == sequence else { return }
            trips.hub.deliver(.chat(conversation, message))
        case .broadcast(let trip, let id):
            guard let trips = r.trips, let b = try await trips.repository.broadcasts(trip: trip, limit: 50).first(where: { $0.id == id }) else { return }
            trips.hub.deliver(.broadcast(b))
        case .commute(let id):
            await r.commutes?.heard(id)
        case .feed(let source):
            await r.feedStored?(source)
        case .timetable:
            await r.timetable?.stored()
        case .timetableCheckAsked(let feed):
            await r.timetable?.checkAsked(feed)
        }
    }
}
