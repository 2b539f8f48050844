import Foundation
import Hummingbird
import OnwardCore
import SkiMap
import Synchronization
import Transit
import WebPages

/// The trip map's own layers, drawn with or without the operator's base tiles.
public struct MapLayers: Sendable {
    /// The ski area (GeoJSON), when one is loaded.
    public var ski: Data?
    /// The transit network's stops and shapes (GeoJSON) as the timetable in service has them (a new feed version changes them).
    public var transit: @Sendable () -> Data
    /// Streets from OpenStreetMap around the ski area's town (GeoJSON), read the first time they are asked for.
    public var streets: Once<Data?>
    /// The operator's base tiles (`map_tile_url`, e.g. `https://tile.example/{z}/{x}/{y}.png`) and their credit.
    public var tileURL: String?
    public var tileAttribution: String?

    public init(ski: Data? = nil, transit: @escaping @Sendable () -> Data = { Data(#"{"type":"FeatureCollection","features":[]}"#.utf8) },
                streets: Once<Data?> = Once { nil },
                tileURL: String? = nil, tileAttribution: String? = nil) {
        self.ski = ski; self.transit = transit; self.streets = streets; self.tileURL = tileURL; self.tileAttribution = tileAttribution
    }
}

/// A value made the first time it is asked for, by one caller; the others wait for it.
public final class Once<Value: Sendable>: Sendable {
    private let make: @Sendable () async -> Value
    private let task = Mutex<Task<Value, Never>?>(nil)

    public init(_ make: @escaping @Sendable () async -> Value) { self.make = make }

    public var value: Value {
        get async {
            let t = task.withLock { t in
                if let t { return t }
                let new = Task { await make() }
                t = new
                return new
            }
            return await t.value
        }
    }
}

/// `/maps/…`: the layers as GeoJSON, and which map a place opens (the mountain map inside the ski
/// area's boundary, the street map elsewhere). Leaflet's files under `/assets/leaflet/`.
struct MapRoutes {
    let deps: ServerDependencies

    func add(to router: Router<OnwardRequestContext>) {
        router.get("maps/ski.geojson") { _, _ in
            guard let ski = deps.settings.maps.ski else { throw Problem(status: .notFound, code: "no-ski-area", title: "No ski area", detail: "No ski area is loaded.") }
            return Self.geoJSON(ski)
        }
        router.get("maps/transit.geojson") { _, _ in Self.geoJSON(deps.settings.maps.transit()) }
        router.get("maps/streets.geojson") { _, _ in
            guard let streets = await deps.settings.maps.streets.value else {
                throw Problem(status: .notFound, code: "no-streets", title: "No street map", detail: "No street map is loaded.")
            }
            return Self.geoJSON(streets)
        }
        router.get("maps/where") { request, _ in
            let q = try RequestParameters(request)
            guard let lat = try q.double("lat"), let lon = try q.double("lon"), (-90...90).contains(lat), (-180...180).contains(lon) else {
                throw Problem(status: .badRequest, code: "invalid-parameter", title: "Invalid parameter", detail: "lat and lon are required, in degrees.",
                              parameter: "lat")
            }
            return try json(["map": Self.mapKind(deps, latitude: lat, longitude: lon)])
        }
        for file in Assets.leafletFiles + [Assets.tripScript, Assets.lineMapScript] {
            router.get(RouterPath(file.path)) { _, _ in
                Response(status: .ok, headers: [.contentType: file.contentType, .cacheControl: "public, max-age=31536000, immutable"],
                         body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
            }
        }
    }

    /// `mountain` inside the ski area's boundary, `street` elsewhere: the one rule the page and the API follow.
    static func mapKind(_ deps: ServerDependencies, latitude: Double, longitude: Double) -> String {
        deps.ski?.area.contains(latitude: latitude, longitude: longitude) == true ? "mountain" : "street"
    }

    static func geoJSON(_ data: Data) -> Response {
        // Static for the life of the process: a day in the browser's cache.
        Response(status: .ok, headers: [.contentType: "application/geo+json", .cacheControl: "public, max-age=86400"],
                 body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
