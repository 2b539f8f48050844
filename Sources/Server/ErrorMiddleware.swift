import HTTPTypes
import Hummingbird
import Logging

/// Turns every error into an answer a client can use: `application/problem+json`
/// for the API, an HTML error page for the web app. Unexpected errors are
/// logged with the request ID; their text never reaches the client.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = OnwardRequestContext
    /// Renders an error page for a browser; nil answers with problem+json.
    let page: @Sendable (Problem, Request) -> Response?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let (underlying, id) = (error as? RequestFailure).map { ($0.underlying, $0.requestID) } ?? (error, context.requestID)
            var problem = Problem.from(underlying)
            problem.requestId = id
            if problem.status >= 500 {
                context.logger.error("request failed", metadata: ["request.id": .string(id), "error": .string(String(reflecting: underlying))])
            }
            // The API and live updates answer machines; everything else is a page for a person.
            let forMachines = request.uri.path.hasPrefix("/api/") || request.uri.path == "/live"
            var response = forMachines ? nil : page(problem, request)
            if response == nil { response = try problem.response(from: request, context: context) }
            response!.headers[.requestID] = id
            return response!
        }
    }
}
