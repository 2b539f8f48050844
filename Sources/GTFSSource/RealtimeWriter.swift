import DataSources
import Foundation
import GTFSRealtime
import OnwardCore
import Timetable

/// The one writer of realtime data: sources hand it decoded messages, it
/// applies them to a copy of the realtime state off the lock, then swaps the
/// result into the store. One actor, so two sources never lose each other's update.
public actor RealtimeWriter {
    public let store: LiveStore
    private var realtime: RealtimeState
    /// Each source's last message, with the moment it was applied as of, in the order they
    /// came: re-applied at once to a new timetable, so live data does not wait for the next poll.
    private var lastMessages: [(source: String, message: RealtimeMessage, now: Instant)] = []
    /// Hears what each message of trip updates said of each call (`Timetable.delayObservations`): the delay history.
    private var delayObserver: (@Sendable ([DelayObservation]) async -> Void)?

    public init(store: LiveStore) {
        self.store = store
        realtime = store.current.realtime
    }

    /// - Parameter record: whether what it says goes to the delay history (not for a message restored from storage,
    ///   which was recorded when it was fetched).
    public func apply(_ message: RealtimeMessage, source: String, now: Instant, record: Bool = true) async {
        lastMessages.removeAll { $0.source == source }
        lastMessages.append((source, message, now))
        let state = store.current
        realtime.apply(message, source: source, timetable: state.timetable, idPrefix: state.idPrefix(ofSource: source), now: now)
        let applied = realtime
        let feedTime = message.timestamp.map { Instant(epochSeconds: Int64(clamping: $0)) }
        store.update { s in
            s.realtime = applied
            s.sources[source, default: SourceHealth(name: source)].feedTimestamp = feedTime ?? now
        }
        if record, let delayObserver, !message.tripUpdates.isEmpty {
            await delayObserver(state.timetable.delayObservations(applied.overlay, source: source, observedAt: feedTime ?? now))
        }
    }

    /// From now on, what each message of trip updates says of each call goes to `observer` (the delay history keeper).
    public func observeDelays(_ observer: @escaping @Sendable ([DelayObservation]) async -> Void) { delayObserver = observer }

    /// Puts a new delay history book in service: boards, services and journeys read it from the next request.
    public func serve(history: DelayHistoryBook) {
        store.update { $0.history = history }
    }

    /// Applies a feed saved by an earlier run. Applied as of its fetch (the
    /// appliers read `now` only in place of a missing feed timestamp), and its
    /// health gets the saved times, so it shows as stale by its real age until
    /// a fetch succeeds.
    public func restore(_ message: RealtimeMessage, source: String, fetchedAt: Instant, feedTimestamp: Instant?) async {
        await apply(message, source: source, now: fetchedAt, record: false)
        store.update { s in
            var h = s.sources[source, default: SourceHealth(name: source)]
            h.lastSuccess = fetchedAt
            h.feedTimestamp = feedTimestamp ?? fetchedAt
            s.sources[source] = h
        }
    }

    /// Puts a new timetable in service: the last message of every realtime source is applied
    /// to it before it is swapped in, so the first request to see it sees its live data too,
    /// and every subscriber hears of the change (a board, service or commute sent afresh).
    public func serve(_ served: ServedTimetable) {
        let state = store.current
        var fresh = RealtimeState()
        for last in lastMessages {
            fresh.apply(last.message, source: last.source, timetable: served.timetable, idPrefix: state.idPrefix(ofSource: last.source),
                        now: last.now)
        }
        realtime = fresh
        store.update { $0.serve(served, realtime: fresh) }
    }

    /// Records how a check of a kept static feed went.
    public func record(_ check: FeedCheckHealth) {
        store.update { $0.feedChecks[check.feed] = check }
    }

    /// Records how a source's last poll went.
    public func record(_ status: PollState, source: String) {
        store.update { s in
            var h = s.sources[source, default: SourceHealth(name: source)]
            // A poller knows only its own fetches: until one succeeds, the success restored from storage stands.
            h.lastSuccess = status.lastSuccess ?? h.lastSuccess
            h.lastAttempt = status.lastAttempt
            h.lastError = status.lastError
            h.consecutiveFailures = status.consecutiveFailures
            h.successes = status.successes
            h.failures = status.failures
            s.sources[source] = h
        }
    }
}
