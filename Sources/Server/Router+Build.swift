import Hummingbird
import HummingbirdWebSocket
import Logging
import Services
import Transit

/// The whole HTTP surface: middleware (outermost first), the JSON API, health
/// and metrics, live updates, and the web app's pages and assets.
public func buildRouter(_ deps: ServerDependencies) -> Router<OnwardRequestContext> {
    let router = Router(context: OnwardRequestContext.self)
    let pages = PageRoutes(deps: deps)
    let routes = RouteTable()
    router.add(middleware: RequestEnvelopeMiddleware(proxies: deps.settings.trustedProxies, bodyLimit: BodyLimit(maxBytes: deps.settings.maxBodyBytes),
                                                     methodNotAllowed: MethodNotAllowed(routes: routes),
                                                     errors: ErrorResponses(page: pages.errorPage), metrics: deps.metrics,
                                                     tracing: deps.settings.tracing))
    HealthRoutes(deps: deps).add(to: router)
    let api = router.group("").add(middleware: RateLimitMiddleware(limiter: RateLimiter(deps.settings.rateLimit)))
    APIRoutes(deps: deps).add(to: api)
    LiveRoutes(deps: deps, fragment: pages.liveFragment, commuteFragment: pages.commuteFragment, meFragment: pages.meFragment).add(to: router)
    pages.add(to: router)
    routes.set(router.routes.map { (path: $0.path, method: $0.method) })
    return router
}
