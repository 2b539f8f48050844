import Foundation
import SkiMap

/// `skiRoute` and `onward ski route --json`: runs and lifts in order, with their difficulty, length and drop.
public struct SkiRouteDTO: Codable, Sendable, Equatable {
    public struct Leg: Codable, Sendable, Equatable {
        /// `run`, `lift` or `walk`.
        public var kind: String
        public var name: String?
        /// A run's `piste:difficulty`, and its colour on the map.
        public var difficulty: String?
        public var colour: String?
        /// A lift's `aerialway` kind.
        public var liftKind: String?
        public var lengthMetres: Int
        /// Metres lost (negative when climbing), when the heights are known.
        public var dropMetres: Int?
        public var durationSeconds: Int
        /// `[latitude, longitude, elevation]` (elevation absent where unknown).
        public var points: [[Double]]
    }

    public var level: String
    public var freeride: Bool
    public var lengthMetres: Int
    public var durationSeconds: Int
    public var legs: [Leg]

    public init(_ route: SkiRoute, level: SkiDifficulty, freeride: Bool) {
        self.level = level.rawValue
        self.freeride = freeride
        lengthMetres = Int(route.lengthMetres.rounded())
        durationSeconds = Int(route.seconds.rounded())
        legs = route.legs.map { l in
            Leg(kind: l.kind.rawValue, name: l.name, difficulty: l.difficulty?.rawValue, colour: l.difficulty?.colour, liftKind: l.liftKind,
                lengthMetres: Int(l.lengthMetres.rounded()), dropMetres: l.dropMetres.map { Int($0.rounded()) }, durationSeconds: Int(l.seconds.rounded()),
                points: l.points.map { p in [p.latitude, p.longitude] + (p.elevation.map { [($0 * 10).rounded() / 10] } ?? []) })
        }
    }
}
