import DataSources
import Foundation
import Timetable
import HTTPTypes
import Hummingbird
import OnwardCore
import Transit
import TransitSources

/// `/health/live`: the process answers. `/health/ready`: the timetable is
/// loaded (the server only starts once it is) and how fresh each realtime
/// source is. A failing source makes the server degraded, not unready: boards
/// still answer from the timetable.
struct HealthRoutes {
    let deps: ServerDependencies

    struct Readiness: Codable {
        struct Source: Codable {
            var name: String
            var status: String
            var lastSuccess: String?
            var ageSeconds: Int64?
            var consecutiveFailures: Int
            var lastError: String?
        }
        var status: String
        var timetable: String
        var stops: Int
        var trips: Int
        var simulated: Bool
        var sources: [Source]
    }

    /// fresh, stale, failing, unavailable or starting: one rule for readiness and the sources list.
    static func status(of s: SourceHealth, maxAge: Int64, now: Instant) -> String {
        let age = s.age(at: now)
        return s.lastSuccess == nil ? (s.consecutiveFailures > 0 ? "unavailable" : "starting")
            : s.consecutiveFailures > 0 ? "failing" : (age ?? 0) > maxAge ? "stale" : "fresh"
    }

    func add(to router: Router<OnwardRequestContext>) {
        router.get("health/live") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                     body: .init(byteBuffer: ByteBuffer(string: #"{"status":"live"}"#)))
        }
        router.get("health/ready") { _, _ in
            let state = deps.store.current
            let now = deps.now()
            var sources = state.sources.values.sorted { $0.name < $1.name }.map { s in
                Readiness.Source(name: s.name, status: Self.status(of: s, maxAge: state.maxAge, now: now),
                                 lastSuccess: s.lastSuccess.map { LocalTime($0, in: .gmt).iso8601 },
                                 ageSeconds: s.age(at: now), consecutiveFailures: s.consecutiveFailures, lastError: s.lastError?.message)
            }
            // Protocol sources report by name (never by URL); one that has not been asked yet is "starting".
            for source in deps.sources.sources {
                for u in source.status(now: now) {
                    sources.append(Readiness.Source(name: u.name, status: u.state == .idle ? "starting" : u.state.rawValue, lastSuccess: nil,
                                                    ageSeconds: u.ageSeconds, consecutiveFailures: u.state == .failing ? 1 : 0,
                                                    lastError: u.detail))
                }
            }
            let degraded = sources.contains { $0.status != "fresh" && $0.status != "starting" }
            let readiness = Readiness(status: degraded ? "degraded" : "ready", timetable: "loaded", stops: state.timetable.stopCount,
                                      trips: state.timetable.tripCount, simulated: state.simulated, sources: sources)
            return try json(readiness)
        }
        router.get("metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                     body: .init(byteBuffer: ByteBuffer(string: deps.metrics.render(deps.store.current, upstreams: deps.sources.sources.flatMap { $0.status(now: deps.now()) },
                                                                              now: deps.now()))))
        }
    }
}
