import API
import Foundation
import Hummingbird
import SkiMap
import Transit

/// `skiRoute`: routing on the ski area by level, the CLI's `onward ski route` over HTTP.
struct SkiRoutes {
    let deps: ServerDependencies

    func add<R: RouterMethods>(to v1: R) where R.Context == OnwardRequestContext {
        v1.get("ski/route") { request, _ in
            guard let ski = deps.ski else {
                throw Problem(status: .notFound, code: "no-ski-area", title: "No ski area", detail: "This server has no ski area loaded.")
            }
            let q = try RequestParameters(request)
            let from = try Self.point(q, "from"), to = try Self.point(q, "to")
            let text = try q.required("level", maxLength: 20)
            guard let level = SkiDifficulty(rawValue: text), level != .freeride else {
                throw Problem(status: .badRequest, code: "invalid-parameter", title: "Invalid parameter",
                              detail: "level must be novice, easy, intermediate, advanced or expert", parameter: "level")
            }
            let freeride = try q.bool("freeride") ?? false
            let route: SkiRoute
            do throws(SkiRouter.Failure) { route = try ski.route(from: from, to: to, level: level, freeride: freeride) } catch {
                throw Problem(status: .notFound, code: "no-ski-route", title: "No route", detail: error.description)
            }
            return try json(SkiRouteDTO(route, level: level, freeride: freeride))
        }
    }

    /// `LAT,LON` in degrees.
    static func point(_ q: RequestParameters, _ name: String) throws -> SkiPoint {
        guard let point = SkiPoint(coordinates: try q.required(name, maxLength: 60)) else {
            throw Problem(status: .badRequest, code: "invalid-parameter", title: "Invalid parameter",
                          detail: "\(name) must be LAT,LON in degrees, e.g. 42.5727,1.4834", parameter: name)
        }
        return point
    }
}
