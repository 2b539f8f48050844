import API
import Commute
import Foundation
import Logging
import OnwardCore
import ServiceLifecycle
import Storage
import Synchronization
import Transit
import TransitSources
import WebPush

/// What a live client of a commute receives: its state, and each alert as it is given.
public enum CommuteUpdate: Sendable {
    case state(CommuteDTO)
    case alert(CommuteAlertDTO, CommuteDTO)
}

/// The commutes in progress: the one driver of the commute engine on the server. Positions and
/// beacon sightings come in from the API and the live channel; once a second the clock is handed
/// in (deadlines, a simulated traveller's track) and every few minutes the live times. Each change
/// is written to storage before it is acknowledged, so a restart loses no commute; each alert goes
/// to the commute's live clients and, by Web Push, to its subscription.
public final class CommuteService: Service, Sendable {
    let repository: any CommuteRepository
    let sources: SourceRegistry
    public let pushSender: PushSender?
    private let beacons: BeaconMap
    public let now: @Sendable () -> Instant
    let logger: Logger
    /// The commutes this server has, by ID.
    let table = Mutex<[String: CommuteState]>([:])
    /// Each commute's live clients. An alert is a message of its own, so a slow client keeps up to 64
    /// (a commute gives a handful an hour); each also carries the whole state, so a gap loses no state.
    let watchers = LiveHub<String, CommuteUpdate>(keep: 64)
    let loaded = Mutex(false)
    /// Where planning again last found no other way, and when, by commute (`replan`).
    let replanFailures = Mutex<[String: (stopID: String, at: Instant)]>([:])
    /// With several servers on one database (`share(through:)`): the relay that tells the others of each
    /// change. A commute this server has not seen is then looked up in storage.
    let relay = LiveRelay.Slot()
    /// Whether this server runs the commutes' clock (deadlines, simulations, live times): always alone,
    /// and the leader among servers sharing a database, so no alert is given twice.
    let ticking = Atomic<Bool>(true)
    /// Set when a new timetable went into service: every commute's live times are asked again at the clock's next
    /// step, not up to `refreshSeconds` later (a renamed train's live times come under its new ID).
    let timetableChanged = Atomic<Bool>(false)
    /// Pushes leave in the order their alerts were given.
    let pushes: AsyncStream<(String, PushSubscription, Data)>.Continuation
    let pushQueue: AsyncStream<(String, PushSubscription, Data)>

    /// Speeds a simulation may run at (times real time), and the default.
    public static let speeds = 1...600
    /// The speed of a simulation whose request does not say.
    public let defaultSpeed: Int
    static let simulationDelaySeconds: Int64 = 3
    /// How often a real commute's live times are asked for again.
    static let refreshSeconds: Int64 = 30

    public init(repository: any CommuteRepository, sources: SourceRegistry, push: PushSender? = nil, beacons: BeaconMap = BeaconMap(),
                defaultSpeed: Int = 30, now: @escaping @Sendable () -> Instant = { .now() }, logger: Logger = Logger(label: "onward.commute")) {
        self.repository = repository; self.sources = sources; self.pushSender = push; self.beacons = beacons
        self.now = now; self.logger = logger; self.defaultSpeed = defaultSpeed
        (pushQueue, pushes) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1_000))
    }

    /// The VAPID public key pages subscribe with, when push is configured.
    public var pushKey: String? { pushSender?.publicKey }

    // MARK: Starting, reading, ending

    /// The driver of the engine this service runs (the one `onward commute` runs too).
    public var driver: CommuteDriver { CommuteDriver(sources: sources) }

    /// Starts a commute the driver began; returns its new ID once it is stored.
    public func start(_ begun: CommuteDriver.Begun, simulationSpeed: Int?) async throws -> (String, CommuteDTO) {
        let real = now()
        let journey = begun.journey
        var state = CommuteState(session: begun.session, plan: begun.plan)
        if let speed = simulationSpeed {
            // The simulated traveller sets out six minutes before the first departure, three seconds from
            // now: time for the page to connect and subscribe to pushes before the first alert.
            state.simulation = .init(journey: journey, realStart: real,
                                     start: journey.departure.adding(seconds: -CommuteDriver.simulationLeadSeconds - Self.simulationDelaySeconds * Int64(speed)), speed: speed)
        }
        let id = Secrets.token()
        guard try await repository.save(try record(id, state), over: nil) else {
            throw StorageError(.conflict, "a new commute's ID was taken; start it again")
        }
        relay.announce(.commute(id: id))
        table.withLock { $0[id] = state }
        logger.info("commute started", metadata: ["simulated": .stringConvertible(simulationSpeed != nil)])
        await step(id)
        return (id, await view(id) ?? state.dto(id: id, at: real))
    }

    /// The commute's state, or nil for an ID that is not a commute in progress.
    public func view(_ id: String) async -> CommuteDTO? {
        guard await known(id) else { return nil }
        let real = now()
        return table.withLock { $0[id]?.dto(id: nil, at: real) }
    }

    /// Whether `id` is a commute in progress.
    public func exists(_ id: String) async -> Bool { await known(id) }

    /// Whether `id` may be a commute in progress, without waiting (for the connection's first check):
    /// one this server has, or any when servers share a database (the upgrade then checks storage).
    public func mayExist(_ id: String) -> Bool { relay.isSet || table.withLock { $0[id] != nil } }

    /// Ends a commute and forgets it. False when there was none.
    public func end(_ id: String) async throws -> Bool {
        guard await known(id), table.withLock({ $0.removeValue(forKey: id) }) != nil else { return false }
        replanFailures.withLock { $0[id] = nil }
        try await repository.remove(id: id)
        relay.announce(.commute(id: id))
        watchers.finish(id)
        return true
    }

    /// Keeps (or, with nil, forgets) the subscription alerts are pushed to. False for an unknown commute.
    public func setPush(_ id: String, _ subscription: PushSubscription?) async throws -> Bool {
        guard await known(id) else { return false }
        return try await change(id) { state in state.push = subscription; return [] } != nil
    }

    // MARK: Sightings

    /// A position or beacon sighting from the traveller's device: the alerts it caused, or nil
    /// for an unknown commute. `at` is kept within the last five minutes and never ahead of now.
    public func sighting(_ id: String, _ s: CommuteSightingDTO) async throws -> [CommuteAlertDTO]? {
        guard await known(id), let zone = table.withLock({ $0[id].map(Self.zone) }) else { return nil }
        let real = now()
        // A device's clock may be off: its time is kept within the last five minutes and never ahead of now.
        let reported = s.at.flatMap(Instant.init(iso8601:)) ?? real
        let at = max(min(reported, real), real.adding(seconds: -300))
        guard let event = CommuteDriver.event(s, at: at, beacons: beacons) else { return [] }
        guard let changed = try await change(id, { state in
            // A simulated commute follows its own traveller: the device's positions are not its.
            state.simulation == nil ? state.session.handle(event) : []
        }) else { return nil }
        try await replan(id, after: changed)
        return changed.alerts.map { CommuteAlertDTO($0, zone: zone) }
    }

    // MARK: Live clients

    /// The commute's state now and its updates from here on; nil for an unknown commute.
    /// The updates end when the commute does; a client stops them by no longer reading.
    public func watch(_ id: String) async -> (CommuteDTO, AsyncStream<CommuteUpdate>)? {
        guard await known(id) else { return nil }
        let real = now()
        // Subscribed and read under the table's lock, which every change is told under: no update
        // falls between the first state and the stream.
        return table.withLock { t -> (CommuteDTO, AsyncStream<CommuteUpdate>)? in
            guard let state = t[id] else { return nil }
            return (state.dto(id: nil, at: real), watchers.subscribe(id))
        }
    }

    // MARK: Helpers

    static func zone(_ state: CommuteState) -> TimeZone {
        TimeZone.named(state.journey.legs.first?.fromStop.timeZone ?? "UTC")
    }
}
