import Hummingbird

/// Counts requests by route pattern and status and times them, for `/metrics`.
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = OnwardRequestContext
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            metrics.recordRequest(method: request.method.rawValue, route: context.endpointPath ?? "unmatched",
                                  status: response.status.code, duration: .now - start)
            return response
        } catch {
            let status = (error as? RequestFailure).map { Problem.from($0.underlying).status } ?? Problem.from(error).status
            metrics.recordRequest(method: request.method.rawValue, route: context.endpointPath ?? "unmatched", status: status,
                                  duration: .now - start)
            throw error
        }
    }
}
