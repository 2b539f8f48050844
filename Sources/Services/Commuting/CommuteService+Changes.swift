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

/// How a commute changes: applied to its state, stored (again on a newer state after a lost race), then
/// told to its live clients and its push subscription; planned again after a missed change.
extension CommuteService {
    struct Change {
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
    func change(_ id: String, _ body: (inout CommuteState) -> [CommuteAlert]) async throws -> Change? {
        for _ in 0..<Self.attempts {
            guard let before = table.withLock({ $0[id] }) else { return nil }
            var state = before
            let alerts = body(&state)
            state.alerts += alerts
            guard !alerts.isEmpty || state != before else { return Change(state: state, alerts: [], changed: false) }
            state.revision = before.revision + 1
            if try await repository.save(try record(id, state), over: before.revision) {
                relay.announce(.commute(id: id))
                deliver(id, state, alerts)
                return Change(state: state, alerts: alerts, changed: true)
            }
            guard await reload(id) else { return nil }
        }
        throw StorageError(.failed, "a commute changed \(Self.attempts) times while one change was being saved; that change was not saved")
    }

    /// A state as storage keeps it, written now.
    func record(_ id: String, _ state: CommuteState) throws -> CommuteRecord {
        CommuteRecord(id: id, state: try JSONEncoder.api.encode(state), revision: state.revision, updatedAt: now(), expiresAt: state.expiresAt)
    }

    /// Takes a stored change into the table and tells its live clients and its push subscription.
    func deliver(_ id: String, _ state: CommuteState, _ alerts: [CommuteAlert]) {
        let real = now()
        let zone = Self.zone(state)
        table.withLock { t in
            // A reload after a lost race may have taken this state up already, and told the live clients.
            guard let held = t[id], held.revision < state.revision else { return }
            t[id] = state
            tell(id, state, alerts, at: real)
        }
        if let push = state.push, pushSender != nil {
            for a in alerts {
                let body = CommutePushDTO(alert: CommuteAlertDTO(a, zone: zone), url: "/commute")
                if let data = try? JSONEncoder.api.encode(body) { pushes.yield((id, push, data)) }
            }
        }
    }

    /// Tells a commute's live clients of its new state: each alert with it, or the state alone. Called
    /// under the table's lock, so clients hear the changes in the order they were made.
    func tell(_ id: String, _ state: CommuteState, _ alerts: [CommuteAlert], at real: Instant) {
        // The view is made only when someone is watching: this runs every second for every commute.
        guard watchers.isHeard(id) else { return }
        let dto = state.dto(id: nil, at: real), zone = Self.zone(state)
        if alerts.isEmpty { watchers.publish(.state(dto), to: id) }
        for a in alerts { watchers.publish(.alert(CommuteAlertDTO(a, zone: zone), dto), to: id) }
    }

    /// Plans again after a missed change, when the engine asks. When no other way was found from a station, it is
    /// not asked again from there until the live times are (`refreshSeconds`): the clock steps every second.
    func replan(_ id: String, after change: Change) async throws {
        guard let from = change.state.session.replanFrom, let at = change.state.session.time else { return }
        let real = now()
        if let tried = replanFailures.withLock({ $0[id] }), tried.stopID == from.stopID, real.epochSeconds - tried.at.epochSeconds < Self.refreshSeconds {
            return
        }
        guard let journey = await driver.replanned(change.state.session, current: change.state.journey, plan: change.state.plan, now: real) else {
            // No other way: carry on with the old journey (the engine goes on once asked again).
            replanFailures.withLock { $0[id] = (from.stopID, real) }
            return
        }
        replanFailures.withLock { $0[id] = nil }
        _ = try await self.change(id) { state in
            guard state.session.replanFrom == from else { return [] }
            return state.session.handle(.journey(journey, at: at))
        }
    }
}
