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

/// The commutes' clock: once a second each commute is handed the time (deadlines, a simulated
/// traveller's track) and, every few minutes, its live times; expired commutes are forgotten.
extension CommuteService {
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
                            let changed = self.timetableChanged.exchange(false, ordering: .relaxed)
                            for id in self.table.withLock({ Array($0.keys) }) { await self.step(id, timetableChanged: changed) }
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

    /// A new timetable is in service: the live times of every commute are asked again at the next step.
    public func timetableReplaced() { timetableChanged.store(true, ordering: .relaxed) }

    /// Hands the clock to one commute: the simulated traveller's positions due by now, deadlines
    /// passed, new live times (at once when the timetable changed); then plans again after a missed change.
    func step(_ id: String, timetableChanged: Bool = false) async {
        let real = now()
        guard let state = table.withLock({ $0[id] }), !state.isOver(at: real.adding(seconds: -60)) else { return }
        var journeyUpdate: Journey?
        let due = timetableChanged || (state.refreshedAt.map { real.epochSeconds - $0.epochSeconds >= Self.refreshSeconds } ?? true)
        let refresh = state.simulation == nil && due
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
    static func tick(_ state: inout CommuteState, at real: Instant, refreshed: Bool, journey: Journey?) -> [CommuteAlert] {
        var alerts: [CommuteAlert] = []
        if refreshed { state.refreshedAt = real }
        if let journey {
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

    func forgetExpired() async {
        let real = now()
        table.withLock { t in
            for id in t.filter({ $0.value.expiresAt < real }).map(\.key) {
                t[id] = nil
                watchers.finish(id)
            }
        }
        let kept = table.withLock { Set($0.keys) }
        replanFailures.withLock { $0 = $0.filter { kept.contains($0.key) } }
        _ = try? await repository.removeExpired(before: real)
    }
}
