import API
import Hummingbird
import OnwardCore
import Timetable
import Transit
import TransitSources

/// The API routes that exist only for protocol sources: what is configured, and
/// browsing routes → directions → stops (the CTA bus tracker is organised that way).
struct SourceRoutes {
    let deps: ServerDependencies

    func add<R: RouterMethods>(to v1: R) where R.Context == OnwardRequestContext {
        v1.get("sources") { _, _ in try json(sourcesDTO()) }
        v1.get("sources/{source}/routes") { _, context in
            try json(try await deps.sourceQueries().routes(source: try context.pathID("source")))
        }
        v1.get("routes/{routeId}") { _, context in
            try json(try await deps.sourceQueries().route(try context.pathID("routeId"), direction: nil))
        }
        v1.get("routes/{routeId}/directions/{direction}/stops") { _, context in
            try json(try await deps.sourceQueries().route(try context.pathID("routeId"), direction: try context.pathID("direction")))
        }
    }

    /// The GTFS network's feeds and realtime sources first, then each protocol source.
    func sourcesDTO() -> SourcesDTO {
        let state = deps.store.current
        let now = deps.now()
        let realtime = state.sources.values.sorted { $0.name < $1.name }.map { s in
            SourcesDTO.UpstreamDTO(name: s.name, state: HealthRoutes.status(of: s, maxAge: state.maxAge, now: now),
                                   ageSeconds: s.age(at: now), detail: s.lastError?.message, budgetRemaining: nil)
        }
        let feeds = state.timetable.feeds.map { f in
            SourcesDTO.Item(name: f.name, displayName: f.publisher ?? f.name,
                            capabilities: ["stopSearch", "nearby", "departures", "arrivals", "callingAt", "serviceDetails", "alerts",
                                           "vehicles", "anyTime", "timeWindow"],
                            upstreams: realtime)
        }
        return SourcesDTO(sources: feeds + deps.sourceQueries().sources())
    }
}
