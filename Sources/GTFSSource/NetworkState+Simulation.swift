import GTFSRealtime
import OnwardCore

extension NetworkState {
    /// The simulation at `at` applied at once, each of its sources healthy as
    /// of `at`: the state a server running `--simulate` reaches, without the
    /// timer. For tests and benchmarks that need a fixed, repeatable moment.
    public mutating func applySimulation(at: Instant) {
        let messages = SimulatedFeed(timetable: timetable, idPrefix: idPrefix).messages(at: at)
        for (name, message) in messages.bySource {
            realtime.apply(RealtimeMessage(message), source: name, timetable: timetable, idPrefix: idPrefix, now: at)
            var health = SourceHealth(name: name)
            health.lastSuccess = at
            health.successes = 1
            health.feedTimestamp = at
            sources[name] = health
        }
        simulated = true
    }
}
