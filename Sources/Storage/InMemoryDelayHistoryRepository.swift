import OnwardCore
import Synchronization

/// Delay history kept in memory: for tests and a server with no storage.
public final class InMemoryDelayHistoryRepository: DelayHistoryRepository {
    private struct CallKey: Hashable { var source: String; var trip: String; var date: ServiceDate; var call: Int }
    private struct State {
        var raw: [CallKey: DelayObservation] = [:]
        var aggregates: [ServiceDate: [DelayAggregate]] = [:]
        var unfolded: Set<ServiceDate> = []
    }
    private let state = Mutex(State())

    public init() {}

    public func record(_ observations: [DelayObservation]) async throws {
        state.withLock { s in
            for o in observations {
                let key = CallKey(source: o.source, trip: o.tripID, date: o.serviceDate, call: o.call)
                if let kept = s.raw[key], !o.replaces(kept) { continue }
                s.raw[key] = o
                s.unfolded.insert(o.serviceDate)
            }
        }
    }

    public func fold(through: ServiceDate) async throws -> [ServiceDate] {
        state.withLock { s in
            let dates = s.unfolded.filter { $0 <= through }.sorted()
            for date in dates {
                s.aggregates[date] = DelayAggregate.fold(s.raw.values.filter { $0.serviceDate == date })
                s.unfolded.remove(date)
            }
            return dates
        }
    }

    public func pruneRaw(before: ServiceDate) async throws -> Int {
        state.withLock { s in
            let old = s.raw.keys.filter { $0.date < before }
            for k in old { s.raw.removeValue(forKey: k) }
            s.unfolded = s.unfolded.filter { $0 >= before }
            return old.count
        }
    }

    public func pruneAggregates(before: ServiceDate) async throws -> Int {
        state.withLock { s in
            let old = s.aggregates.keys.filter { $0 < before }
            let n = old.reduce(0) { $0 + (s.aggregates[$1]?.count ?? 0) }
            for d in old { s.aggregates.removeValue(forKey: d) }
            return n
        }
    }

    public func aggregates(_ dates: ClosedRange<ServiceDate>, routeID: String?, stopID: String?) async throws -> [DelayAggregate] {
        state.withLock { s in
            s.aggregates.keys.filter { dates.contains($0) }.sorted().flatMap { s.aggregates[$0]! }
                .filter { a in (routeID.map { a.routeID == $0 } ?? true) && (stopID.map { a.stopID == $0 } ?? true) }
        }
    }

    public func observations(on date: ServiceDate) async throws -> [DelayObservation] {
        state.withLock { s in s.raw.values.filter { $0.serviceDate == date }.sorted(by: DelayObservation.stored) }
    }

    public func lastFoldedDate() async throws -> ServiceDate? {
        state.withLock { s in s.aggregates.filter { !$0.value.isEmpty }.keys.max() }
    }

    public func size() async throws -> DelayHistorySize {
        state.withLock { s in
            DelayHistorySize(observations: s.raw.count, aggregates: s.aggregates.values.reduce(0) { $0 + $1.count }, unfoldedDates: s.unfolded.count)
        }
    }
}
