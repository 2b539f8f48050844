import Foundation
import OnwardCore
import Timetable
import TransitSources

extension GTFSNetworkSource {
    /// How far the path kept may stray from the feed's shape.
    static let pathToleranceMetres = 5.0

    /// The part of the trip's shape between the points nearest its two stops, from the first stop to the second.
    /// The second is looked for after the first, so a line that doubles back (a loop) is cut the way the trip goes.
    public func path(serviceID: String, from: PathPoint, to: PathPoint) -> [PathPoint]? {
        let state = store.snapshot.state
        let tt = state.served.timetable, shapes = state.served.shapes
        // A timetable made without its feed's shapes (`shapes` empty) has none to give.
        guard let trip = try? trip(serviceID, in: state), let shape = tt.shapeIndex(of: trip), shape < shapes.count else { return nil }
        let points = shapes.points(ofShape: shape).map { PathPoint(latitude: $0.latitude, longitude: $0.longitude) }
        guard points.count >= 2 else { return nil }
        func nearest(_ p: PathPoint, in range: Range<Int>) -> Int? {
            range.min { GreatCircle.metres(p.latitude, p.longitude, points[$0].latitude, points[$0].longitude)
                < GreatCircle.metres(p.latitude, p.longitude, points[$1].latitude, points[$1].longitude) }
        }
        guard let first = nearest(from, in: 0..<points.count), let last = nearest(to, in: first..<points.count), last > first else { return nil }
        // The stops themselves at each end (the shape's points near them are not exactly where they are), and only
        // the bends: a fix is judged against the line to within its accuracy, tens of metres at best.
        // To the centimetre, as a commute keeps it.
        return ([from] + points[(first + 1)..<last] + [to]).simplified(toleranceMetres: Self.pathToleranceMetres).quantized
    }

    /// A trip's whole shape for its map, to within `pathToleranceMetres`, or nil when the feed has none for it.
    func shape(of trip: TripIndex, in state: NetworkState) -> [PathPoint]? {
        let shapes = state.served.shapes
        guard let shape = state.served.timetable.shapeIndex(of: trip), shape < shapes.count else { return nil }
        let points = shapes.points(ofShape: shape).map { PathPoint(latitude: $0.latitude, longitude: $0.longitude) }
        return points.count >= 2 ? points.simplified(toleranceMetres: Self.pathToleranceMetres).quantized : nil
    }
}
