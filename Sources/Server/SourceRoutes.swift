import API
import Hummingbird
import OnwardCore
import Transit
import TransitSources

/// What is configured, and browsing routes → directions → stops (the CTA bus tracker is organised that way),
/// with a route's map and its vehicles.
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
        v1.get("routes/{routeId}/map") { _, context in try json(try await deps.queries().routeMap(try context.pathID("routeId"))) }
        v1.get("routes/{routeId}/vehicles") { _, context in try json(try await deps.queries().routeVehicles(try context.pathID("routeId"))) }
    }

    func sourcesDTO() -> SourcesDTO { SourcesDTO(sources: deps.queries().sources()) }
}
