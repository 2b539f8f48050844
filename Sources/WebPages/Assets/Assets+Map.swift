import OnwardCore

/// The maps' files: Leaflet 1.7.1 as published (with its licence), and the trip page's and the service page's own
/// scripts (a service's and a route's page share one). Only those pages load them.
extension Assets {
    public struct File: Sendable {
        public var path: String
        public var contentType: String
        public var bytes: [UInt8]
    }

    public static let leafletBase = "/assets/leaflet"

    /// Leaflet's script, stylesheet, licence and the images its stylesheet names (`images/…`, beside it).
    public static let leafletFiles: [File] = [
        File(path: leafletBase + "/leaflet.js", contentType: jsContentType, bytes: PackageResources.leaflet_js),
        File(path: leafletBase + "/leaflet.css", contentType: cssContentType, bytes: PackageResources.leaflet_css),
        File(path: leafletBase + "/LICENSE", contentType: "text/plain; charset=utf-8", bytes: PackageResources.LICENSE),
        File(path: leafletBase + "/images/layers.png", contentType: "image/png", bytes: PackageResources.layers_png),
        File(path: leafletBase + "/images/layers-2x.png", contentType: "image/png", bytes: PackageResources.layers_2x_png),
        File(path: leafletBase + "/images/marker-icon.png", contentType: "image/png", bytes: PackageResources.marker_icon_png),
        File(path: leafletBase + "/images/marker-icon-2x.png", contentType: "image/png", bytes: PackageResources.marker_icon_2x_png),
        File(path: leafletBase + "/images/marker-shadow.png", contentType: "image/png", bytes: PackageResources.marker_shadow_png),
    ]

    /// The trip page's script (`Resources/trip.js`): the map, the live channel, sharing, events and chat.
    public static let tripScript = File(path: "/assets/trip.js", contentType: jsContentType, bytes: PackageResources.trip_js)

    /// The map of a service or a route (`Resources/line-map.js`): the shapes, the stops and the vehicles as the live part moves them.
    public static let lineMapScript = File(path: "/assets/line-map.js", contentType: jsContentType, bytes: PackageResources.line_map_js)

    /// Versioned like the site's own assets, so browsers may keep them for a year.
    public static let mapVersion: String = StableHash.hex(String(decoding: PackageResources.trip_js, as: UTF8.self) + "\u{0}"
        + String(decoding: PackageResources.line_map_js, as: UTF8.self) + "\u{0}1.7.1")
    public static func versioned(_ path: String) -> String { path + "?v=" + mapVersion }
}
