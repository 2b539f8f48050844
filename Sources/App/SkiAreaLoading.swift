import Foundation
import SkiMap
import ZIPFoundation

/// The ski area the server and `onward ski` use: an OpenStreetMap extract with an SRTM tile for
/// the heights; by default the bundled Vallnord Pal–Arinsal (see Resources/SkiArea/ATTRIBUTION.md).
public enum SkiAreaLoading {
    public struct LoadError: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// - Parameters:
    ///   - osm: an OSM XML file; nil for the bundled area.
    ///   - elevation: an SRTM `.hgt` file, or a zip holding one; nil for the bundled tile (with the bundled area) or no heights.
    public static func load(osm: String? = nil, elevation: String? = nil) throws -> SkiArea {
        let osmURL = osm.map { URL(fileURLWithPath: $0) } ?? bundled("vallnord-pal-arinsal-2013-05.osm")
        let tileURL = elevation.map { URL(fileURLWithPath: $0) } ?? (osm == nil ? bundled("srtm3-N42E001.hgt.zip") : nil)
        let extract: OSMExtract
        do {
            extract = try OSMExtract(xml: try Data(contentsOf: osmURL))
        } catch let e as OSMExtract.ReadError {
            throw LoadError(description: "\(osmURL.path): \(e.description)")
        } catch {
            throw LoadError(description: "cannot read \(osmURL.path): \(error.localizedDescription)")
        }
        let tile = try tileURL.map(readTile)
        do {
            return try SkiArea(extract, elevation: { lat, lon in tile?.elevation(latitude: lat, longitude: lon) })
        } catch {
            throw LoadError(description: "\(osmURL.path): \(error.description)")
        }
    }

    static func bundled(_ name: String) -> URL {
        Bundle.module.url(forResource: "SkiArea/" + (name as NSString).deletingPathExtension, withExtension: (name as NSString).pathExtension)
            ?? Bundle.module.bundleURL.appendingPathComponent("SkiArea/" + name)
    }

    /// An `.hgt` file, or the one `.hgt` inside a zip.
    static func readTile(_ url: URL) throws -> SRTMTile {
        do {
            if url.pathExtension.lowercased() == "zip" {
                let archive = try Archive(url: url, accessMode: .read)
                guard let entry = archive.first(where: { $0.path.lowercased().hasSuffix(".hgt") }) else {
                    throw LoadError(description: "\(url.path): the zip holds no .hgt file")
                }
                var data = Data()
                _ = try archive.extract(entry) { data.append($0) }
                return try SRTMTile(name: entry.path, data: data)
            }
            return try SRTMTile(name: url.lastPathComponent, data: try Data(contentsOf: url))
        } catch let e as LoadError {
            throw e
        } catch let e as SRTMTile.ReadError {
            throw LoadError(description: e.description)
        } catch {
            throw LoadError(description: "cannot read \(url.path): \(error.localizedDescription)")
        }
    }
}
