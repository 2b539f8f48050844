import Foundation
import OnwardCore
import Timetable

/// shapes.txt, read on its own thread while trips and stop times are read on
/// another: it is independent of them until trips are linked to shapes.
struct ShapeReader: @unchecked Sendable {
    var ids: [String] = []
    var index: [String: UInt32] = [:]
    var points: [(shape: UInt32, sequence: UInt32, latitude: Double, longitude: Double, distance: Float)] = []

    static func read(_ source: any GTFSSource) throws -> ShapeReader {
        var r = ShapeReader()
        guard source.contains("shapes.txt") else { return r }
        var idC = 0, latC = 0, lonC = 0, seqC = 0
        var distC: Int?
        var lastID: [UInt8] = []
        var last: UInt32 = 0
        try GTFSTable.read(source, "shapes.txt", header: { t in
            idC = try t.required("shape_id"); latC = try t.required("shape_pt_lat"); lonC = try t.required("shape_pt_lon")
            seqC = try t.required("shape_pt_sequence"); distC = t.column("shape_dist_traveled")
        }) { t, row in
            let idBytes = row.bytes(idC)
            if !FieldParsing.equal(idBytes, lastID) {
                let id = String(decoding: idBytes, as: UTF8.self)
                guard !id.isEmpty else { throw t.error("invalidValue", line: row.line, field: "shape_id", "shape_id is empty") }
                if let s = r.index[id] { last = s } else { last = UInt32(r.ids.count); r.ids.append(id); r.index[id] = last }
                lastID = Array(idBytes)
            }
            guard let lat = FieldParsing.double(row.bytes(latC)), abs(lat) <= 90 else {
                throw t.error("invalidValue", line: row.line, field: "shape_pt_lat", "'\(row.string(latC))' is not a valid latitude")
            }
            guard let lon = FieldParsing.double(row.bytes(lonC)), abs(lon) <= 180 else {
                throw t.error("invalidValue", line: row.line, field: "shape_pt_lon", "'\(row.string(lonC))' is not a valid longitude")
            }
            guard let seq = FieldParsing.int(row.bytes(seqC)), seq >= 0, seq <= Int(UInt32.max) else {
                throw t.error("invalidValue", line: row.line, field: "shape_pt_sequence", "'\(row.string(seqC))' is not a non-negative whole number")
            }
            let dist = distC.flatMap { FieldParsing.double(row.bytes($0)) }.map(Float.init) ?? .nan
            r.points.append((last, UInt32(seq), lat, lon, dist))
        }
        return r
    }

    /// Reads on a background thread; `wait()` returns the result or rethrows its error.
    final class Pending: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var result: Result<ShapeReader, any Error> = .success(ShapeReader())

        init(_ source: any GTFSSource) {
            nonisolated(unsafe) let source = source
            Thread.detachNewThread { [self] in
                result = Result { try ShapeReader.read(source) }
                done.signal()
            }
        }

        func wait() throws -> ShapeReader {
            done.wait()
            return try result.get()
        }
    }
}

extension FeedImport {
    /// Adds the shapes to the builder and links each trip to its shape.
    mutating func linkShapes(_ shapes: ShapeReader, _ b: inout TimetableBuilder, notices: inout [ImportNotice]) {
        var global: [UInt32] = []
        for id in shapes.ids { global.append(b.addShape(id: prefix + id)) }
        for p in shapes.points {
            b.addShapePoint(shape: global[Int(p.shape)], sequence: p.sequence, latitude: p.latitude, longitude: p.longitude, distance: p.distance)
        }
        for link in tripShapes {
            if let s = shapes.index[link.shapeID] {
                b.setShape(of: link.trip, to: global[Int(s)])
            } else {
                // The trip is still usable; only its drawing on a map is lost.
                notices.append(ImportNotice(kind: "unknownShape", location: SourceLocation(file: "trips.txt", line: link.line, field: "shape_id"),
                                            message: "shape_id '\(link.shapeID)' is not in shapes.txt; the trip has no shape"))
            }
        }
        if !shapes.points.isEmpty { rowCounts["shapes.txt"] = shapes.points.count }
    }
}
