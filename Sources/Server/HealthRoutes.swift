import DataSources
import Foundation
import Timetable
import HTTPTypes
import Hummingbird
import OnwardCore
import Transit

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

    func add(to router: Router<OnwardRequestContext>) {
        router.get("health/live") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                     body: .init(byteBuffer: ByteBuffer(string: #"{"status":"live"}"#)))
        }
        router.get("health/ready") { _, _ in
            let state = deps.store.current
            let now = deps.now()
            let sources = state.sources.values.sorted { $0.name < $1.name }.map { s in
                let age = s.age(at: now)
                let status = s.lastSuccess == nil ? (s.consecutiveFailures > 0 ? "unavailable" : "starting")
                    : s.consecutiveFailures > 0 ? "failing" : (age ?? 0) > state.maxAge ? "stale" : "fresh"
                return Readiness.Source(name: s.name, status: status, lastSuccess: s.lastSuccess.map { LocalTime($0, in: .gmt).iso8601 },
                                        ageSeconds: age, consecutiveFailures: s.consecutiveFailures, lastError: s.lastError?.message)
            }
            let degraded = sources.contains { $0.status != "fresh" && $0.status != "starting" }
            let readiness = Readiness(status: degraded ? "degraded" : "ready", timetable: "loaded", stops: state.timetable.stopCount,
                                      trips: state.timetable.tripCount, simulated: state.simulated, sources: sources)
            return try json(readiness)
        }
        router.get("metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                     body: .init(byteBuffer: ByteBuffer(string: deps.metrics.render(deps.store.current, now: deps.now()))))
        }
    }
}
