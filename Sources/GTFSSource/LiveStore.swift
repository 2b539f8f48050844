import Foundation
import OnwardCore
import Synchronization
import TransitSources

/// Holds the current `NetworkState` and swaps it atomically on each update;
/// subscribers hear that something changed and read the state afresh, so one
/// that falls behind catches up with the current state, not a backlog.
public final class LiveStore: SourceUpdates {
    /// One state, read by many requests at once: held in a box so that taking it is one
    /// reference, not a copy of its hundred-odd arrays (each retained and released, under the
    /// lock), which profiles of a cached board showed.
    public final class Snapshot: Sendable {
        public let state: NetworkState
        init(_ state: NetworkState) { self.state = state }
    }

    private let state: Mutex<Snapshot>
    /// Versions as they are applied; a slow subscriber keeps only the newest.
    private let versions = LiveHub<EveryListener, Int>()

    public init(_ initial: NetworkState) {
        state = Mutex(Snapshot(initial))
    }

    /// The state now: a value, safe to read at leisure while updates go on.
    public var current: NetworkState { snapshot.state }

    /// The state now, by reference: for hot paths that read a little of it (`snapshot.state.timetable.…`).
    public var snapshot: Snapshot { state.withLock { $0 } }

    public var version: Int { snapshot.state.version }

    /// Changes the state and tells every subscriber.
    public func update(_ change: (inout NetworkState) -> Void) {
        let version = state.withLock { box in
            // Updates replace what they change (a new overlay, new health), so copying first costs little.
            var s = box.state
            change(&s)
            s.version += 1
            box = Snapshot(s)
            return s.version
        }
        versions.publish(version)
    }

    /// Versions as they are applied; only the newest is kept for a slow reader.
    public func subscribe() -> AsyncStream<Int> { versions.subscribe() }

    public var subscriberCount: Int { versions.count }
}
