import API
import Hummingbird
import OnwardCore
import Transit
import TransitSources

/// The API routes that exist only for protocol sources: what is configured, and
/// browsing routes → directions → stops (the CTA bus tracker is organised that way).
struct SourceRoutes {
    let deps: ServerDependencies

    func add<R: RouterMethods>(to v1: R) where R.Context == OnwardRequestContext {
        v1.get("sources") { _, _ in try json(sourcesDTO()) }
        v1.get("sources/{source}/routes") { _, context in
            try json(try await deps.queries().routes(source: try context.pathID("source")))
        }
        v1.get("routes/{routeId}") { _, context in
            try json(try await deps.queries().route(try context.pathID("routeId"), direction: nil))
        }
        v1.get("routes/{routeId}/directions/{direction}/stops") { _, context in
            try json(try await deps.queries().route(try context.pathID("routeId"), direction: try context.pathID("direction")))
        }
    }

    func sourcesDTO() -> SourcesDTO { SourcesDTO(sources: deps.queries().sources()) }
}
