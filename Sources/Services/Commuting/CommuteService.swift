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
    struct Entry {
        var state: CommuteState
        var watchers: [UUID: AsyncStream<CommuteUpdate>.Continuation] = [:]
    }

    public let repository: any CommuteRepository
    private let sources: SourceRegistry
    public let pushSender: PushSender?
    private let beacons: BeaconMap
    public let now: @Sendable () -> Instant
    let logger: Logger
    let table = Mutex<[String: Entry]>([:])
    private let loaded = Mutex(false)
    /// With several servers on one database (`share(through:)`): the relay that tells the others of each
    /// change. A commute this server has not seen is then looked up in storage.
    let relay = Mutex<LiveRelay?>(nil)
    /// Whether this server runs the commutes' clock (deadlines, simulations, live times): always alone,
    /// and the leader among servers sharing a database, so no alert is given twice.
    let ticking = Atomic<Bool>(true)
    /// Pushes leave in the order their alerts were given.
    private let pushes: AsyncStream<(String, PushSubscription, Data)>.Continuation
    private let pushQueue: AsyncStream<(String, PushSubscription, Data)>

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
        var state = CommuteState(session: begun.session, journey: journey, plan: begun.plan)
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
        relay.withLock { $0 }?.announce(.commute(id: id))
        table.withLock { $0[id] = Entry(state: state) }
        logger.info("commute started", metadata: ["simulated": .stringConvertible(simulationSpeed != nil)])
        await step(id)
        return (id, await view(id) ?? state.dto(id: id, at: real))
    }

    /// The commute's state, or nil for an ID that is not a commute in progress.
    public func view(_ id: String) async -> CommuteDTO? {
        guard await known(id) else { return nil }
        let real = now()
        return table.withLock { $0[id]?.state.dto(id: nil, at: real) }
    }

    /// Whether `id` is a commute in progress.
    public func exists(_ id: String) async -> Bool { await known(id) }

    /// Whether `id` may be a commute in progress, without waiting (for the connection's first check):
    /// one this server has, or any when servers share a database (the upgrade then checks storage).
    public func mayExist(_ id: String) -> Bool { relay.withLock { $0 != nil } || table.withLock { $0[id] != nil } }

    /// Ends a commute and forgets it. False when there was none.
    public func end(_ id: String) async throws -> Bool {
        guard await known(id), let watchers = table.withLock({ $0.removeValue(forKey: id)?.watchers }) else { return false }
        try await repository.remove(id: id)
        relay.withLock { $0 }?.announce(.commute(id: id))
        for w in watchers.values { w.finish() }
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
        guard await known(id), let zone = table.withLock({ $0[id].map { Self.zone($0.state) } }) else { return nil }
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
    public func watch(_ id: String) async -> (CommuteDTO, AsyncStream<CommuteUpdate>, cancel: @Sendable () -> Void)? {
        guard await known(id) else { return nil }
        let (stream, continuation) = AsyncStream.makeStream(of: CommuteUpdate.self, bufferingPolicy: .bufferingNewest(64))
        let key = UUID()
        let real = now()
        guard let first = table.withLock({ t -> CommuteDTO? in
            guard t[id] != nil else { return nil }
            t[id]!.watchers[key] = continuation
            return t[id]!.state.dto(id: nil, at: real)
        }) else { return nil }
        return (first, stream, { [weak self] in
            _ = self?.table.withLock { $0[id]?.watchers.removeValue(forKey: key) }
            continuation.finish()
        })
    }

    // MARK: The clock

    public func run() async throws {
        try await load()
        try await cancelWhenGracefulShutdown {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await self.sendPushes() }
                group.addTask {
                    var sweep = 0
                    while !Task.isCancelled {
                        try await Task.sleep(for: .seconds(1))
                        if self.ticking.load(ordering: .relaxed) {
                            for id in self.table.withLock({ Array($0.keys) }) { await self.step(id) }
                        }
                        sweep += 1
                        if sweep % 60 == 0 { await self.forgetExpired() }
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        }
        pushes.finish()
    }

    /// Takes up the commutes storage kept (once).
    public func load() async throws {
        guard loaded.withLock({ done in defer { done = true }; return !done }) else { return }
        let count = try await takeUpAll()
        if count > 0 { logger.info("commutes resumed", metadata: ["count": .stringConvertible(count)]) }
    }

    /// Takes up every commute in progress in storage (newer states replacing older ones here); returns how many.
    @discardableResult func takeUpAll() async throws -> Int {
        var count = 0
        for record in try await repository.active(at: now()) where takeUp(record) { count += 1 }
        return count
    }

    /// Hands the clock to one commute: the simulated traveller's positions due by now, deadlines
    /// passed, new live times; then plans again after a missed change.
    func step(_ id: String) async {
        let real = now()
        guard let state = table.withLock({ $0[id]?.state }), !state.isOver(at: real.adding(seconds: -60)) else { return }
        var journeyUpdate: Journey?
        let refresh = state.simulation == nil && (state.refreshedAt.map { real.epochSeconds - $0.epochSeconds >= Self.refreshSeconds } ?? true)
        if refresh {
            let fresh = await Queries(sources, now: real).refreshed(state.journey)
            if fresh != state.journey { journeyUpdate = fresh }
        }
        do {
            guard let changed = try await change(id, { state in
                Self.tick(&state, at: real, refreshed: refresh, journey: journeyUpdate)
            }) else { return }
            try await replan(id, after: changed)
        } catch {
            logger.warning("a commute could not be saved", metadata: ["error": .string("\(error)")])
        }
    }

    /// One step of the clock on a state: the live times when `refreshed`, the simulated traveller's
    /// positions due by now, deadlines passed. Applied again to a newer state after a lost race.
    private static func tick(_ state: inout CommuteState, at real: Instant, refreshed: Bool, journey: Journey?) -> [CommuteAlert] {
        var alerts: [CommuteAlert] = []
        if refreshed { state.refreshedAt = real }
        if let journey {
            state.journey = journey
            alerts += state.session.handle(.journey(journey, at: max(real, state.session.time ?? real)))
        }
        let clock = state.clock(at: real)
        if var sim = state.simulation {
            var events = sim.track[sim.handled...]
            let before = events.count
            alerts += state.session.advance(to: clock, events: &events)
            sim.handled += before - events.count
            state.simulation = sim
        } else {
            var none = ArraySlice<CommuteEvent>()
            alerts += state.session.advance(to: clock, events: &none)
        }
        return alerts
    }

    // MARK: Changes

    private struct Change {
        var state: CommuteState
        var alerts: [CommuteAlert]
        var changed: Bool
    }

    /// How many times a change is applied again after losing a race to store it, before giving up.
    static let attempts = 8

    /// Applies `body` to a commute's state and stores the result before anyone hears of it; then its live
    /// clients get the new state and alerts, and its push subscription the alerts. Storage keeps one line
    /// of revisions: when another server (or another task here) stored a change first, its state is taken
    /// up and `body` applied to that, so neither change is lost and no alert is given for a state that was
    /// not kept. Nil for a commute that is not (or no longer) in progress.
    private func change(_ id: String, _ body: (inout CommuteState) -> [CommuteAlert]) async throws -> Change? {
        for _ in 0..<Self.attempts {
            guard let before = table.withLock({ $0[id]?.state }) else { return nil }
            var state = before
            let alerts = body(&state)
            state.alerts += alerts
            guard !alerts.isEmpty || state != before else { return Change(state: state, alerts: [], changed: false) }
            state.revision = before.revision + 1
            if try await repository.save(try record(id, state), over: before.revision) {
                relay.withLock { $0 }?.announce(.commute(id: id))
                deliver(id, state, alerts)
                return Change(state: state, alerts: alerts, changed: true)
            }
            guard await reload(id) else { return nil }
        }
        throw StorageError(.failed, "a commute changed \(Self.attempts) times while one change was being saved; that change was not saved")
    }

    /// A state as storage keeps it, written now.
    private func record(_ id: String, _ state: CommuteState) throws -> CommuteRecord {
        CommuteRecord(id: id, state: try JSONEncoder.api.encode(state), revision: state.revision, updatedAt: now(), expiresAt: state.expiresAt)
    }

    /// Takes a stored change into the table and tells its live clients and its push subscription.
    private func deliver(_ id: String, _ state: CommuteState, _ alerts: [CommuteAlert]) {
        let real = now()
        let zone = Self.zone(state)
        table.withLock { t in
            // A reload after a lost race may have taken this state up already, and told the live clients.
            guard let entry = t[id], entry.state.revision < state.revision else { return }
            t[id]!.state = state
            // The view is made only when someone is watching: this runs every second for every commute.
            guard !entry.watchers.isEmpty else { return }
            let dto = state.dto(id: nil, at: real)
            for w in entry.watchers.values {
                if alerts.isEmpty { w.yield(.state(dto)) }
                for a in alerts { w.yield(.alert(CommuteAlertDTO(a, zone: zone), dto)) }
            }
        }
        if let push = state.push, pushSender != nil {
            for a in alerts {
                let body = CommutePushDTO(alert: CommuteAlertDTO(a, zone: zone), url: "/commute")
                if let data = try? JSONEncoder.api.encode(body) { pushes.yield((id, push, data)) }
            }
        }
    }

    /// Plans again after a missed change, when the engine asks.
    private func replan(_ id: String, after change: Change) async throws {
        guard let from = change.state.session.replanFrom, let at = change.state.session.time else { return }
        guard let journey = await driver.replan(from: from.stopID, plan: change.state.plan, at: at, now: now()) else {
            // No other way: carry on with the old journey (the engine goes on once asked again).
            return
        }
        _ = try await self.change(id) { state in
            guard state.session.replanFrom == from else { return [] }
            state.journey = journey
            return state.session.handle(.journey(journey, at: at))
        }
    }

    private func forgetExpired() async {
        let real = now()
        table.withLock { t in
            for id in t.filter({ $0.value.state.expiresAt < real }).map(\.key) { t.removeValue(forKey: id)?.watchers.values.forEach { $0.finish() } }
        }
        _ = try? await repository.removeExpired(before: real)
    }

    private func sendPushes() async {
        guard let sender = pushSender else { return }
        for await (id, subscription, payload) in pushQueue {
            if case .gone = await sender.send(payload, to: subscription) {
                _ = try? await change(id) { state in
                    if state.push == subscription { state.push = nil }
                    return []
                }
            }
        }
    }

    // MARK: Helpers

    static func zone(_ state: CommuteState) -> TimeZone {
        TimeZone(identifier: state.journey.legs.first?.fromStop.timeZone ?? "UTC") ?? .gmt
    }
}
