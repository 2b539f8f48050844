import API
import Hummingbird
import Transit

/// The web app: server-rendered pages, their assets, and the page fragments live updates carry.
struct PageRoutes: Sendable {
    let deps: ServerDependencies

    func add(to router: Router<OnwardRequestContext>) {}

    @Sendable func errorPage(_ problem: Problem, _ request: Request) -> Response? { nil }

    @Sendable func liveFragment(_ subject: LiveSubject, _ queries: Queries, _ board: BoardDTO?, _ service: ServiceDTO?) -> String? { nil }
}
