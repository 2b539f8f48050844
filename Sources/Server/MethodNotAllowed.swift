import HTTPTypes
import Hummingbird
import Synchronization

/// A path that exists, asked with a method it does not answer (`DELETE /api/v1/stops`,
/// `POST /stops/X`), gets `405` with `Allow` and a problem document, not `404`.
/// The router only says "not found"; the table of routes (filled once the router is
/// built) says which methods the path has.
struct MethodNotAllowed: Sendable {
    let routes: RouteTable

    /// The `405` for a request the router did not find, or nil when its path has no route at all.
    func response(for request: Request, _ context: OnwardRequestContext) throws -> Response? {
        let methods = routes.methods(forPath: request.uri.path)
        guard !methods.isEmpty, !methods.contains(request.method) else { return nil }
        let allow = methods.map(\.rawValue).sorted().joined(separator: ", ")
        var problem = Problem(status: .methodNotAllowed, code: "method-not-allowed", title: "Method not allowed",
                              detail: "\(request.uri.path) answers \(allow), not \(request.method.rawValue).")
        problem.requestId = context.requestID
        var response = try problem.response(from: request, context: context)
        response.headers[.allow] = allow
        return response
    }
}

/// The router's paths and their methods, set after every route has been added.
final class RouteTable: Sendable {
    private let routes = Mutex<[(path: RouterPath, method: HTTPRequest.Method)]>([])

    func set(_ routes: [(path: RouterPath, method: HTTPRequest.Method)]) { self.routes.withLock { $0 = routes } }

    /// The methods of the routes whose pattern matches `path` (captures match any one segment).
    func methods(forPath path: String) -> Set<HTTPRequest.Method> {
        let segments = path.split(separator: "/")
        return routes.withLock { routes in
            Set(routes.filter { route in
                let pattern = route.path.components
                return pattern.count == segments.count && zip(pattern, segments).allSatisfy { $0 ~= $1 }
            }.map(\.method))
        }
    }
}
