import HTTPTypes
import Hummingbird
import Logging
import Transit

/// Turns every error into an answer a client can use: `application/problem+json`
/// for the API, an HTML error page for the web app. Unexpected errors are
/// logged as errors with the request ID; their text never reaches the client. A refusal
/// with a code of its own and a 5xx status (an upstream down, push not configured) is how
/// the server is, not a fault: it is logged as a notice with its code.
struct ErrorResponses: Sendable {
    /// Renders an error page for a browser; nil answers with problem+json.
    let page: @Sendable (Problem, Request) -> Response?

    func response(for error: any Error, id: String, _ request: Request, _ context: OnwardRequestContext, logger: Logger) throws -> Response {
        var problem = Problem.from(error)
        problem.requestId = id
        if problem.status >= 500 && problem.code == "internal" {
            logger.error("request failed", metadata: ["request.id": .string(id), "error": .string(String(reflecting: error))])
        } else if problem.status >= 500 {
            logger.notice("request refused", metadata: ["request.id": .string(id), "code": .string(problem.code)])
        }
        // The API and live updates answer machines; everything else is a page for a person.
        let forMachines = request.uri.path.hasPrefix("/api/") || request.uri.path == "/live"
        var response = forMachines ? nil : page(problem, request)
        if response == nil { response = try problem.response(from: request, context: context) }
        response!.headers[.requestID] = id
        // Busy planning: a place comes free within a plan's time.
        if problem.code == QueryError.Code.busy.rawValue { response!.headers[.retryAfter] = "1" }
        return response!
    }
}
