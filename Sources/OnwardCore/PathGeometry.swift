import Foundation

extension [PathPoint] {
    /// The same line with fewer points: every point left out lies within `toleranceMetres` of the line kept
    /// (Douglas–Peucker). A feed's shape draws a point every 100 m or so; what commuting mode judges a fix
    /// against needs only the bends, and each point kept is stored with every commute.
    public func simplified(toleranceMetres: Double) -> [PathPoint] {
        guard count > 2 else { return self }
        var keep = [Bool](repeating: false, count: count)
        keep[0] = true
        keep[count - 1] = true
        var spans = [(0, count - 1)]
        while let (first, last) = spans.popLast() {
            guard last > first + 1 else { continue }
            var farthest = first, distance = -1.0
            for k in (first + 1)..<last {
                let d = Self.offLine(self[k], self[first], self[last])
                if d > distance { distance = d; farthest = k }
            }
            if distance > toleranceMetres {
                keep[farthest] = true
                spans.append((first, farthest))
                spans.append((farthest, last))
            }
        }
        return indices.filter { keep[$0] }.map { self[$0] }
    }

    /// How far `p` lies from the segment a–b, in metres (a flat projection around `p`: exact enough over a few kilometres).
    static func offLine(_ p: PathPoint, _ a: PathPoint, _ b: PathPoint) -> Double {
        let north = 111_195.0, east = cos(p.latitude * .pi / 180) * north
        let ax = (a.longitude - p.longitude) * east, ay = (a.latitude - p.latitude) * north
        let bx = (b.longitude - p.longitude) * east, by = (b.latitude - p.latitude) * north
        let dx = bx - ax, dy = by - ay, length2 = dx * dx + dy * dy
        let part = length2 > 0 ? Swift.min(Swift.max(-(ax * dx + ay * dy) / length2, 0), 1) : 0
        let x = ax + dx * part, y = ay + dy * part
        return (x * x + y * y).squareRoot()
    }

    /// The line as text, the encoded polyline format's way (coordinates in 1e-7 degrees, as feeds give them, each the difference from
    /// the one before as a zig-zag varint in printable characters): about 10 bytes a point, not 50 as JSON objects.
    public var encodedPolyline: String {
        var out = ""
        var last = (0, 0)
        func put(_ value: Int) {
            var v = value < 0 ? ~(value << 1) : value << 1
            while v >= 0x20 {
                out.unicodeScalars.append(Unicode.Scalar(UInt8((0x20 | (v & 0x1F)) + 63)))
                v >>= 5
            }
            out.unicodeScalars.append(Unicode.Scalar(UInt8(v + 63)))
        }
        for p in self {
            let lat = Int((p.latitude * 1e7).rounded()), lon = Int((p.longitude * 1e7).rounded())
            put(lat - last.0)
            put(lon - last.1)
            last = (lat, lon)
        }
        return out
    }

    /// The same points to the 1e-7 degree (about a centimetre) that `encodedPolyline` keeps: a path made so reads
    /// back equal.
    public var quantized: [PathPoint] {
        map { PathPoint(latitude: ($0.latitude * 1e7).rounded() / 1e7, longitude: ($0.longitude * 1e7).rounded() / 1e7) }
    }

    /// Reads `encodedPolyline`'s text; nil for text that is not one.
    public init?(encodedPolyline text: String) {
        var points: [PathPoint] = []
        var values: [Int] = []
        var current = 0, shift = 0
        for byte in text.utf8 {
            guard byte >= 63, byte < 63 + 64 else { return nil }
            let chunk = Int(byte) - 63
            current |= (chunk & 0x1F) << shift
            shift += 5
            guard shift < 60 else { return nil }
            if chunk < 0x20 {
                values.append(current & 1 == 1 ? ~(current >> 1) : current >> 1)
                current = 0
                shift = 0
            }
        }
        guard shift == 0, values.count % 2 == 0 else { return nil }
        var lat = 0, lon = 0
        for k in stride(from: 0, to: values.count, by: 2) {
            lat += values[k]
            lon += values[k + 1]
            points.append(PathPoint(latitude: Double(lat) / 1e7, longitude: Double(lon) / 1e7))
        }
        self = points
    }
}
