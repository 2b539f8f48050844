import API
import Foundation
import SkiMap

/// `onward ski route`: the request read in words as the CLI gives it (a level's name, LAT,LON
/// points), the ski area loaded, the route found, and the answer as the API's `SkiRouteDTO`.
public enum SkiRouteFinding {
    /// A request refused or a route not found, in words for the person who asked.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// - Parameters:
    ///   - from, to: LAT,LON in degrees; `fromOption`/`toOption` name them in a refusal.
    ///   - level: novice, easy, intermediate, advanced or expert.
    ///   - area, elevation: an OSM extract and its SRTM tile; nil for the bundled area.
    public static func route(from: String, to: String, level: String, freeride: Bool, area: String?, elevation: String?,
                             fromOption: String = "--from", toOption: String = "--to", levelOption: String = "--level") throws(Failure) -> SkiRouteDTO {
        guard let difficulty = SkiDifficulty(rawValue: level.lowercased()), difficulty != .freeride else {
            throw Failure(description: "\(levelOption) must be novice, easy, intermediate, advanced or expert, not '\(level)'")
        }
        let start = try point(from, fromOption), goal = try point(to, toOption)
        let loaded: SkiArea
        do { loaded = try SkiAreaLoading.load(osm: area, elevation: elevation) } catch { throw Failure(description: "\(error)") }
        let route: SkiRoute
        do throws(SkiRouter.Failure) { route = try SkiRouter(loaded).route(from: start, to: goal, level: difficulty, freeride: freeride) } catch {
            throw Failure(description: error.description)
        }
        return SkiRouteDTO(route, level: difficulty, freeride: freeride)
    }

    private static func point(_ text: String, _ option: String) throws(Failure) -> SkiPoint {
        guard let point = SkiPoint(coordinates: text) else {
            throw Failure(description: "\(option) must be LAT,LON in degrees, e.g. 42.5727,1.4834, not '\(text)'")
        }
        return point
    }
}
