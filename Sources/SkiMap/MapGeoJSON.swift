import Foundation

/// The app's own vector map layers as GeoJSON (RFC 7946: `[longitude, latitude, elevation]`), drawn
/// by the web app whether or not the operator configured base tiles.
public enum MapGeoJSON {
    /// The ski area: runs in the direction they are skied, coloured by difficulty in the region's
    /// convention (freeride dashed), lifts with whether they run both ways, heights along each, and
    /// the boundary inside which the app opens the mountain map.
    public static func skiArea(_ area: SkiArea) -> Data {
        var features: [[String: Any]] = []
        for run in area.runs {
            var p: [String: Any] = ["kind": "run", "difficulty": run.difficulty.rawValue, "colour": run.difficulty.colour,
                                    "dashed": run.difficulty == .freeride, "lengthMetres": Int(length(run.points).rounded())]
            if let name = run.name { p["name"] = name }
            if let drop = drop(run.points) { p["dropMetres"] = Int(drop.rounded()) }
            features.append(line(run.points, p))
        }
        for lift in area.lifts {
            var p: [String: Any] = ["kind": "lift", "liftKind": lift.kind, "twoWay": lift.twoWay, "lengthMetres": Int(length(lift.points).rounded())]
            if let name = lift.name { p["name"] = name }
            features.append(line(lift.points, p))
        }
        if !area.boundary.isEmpty {
            let ring = (area.boundary + [area.boundary[0]]).map { [$0.longitude, $0.latitude] }
            features.append(["type": "Feature", "properties": ["kind": "boundary"], "geometry": ["type": "Polygon", "coordinates": [ring]]])
        }
        return collection(features)
    }

    /// Streets and paths (`highway=*` ways) of an OpenStreetMap extract inside a box, with their kind and name.
    public static func streets(_ osm: OSMExtract, south: Double, west: Double, north: Double, east: Double) -> Data {
        var features: [[String: Any]] = []
        for way in osm.ways {
            guard let kind = way.tags["highway"] else { continue }
            let points = way.nodes.compactMap { osm.nodes[$0] }
            guard points.count >= 2, points.contains(where: { (south...north).contains($0.latitude) && (west...east).contains($0.longitude) }) else { continue }
            var p: [String: Any] = ["kind": kind]
            if let name = way.tags["name"] { p["name"] = name }
            features.append(["type": "Feature", "properties": p,
                             "geometry": ["type": "LineString", "coordinates": points.map { [round7($0.longitude), round7($0.latitude)] }]])
        }
        return collection(features)
    }

    public static func collection(_ features: [[String: Any]]) -> Data {
        (try? JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": features], options: [.sortedKeys])) ?? Data()
    }

    static func line(_ points: [SkiPoint], _ properties: [String: Any]) -> [String: Any] {
        let coordinates = points.map { p -> [Double] in
            p.elevation.map { [round7(p.longitude), round7(p.latitude), ($0 * 10).rounded() / 10] } ?? [round7(p.longitude), round7(p.latitude)]
        }
        return ["type": "Feature", "properties": properties, "geometry": ["type": "LineString", "coordinates": coordinates]]
    }

    static func length(_ points: [SkiPoint]) -> Double { zip(points, points.dropFirst()).map { $0.metres(to: $1) }.reduce(0, +) }

    static func drop(_ points: [SkiPoint]) -> Double? {
        guard let top = points.first?.elevation, let bottom = points.last?.elevation else { return nil }
        return top - bottom
    }

    /// Seven decimals: about a centimetre, and a smaller file.
    static func round7(_ x: Double) -> Double { (x * 1e7).rounded() / 1e7 }
}
