import API
import Foundation
import Logging
import OnwardCore
import Storage
import Synchronization

/// Several servers on one database: each change is announced, a commute started elsewhere is read
/// from storage, and only the leader's clock runs.
extension CommuteService {
    /// Shares commutes with the other servers on this database: each change is announced through `relay`,
    /// a commute started elsewhere is read from storage when asked for, and only the leader's clock runs
    /// (`lead`), so every deadline's alert is given once.
    public func share(through relay: LiveRelay) {
        self.relay.set(relay)
        ticking.store(false, ordering: .relaxed)
    }

    /// Runs the clock while `leading` runs (the caller holds the leadership): first taking up every commute
    /// in storage, since some were started or changed on other servers.
    public func lead() async {
        do { try await takeUpAll() } catch {
            logger.warning("the commutes in progress could not be read on taking the lead", metadata: ["error": "\(error)"])
        }
        ticking.store(true, ordering: .relaxed)
        while !Task.isCancelled { try? await Task.sleep(for: .seconds(3_600)) }
        ticking.store(false, ordering: .relaxed)
    }

    /// Another server changed (or ended) a commute: this one takes the stored state if it has the commute
    /// (for its live clients) or runs the clock (for the deadlines).
    func heard(_ id: String) async {
        guard ticking.load(ordering: .relaxed) || table.withLock({ $0[id] != nil }) else { return }
        _ = await reload(id)
    }

    /// After a break in the relay: every commute a live client here follows is read again, so a change
    /// made on another server meanwhile reaches it.
    func catchUp() async {
        for id in watchers.topics { _ = await reload(id) }
    }

    /// Whether `id` is a commute in progress. Sharing a database, storage says (read afresh: another server
    /// may have changed or ended it, and a change made here then starts from the latest state).
    func known(_ id: String) async -> Bool {
        guard relay.isSet else { return table.withLock { $0[id] != nil } }
        return await reload(id)
    }

    /// Reads a commute from storage: taken up when newer than what this server has, forgotten when gone.
    func reload(_ id: String) async -> Bool {
        let record: CommuteRecord?
        do { record = try await repository.record(id: id) } catch {
            logger.warning("a commute could not be read", metadata: ["error": "\(error)"])
            return table.withLock { $0[id] != nil }
        }
        guard let record, record.expiresAt >= now() else {
            table.withLock { t in
                t[id] = nil
                watchers.finish(id)
            }
            return false
        }
        return takeUp(record)
    }

    /// Takes a stored state when this server has none or an older one, and tells its live clients
    /// (alerts given elsewhere too); never pushes, which is the giving server's job. False when unreadable.
    func takeUp(_ record: CommuteRecord) -> Bool {
        guard let state = try? JSONDecoder().decode(CommuteState.self, from: record.state) else {
            logger.warning("a stored commute could not be read and was left as it was")
            return false
        }
        let real = now()
        table.withLock { t in
            guard let held = t[record.id] else {
                t[record.id] = state
                return
            }
            guard state.revision > held.revision else { return }
            t[record.id] = state
            let old = held.alerts.count
            tell(record.id, state, state.alerts.count > old ? Array(state.alerts[old...]) : [], at: real)
        }
        return true
    }
}
