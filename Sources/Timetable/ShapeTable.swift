/// The shapes of a feed (shapes.txt): the path each trip draws on a map.
///
/// Kept apart from `Timetable` because boards never need them: a snapshot
/// stores them in their own section, which `ShapeTable.loadSnapshot` reads
/// only when a map asks for them, so they cost no resident memory otherwise.
public struct ShapeTable: Sendable, Equatable {
    public internal(set) var ids: [String]
    /// Points of shape `i` are `start[i]..<start[i+1]`.
    var start: [UInt32]
    /// Degrees × 10⁷: exact to about a centimetre in four bytes.
    var latE7: [Int32]
    var lonE7: [Int32]
    /// shape_dist_traveled, NaN where absent.
    var distance: [Float]

    /// About the bytes it takes in a snapshot.
    var approximateByteSize: Int { ids.reduce(0) { $0 + $1.utf8.count + 4 } + start.count * 4 + latE7.count * 12 }

    public struct Point: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        public var distance: Double?
    }

    public static let empty = ShapeTable(ids: [], start: [0], latE7: [], lonE7: [], distance: [])

    public var count: Int { ids.count }
    public var pointCount: Int { latE7.count }

    public func index(of id: String) -> Int? { ids.firstIndex(of: id) }

    public func points(ofShape i: Int) -> [Point] {
        (Int(start[i])..<Int(start[i + 1])).map {
            Point(latitude: Double(latE7[$0]) / 1e7, longitude: Double(lonE7[$0]) / 1e7,
                  distance: distance[$0].isNaN ? nil : Double(distance[$0]))
        }
    }
}

extension TimetableBuilder {
    public mutating func addShapePoint(shape: UInt32, sequence: UInt32, latitude: Double, longitude: Double, distance: Float) {
        shapePoints.append((shape, sequence, Int32((latitude * 1e7).rounded()), Int32((longitude * 1e7).rounded()), distance))
    }

    /// The shapes, their points ordered by shape_pt_sequence. Returns the
    /// sequence of the first duplicate point if a shape has one.
    public func buildShapes() -> (table: ShapeTable, duplicate: (shape: String, sequence: UInt32)?) {
        let order = shapePoints.indices.sorted { (shapePoints[$0].shape, shapePoints[$0].sequence) < (shapePoints[$1].shape, shapePoints[$1].sequence) }
        var start = [UInt32](repeating: 0, count: shapeID.count + 1)
        var lat: [Int32] = [], lon: [Int32] = [], dist: [Float] = []
        lat.reserveCapacity(order.count); lon.reserveCapacity(order.count); dist.reserveCapacity(order.count)
        var duplicate: (String, UInt32)?
        for (k, i) in order.enumerated() {
            let p = shapePoints[i]
            if k > 0, duplicate == nil, shapePoints[order[k - 1]].shape == p.shape, shapePoints[order[k - 1]].sequence == p.sequence {
                duplicate = (shapeID[Int(p.shape)], p.sequence)
            }
            start[Int(p.shape) + 1] += 1
            lat.append(p.lat); lon.append(p.lon); dist.append(p.distance)
        }
        for i in 0..<shapeID.count { start[i + 1] += start[i] }
        return (ShapeTable(ids: shapeID, start: start, latE7: lat, lonE7: lon, distance: dist), duplicate)
    }
}

extension Timetable {
    /// The index of the trip's shape in the feed's `ShapeTable`, if it has one.
    public func shapeIndex(of trip: TripIndex) -> Int? {
        let s = tripShape[Int(trip.raw)]
        return s == Timetable.none ? nil : Int(s)
    }
}
