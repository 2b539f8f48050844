import Foundation

/// One SRTM tile (`N42E001.hgt`): heights in metres on a square grid of 1201×1201 (3 arc-seconds) or
/// 3601×3601 (1 arc-second) samples, big-endian 16-bit, rows from north to south; -32768 is a void.
public struct SRTMTile: Sendable {
    /// The tile's south-west corner, in whole degrees.
    public let south: Int
    public let west: Int
    let size: Int
    let samples: [Int16]

    public struct ReadError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// - Parameter name: the tile's file name (`N42E001.hgt`), which says where it lies.
    public init(name: String, data: Data) throws(ReadError) {
        let stem = (name as NSString).lastPathComponent.uppercased().replacingOccurrences(of: ".HGT", with: "")
        let chars = Array(stem)
        guard chars.count == 7, "NS".contains(chars[0]), "EW".contains(chars[3]),
              let lat = Int(String(chars[1...2])), let lon = Int(String(chars[4...6])) else {
            throw ReadError(description: "\(name): an SRTM tile is named like N42E001.hgt")
        }
        south = chars[0] == "N" ? lat : -lat
        west = chars[3] == "E" ? lon : -lon
        switch data.count {
        case 1201 * 1201 * 2: size = 1201
        case 3601 * 3601 * 2: size = 3601
        default: throw ReadError(description: "\(name): \(data.count) bytes is not an SRTM tile (1201² or 3601² samples of 2 bytes)")
        }
        let bytes = [UInt8](data), count = size * size
        samples = (0..<count).map { i in Int16(bitPattern: UInt16(bytes[2 * i]) << 8 | UInt16(bytes[2 * i + 1])) }
    }

    /// The height at a point, interpolated between the four samples around it; nil outside the tile or next to a void.
    public func elevation(latitude: Double, longitude: Double) -> Double? {
        let steps = Double(size - 1)
        let row = (Double(south + 1) - latitude) * steps, column = (longitude - Double(west)) * steps
        guard row >= 0, column >= 0, row <= steps, column <= steps else { return nil }
        let r0 = min(Int(row), size - 2), c0 = min(Int(column), size - 2)
        let fr = row - Double(r0), fc = column - Double(c0)
        func at(_ r: Int, _ c: Int) -> Double? {
            let v = samples[r * size + c]
            return v == Int16.min ? nil : Double(v)
        }
        guard let a = at(r0, c0), let b = at(r0, c0 + 1), let c = at(r0 + 1, c0), let d = at(r0 + 1, c0 + 1) else { return nil }
        return (a * (1 - fc) + b * fc) * (1 - fr) + (c * (1 - fc) + d * fc) * fr
    }
}
