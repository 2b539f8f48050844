import API
import Foundation
import Hummingbird
import Services
import Storage

/// A person's watched journeys in the JSON API: private to them (another person's watch answers 404, as
/// one that does not exist).
struct WatchRoutes {
    let deps: ServerDependencies

    func add<R: RouterMethods>(to v1: R) where R.Context == OnwardRequestContext {
        v1.get("me/watches") { request, _ in
            let signed = try await deps.auth.require(request)
            return try json(WatchesDTO(watches: try await watches().list(owner: signed.account.id)))
        }
        v1.post("me/watches") { request, _ in
            let signed = try await deps.auth.require(request)
            let body: WatchRequestDTO = try await jsonBody(request, limit: deps.settings.maxBodyBytes,
                                                           fields: ["from", "to", "departure", "days", "leadMinutes", "thresholdMinutes", "name"])
            return try json(try await watches().create(owner: signed.account.id, body), status: .created)
        }
        v1.delete("me/watches/{watchId}") { request, context in
            let signed = try await deps.auth.require(request)
            try await watches().remove(owner: signed.account.id, id: try context.pathID("watchId"))
            return Response(status: .noContent)
        }
    }

    private func watches() throws -> WatchService {
        guard let w = deps.watches else { throw ServiceError(.watchNotFound, "This server keeps no watched journeys.") }
        return w
    }
}
