import Foundation
import OnwardCore

/// A point on the mountain with its height (metres; nil where the elevation data has a void).
public struct SkiPoint: Sendable, Hashable, Codable {
    public var latitude: Double
    public var longitude: Double
    public var elevation: Double?

    public init(latitude: Double, longitude: Double, elevation: Double? = nil) {
        self.latitude = latitude; self.longitude = longitude; self.elevation = elevation
    }

    /// `LAT,LON` in degrees as plain decimals (no exponent, no "inf"), in range; spaces around each allowed.
    public init?(coordinates text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { part -> Double? in
            let t = part.trimmingCharacters(in: CharacterSet(charactersIn: " "))
            let digits = t.hasPrefix("-") ? t.dropFirst() : Substring(t)
            let pieces = digits.split(separator: ".", omittingEmptySubsequences: false)
            guard (1...2).contains(pieces.count), pieces.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return nil }
            return Double(t)
        }
        guard parts.count == 2, let lat = parts[0], let lon = parts[1], (-90...90).contains(lat), (-180...180).contains(lon) else { return nil }
        self.init(latitude: lat, longitude: lon)
    }

    func metres(to other: SkiPoint) -> Double {
        GreatCircle.metres(latitude, longitude, other.latitude, other.longitude)
    }
}

/// How hard a run is, on OpenStreetMap's `piste:difficulty` scale. Freeride is off-piste: taken
/// only when asked for, whatever the level.
public enum SkiDifficulty: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case novice, easy, intermediate, advanced, expert, freeride

    /// The order of the scale: novice < easy < intermediate < advanced < expert.
    var rank: Int { Self.allCases.firstIndex(of: self)! }
    public static func < (a: SkiDifficulty, b: SkiDifficulty) -> Bool { a.rank < b.rank }

    /// A run's colour in the region's convention (Andorra, as France and Spain: green, blue, red, black).
    public var colour: String {
        switch self {
        case .novice: "green"
        case .easy: "blue"
        case .intermediate: "red"
        case .advanced, .expert: "black"
        case .freeride: "orange"
        }
    }
}

/// A downhill run, in the direction it is skied (as mapped), or a closed loop, skied downhill from its
/// highest point (see `isLoop`).
public struct SkiRun: Sendable, Hashable {
    public var osmID: Int64
    public var name: String?
    public var difficulty: SkiDifficulty
    public var nodes: [Int64]
    public var points: [SkiPoint]

    /// A closed way (its first node is its last): its mapped direction says nothing about which way it is
    /// skied, so its heights decide, segment by segment.
    public var isLoop: Bool { nodes.count > 2 && nodes.first == nodes.last }
}

/// A lift, from where it is boarded to where one gets off (uphill, or as mapped when it is two-way).
public struct SkiLift: Sendable, Hashable {
    public var osmID: Int64
    public var name: String?
    /// The `aerialway` value: chair_lift, gondola, cable_car, drag_lift, platter, …
    public var kind: String
    /// Ridden both ways (`oneway=no` on the way): a cable car down to the village.
    public var twoWay: Bool
    public var nodes: [Int64]
    public var points: [SkiPoint]
}

/// A ski area from an OpenStreetMap extract: its downhill runs, lifts and their heights, and its boundary.
public struct SkiArea: Sendable {
    public var runs: [SkiRun]
    public var lifts: [SkiLift]
    /// Where the area is: the convex hull of its runs, widened by `margin` metres (not its lifts: a
    /// cable car from the town would pull the town in).
    public var boundary: [SkiPoint]
    public static let margin = 300.0

    /// Runs are `piste:type=downhill` lines, closed loops too (a nursery loop); areas (`area=yes`) are
    /// not skied along. Lifts are `aerialway` lines
    /// other than pylons and stations. A lift mapped downhill is turned round unless it is two-way.
    public init(_ osm: OSMExtract, elevation: (Double, Double) -> Double?) throws(OSMExtract.ReadError) {
        var runs: [SkiRun] = [], lifts: [SkiLift] = []
        for way in osm.ways where way.nodes.count >= 2 {
            var points: [SkiPoint] = []
            for id in way.nodes {
                guard let n = osm.nodes[id] else { throw OSMExtract.ReadError(description: "way \(way.id) names node \(id), which the extract does not have") }
                points.append(SkiPoint(latitude: n.latitude, longitude: n.longitude, elevation: elevation(n.latitude, n.longitude)))
            }
            if way.tags["piste:type"] == "downhill", way.tags["area"] != "yes" {
                // A run without a difficulty is taken as expert: never sent to anyone who did not choose the hardest.
                let difficulty = way.tags["piste:difficulty"].flatMap { SkiDifficulty(rawValue: $0 == "extreme" ? "expert" : $0) } ?? .expert
                runs.append(SkiRun(osmID: way.id, name: way.tags["name"], difficulty: difficulty, nodes: way.nodes, points: points))
            } else if let kind = way.tags["aerialway"], !["pylon", "station", "goods", "zip_line"].contains(kind), way.nodes.first != way.nodes.last {
                var lift = SkiLift(osmID: way.id, name: way.tags["name"], kind: kind, twoWay: way.tags["oneway"] == "no", nodes: way.nodes, points: points)
                if !lift.twoWay, let bottom = points.first?.elevation, let top = points.last?.elevation, top < bottom {
                    lift.nodes.reverse()
                    lift.points.reverse()
                }
                lifts.append(lift)
            }
        }
        self.runs = runs
        self.lifts = lifts
        boundary = Self.hull(runs.flatMap(\.points), margin: Self.margin)
    }

    /// Whether a point lies inside the area's boundary: the app opens the mountain map there, the street map elsewhere.
    public func contains(latitude: Double, longitude: Double) -> Bool {
        guard boundary.count >= 3 else { return false }
        var inside = false
        var j = boundary.count - 1
        for i in boundary.indices {
            let a = boundary[i], b = boundary[j]
            if (a.latitude > latitude) != (b.latitude > latitude),
               longitude < (b.longitude - a.longitude) * (latitude - a.latitude) / (b.latitude - a.latitude) + a.longitude {
                inside.toggle()
            }
            j = i
        }
        return inside
    }

    /// The convex hull (monotone chain) of the points, each corner pushed out by `margin` metres from the centre.
    static func hull(_ points: [SkiPoint], margin: Double) -> [SkiPoint] {
        let sorted = Set(points.map { [$0.longitude, $0.latitude] }).sorted { ($0[0], $0[1]) < ($1[0], $1[1]) }
        guard sorted.count >= 3 else { return [] }
        func cross(_ o: [Double], _ a: [Double], _ b: [Double]) -> Double { (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]) }
        var lower: [[Double]] = [], upper: [[Double]] = []
        for p in sorted {
            while lower.count >= 2, cross(lower[lower.count - 2], lower[lower.count - 1], p) <= 0 { lower.removeLast() }
            lower.append(p)
        }
        for p in sorted.reversed() {
            while upper.count >= 2, cross(upper[upper.count - 2], upper[upper.count - 1], p) <= 0 { upper.removeLast() }
            upper.append(p)
        }
        let corners = Array(lower.dropLast() + upper.dropLast())
        let centre = [corners.map { $0[0] }.reduce(0, +) / Double(corners.count), corners.map { $0[1] }.reduce(0, +) / Double(corners.count)]
        return corners.map { c in
            let d = GreatCircle.metres(centre[1], centre[0], c[1], c[0])
            let scale = d > 0 ? (d + margin) / d : 1
            return SkiPoint(latitude: centre[1] + (c[1] - centre[1]) * scale, longitude: centre[0] + (c[0] - centre[0]) * scale)
        }
    }
}
