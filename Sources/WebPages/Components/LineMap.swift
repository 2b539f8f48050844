import Foundation
import OnwardCore

/// The map of a service or a route (`Resources/line-map.js` draws it): its lines, its stops and, from the page's live
/// part, its vehicles. The page always says the same in words beside it (the calls, or the list of vehicles).
public enum LineMap {
    /// The operator's base tiles for the map (`map_tile_url`) and their credit; without them the map has a plain background.
    public struct Tiles: Sendable {
        public var url: String
        public var attribution: String?
        public init(url: String, attribution: String?) { self.url = url; self.attribution = attribution }
    }

    public struct Stop: Sendable {
        public var latitude: Double
        public var longitude: Double
        public var name: String
        public init(latitude: Double, longitude: Double, name: String) { self.latitude = latitude; self.longitude = longitude; self.name = name }
    }

    /// - Parameters:
    ///   - livePart: the ID of the element whose `[data-vehicle-lat]` children are the vehicles.
    ///   - shapes: encoded polylines, one per way the vehicles go; none joins the stops.
    ///   - note: what the page says of the map under it (`plain` is used without tiles).
    static func render(id: String, livePart: String, label: String, note: (tiles: String, plain: String), stops: [Stop], shapes: [String],
                       color: String?, tiles: Tiles?) -> HTML {
        let points = stops.map { stop in
            let name = String(decoding: (try? JSONEncoder().encode(stop.name)) ?? Data("\"\"".utf8), as: UTF8.self)
            return "[\(stop.latitude),\(stop.longitude),\(name)]"
        }
        return """
        <section class="line-map-section" aria-label="\(label)">\
        <div id="\(id)" class="line-map" role="region" aria-label="\(label)" data-live-part="\(livePart)"\
        \(HTML.attribute("data-stops", "[" + points.joined(separator: ",") + "]"))\
        \(HTML.attribute("data-shapes", shapes.isEmpty ? nil : shapes.joined(separator: " ")))\
        \(HTML.attribute("data-color", RouteColor.hex(color)))\(HTML.attribute("data-tiles", tiles?.url))\
        \(HTML.attribute("data-tile-attribution", tiles?.attribution))></div>\
        <p class="line-map-note">\(tiles == nil ? note.plain : note.tiles)</p>\
        <link rel="stylesheet" href="\(Assets.leafletBase)/leaflet.css?v=\(Assets.mapVersion)">\
        <script src="\(Assets.leafletBase)/leaflet.js?v=\(Assets.mapVersion)" defer></script>\
        <script src="\(Assets.versioned(Assets.lineMapScript.path))" defer></script>\
        </section>
        """
    }
}
