import API
import Foundation
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
            /// For a static timetable: its version, and a warning when it is about to run out.
            var version: FeedVersionDTO?
            var warning: String?
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
            let now = deps.now()
            // Every upstream by name (never by URL); one not asked or polled yet is "starting".
            let statuses: [SourceStatus] = deps.sources.sources.flatMap { $0.status(now: now) }
            let sources = statuses.map { (u: SourceStatus) -> Readiness.Source in
                Readiness.Source(name: u.name, status: u.state == .idle ? "starting" : u.state.rawValue,
                                 lastSuccess: u.lastSuccess.map { LocalTime($0, in: .gmt).iso8601 }, ageSeconds: u.ageSeconds,
                                 consecutiveFailures: u.consecutiveFailures ?? (u.state == .failing ? 1 : 0), lastError: u.detail,
                                 version: u.version.map(FeedVersionDTO.init), warning: u.warning)
            }
            let degraded = sources.contains { $0.status != "fresh" && $0.status != "starting" }
            // The timetables as they are now: a new feed version changes them while the server runs.
            let sizes = deps.sources.sources.compactMap(\.timetableSize)
            let readiness = Readiness(status: degraded ? "degraded" : "ready", timetable: "loaded", stops: sizes.reduce(0) { $0 + $1.stops },
                                      trips: sizes.reduce(0) { $0 + $1.trips }, simulated: deps.settings.network.simulated, sources: sources)
            return try json(readiness)
        }
        router.get("metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                     body: .init(byteBuffer: ByteBuffer(string: deps.metrics.render(upstreams: deps.sources.sources.flatMap { $0.status(now: deps.now()) }))))
        }
    }
}
