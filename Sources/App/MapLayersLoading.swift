import COnwardZlib
import Foundation
import GTFSSource
import Synchronization
import Logging
import OnwardCore
import Server
import SkiMap
import Timetable

/// The trip map's own layers: the ski area, the transit network's stops and shapes, and the streets
/// of the town around the ski area from the bundled OpenStreetMap extract of Andorra (read on first use:
/// 14 MB of XML is not worth a slower start).
enum MapLayersLoading {
    /// The streets drawn: the ski area and the valley below it (Arinsal, Pal, Erts, La Massana).
    static let streetBox = (south: 42.52, west: 1.44, north: 42.63, east: 1.56)

    static func layers(ski: SkiArea?, store: LiveStore, config: ServeConfiguration, logger: Logger) -> MapLayers {
        // Drawn once per timetable in service, the first time it is asked for.
        let drawn = Mutex<(timetable: ObjectIdentifier, geoJSON: Data)?>(nil)
        return MapLayers(ski: ski.map(MapGeoJSON.skiArea), transit: {
                      let served = store.snapshot.state.served
                      if let d = drawn.withLock({ $0 }), d.timetable == ObjectIdentifier(served) { return d.geoJSON }
                      let geoJSON = transit(served.timetable, shapes: served.shapes)
                      drawn.withLock { $0 = (ObjectIdentifier(served), geoJSON) }
                      return geoJSON
                  },
                  streets: Once {
                      guard ski != nil else { return nil }
                      do { return try streets() } catch {
                          // The page still draws the ski area and transit; the log says why the streets are missing.
                          logger.error("the street map cannot be read", metadata: ["error": .string("\(error)")])
                          return nil
                      }
                  }, tileURL: config.mapTileURL, tileAttribution: config.mapTileAttribution)
    }

    static func streets() throws -> Data {
        let gz = try Data(contentsOf: SkiAreaLoading.bundled("andorra-2013-05-23.osm.gz"))
        let osm = try OSMExtract(xml: try gunzip(gz))
        return MapGeoJSON.streets(osm, south: streetBox.south, west: streetBox.west, north: streetBox.north, east: streetBox.east)
    }

    /// Every stop (as a point, with its name) and every shape (as a line).
    static func transit(_ t: Timetable, shapes: ShapeTable) -> Data {
        var features: [[String: Any]] = []
        for stop in t.allStops {
            let p = t.place(stop)
            guard p.parentID == nil else { continue }
            features.append(["type": "Feature", "properties": ["kind": "stop", "id": p.id, "name": p.name],
                             "geometry": ["type": "Point", "coordinates": [p.longitude, p.latitude]]])
        }
        for s in 0..<shapes.count {
            let points = shapes.points(ofShape: s)
            guard points.count >= 2 else { continue }
            features.append(["type": "Feature", "properties": ["kind": "shape", "id": shapes.ids[s]],
                             "geometry": ["type": "LineString", "coordinates": points.map { [$0.longitude, $0.latitude] }]])
        }
        return MapGeoJSON.collection(features)
    }

    struct GzipError: Error {}

    /// A gzip file's content, by the system zlib (windowBits 16 + 15 reads the gzip wrapper).
    static func gunzip(_ data: Data) throws -> Data {
        var stream = z_stream()
        guard inflateInit2_(&stream, 16 + MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { throw GzipError() }
        defer { inflateEnd(&stream) }
        var out = Data()
        var input = [UInt8](data)
        let chunk = 1 << 20
        var buffer = [UInt8](repeating: 0, count: chunk)
        var status: Int32 = Z_OK
        try input.withUnsafeMutableBufferPointer { inPtr in
            stream.next_in = inPtr.baseAddress
            stream.avail_in = uInt(inPtr.count)
            repeat {
                try buffer.withUnsafeMutableBufferPointer { outPtr in
                    stream.next_out = outPtr.baseAddress
                    stream.avail_out = uInt(chunk)
                    status = inflate(&stream, Z_NO_FLUSH)
                    guard status == Z_OK || status == Z_STREAM_END else { throw GzipError() }
                    out.append(outPtr.baseAddress!, count: chunk - Int(stream.avail_out))
                }
            } while status != Z_STREAM_END
        }
        return out
    }
}
