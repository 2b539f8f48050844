import Foundation
import OnwardCore

/// Where a ride's vehicle is at each moment, as the engine estimates it: along the way it goes (the feed's
/// shape, where the ride has its `path`; else straight lines between its calls), at its live times where the
/// feed gives them and elsewhere at the timetable's shifted by the last delay known before (as GTFS-Realtime
/// propagates a delay down the trip), moving evenly between calls; where the vehicle last reported its position,
/// the calls still ahead of it move by how late it was there.
struct RideCourse {
    /// A call (boarding, a call passed, alighting): when the vehicle leaves it and how far along the course it is.
    struct Point {
        var stop: JourneyStop
        /// When the vehicle leaves the call (arrives, at the last).
        var time: Instant
        /// Metres along the course from the boarding stop.
        var distance: Double
    }

    /// A point of the line the vehicle follows, with its distance along the course.
    struct LinePoint {
        var latitude: Double
        var longitude: Double
        var distance: Double
    }

    /// The calls, in order.
    let points: [Point]
    /// The line, from the boarding stop to the alighting stop.
    let line: [LinePoint]
    /// Where the vehicle is when, between which it moves evenly: the calls, and where its vehicle was last reported.
    let timeline: [(time: Instant, distance: Double)]
    /// Whether any of the times are live (a realtime source spoke of this run: its times, or where its vehicle was).
    let isLive: Bool

    init(_ ride: TransitLeg) {
        var raw: [(JourneyStop, Instant, Instant?)] = [(ride.from, ride.departure, ride.expectedDeparture)]
        raw += ride.calls.map { ($0.stop, $0.departure, $0.expectedDeparture) }
        raw.append((ride.to, ride.arrival, ride.expectedArrival))
        var live = raw.contains { $0.2 != nil }
        let hasPath = (ride.path?.count ?? 0) >= 2
        let shape = hasPath ? ride.path ?? [] : raw.map { PathPoint(latitude: $0.0.latitude, longitude: $0.0.longitude) }
        var line: [LinePoint] = []
        for p in shape {
            let distance = line.last.map { $0.distance + GreatCircle.metres($0.latitude, $0.longitude, p.latitude, p.longitude) } ?? 0
            line.append(LinePoint(latitude: p.latitude, longitude: p.longitude, distance: distance))
        }
        self.line = line
        var delay: Int64 = 0
        var points: [Point] = []
        var segment = 0
        for (n, (stop, scheduled, expected)) in raw.enumerated() {
            if let expected { delay = expected.epochSeconds - scheduled.epochSeconds }
            var time = expected ?? scheduled.adding(seconds: delay)
            // Each call where it lies along the line, looked for on from the last call's place so calls keep their order.
            // Without a path the line is the calls themselves.
            var distance = !hasPath ? line[n].distance : n == 0 ? 0 : n == raw.count - 1 ? line[line.count - 1].distance : 0
            if hasPath && n > 0 && n < raw.count - 1 {
                let found = Self.project(stop.latitude, stop.longitude, onto: line, from: segment)
                distance = found.distance
                segment = found.segment
            }
            if let last = points.last {
                time = max(time, last.time)
                distance = max(distance, last.distance)
            }
            points.append(Point(stop: stop, time: time, distance: distance))
        }
        // A vehicle's reported position outranks the times: the calls it has yet to reach move by how late (or
        // early) it was there, and the estimate passes through the report. A report far off the line (another
        // run's vehicle, a bad fix) is ignored.
        var timeline = points.map { (time: $0.time, distance: $0.distance) }
        if let v = ride.vehicle {
            let (place, offLine, _) = Self.project(v.latitude, v.longitude, onto: line, from: 0)
            if offLine <= Self.vehicleOffLineMetres {
                live = true
                let expected = Self.time(atDistance: place, points.map { (time: $0.time, distance: $0.distance) })
                let lag = v.at.epochSeconds - expected.epochSeconds
                var previous: Instant?
                for k in points.indices {
                    if points[k].distance > place { points[k].time = points[k].time.adding(seconds: lag) }
                    if let previous { points[k].time = max(points[k].time, previous) }
                    previous = points[k].time
                }
                timeline = points.map { (time: $0.time, distance: $0.distance) }
                if let k = timeline.firstIndex(where: { $0.distance > place }), k > 0, timeline[k - 1].time <= v.at, v.at <= timeline[k].time {
                    timeline.insert((time: v.at, distance: place), at: k)
                }
            }
        }
        self.timeline = timeline
        self.points = points
        isLive = live
    }

    /// How far off the line a vehicle's reported position may be and still place it.
    static let vehicleOffLineMetres = 300.0

    var length: Double { points.last?.distance ?? 0 }
    var leaves: Instant { points[0].time }
    var arrives: Instant { points[points.count - 1].time }

    /// How far along the vehicle is at `t` (at the boarding stop before it leaves, at the end after it arrives).
    func distance(at t: Instant) -> Double {
        guard t > leaves else { return 0 }
        for (a, b) in zip(timeline, timeline.dropFirst()) where t < b.time {
            let span = Double(b.time.epochSeconds - a.time.epochSeconds)
            let part = span > 0 ? Double(t.epochSeconds - a.time.epochSeconds) / span : 1
            return a.distance + (b.distance - a.distance) * min(max(part, 0), 1)
        }
        return length
    }

    /// When the vehicle is at `distance` along the course.
    func time(atDistance distance: Double) -> Instant { Self.time(atDistance: distance, timeline) }

    static func time(atDistance distance: Double, _ points: [(time: Instant, distance: Double)]) -> Instant {
        guard distance > 0 else { return points[0].time }
        for (a, b) in zip(points, points.dropFirst()) where distance <= b.distance {
            let span = b.distance - a.distance
            let part = span > 0 ? (distance - a.distance) / span : 1
            return a.time.adding(seconds: Int64((Double(b.time.epochSeconds - a.time.epochSeconds) * part).rounded()))
        }
        return points[points.count - 1].time
    }

    /// A position against the course: how far along it the nearest point of the line is, and how far
    /// off the line the position lies (metres).
    func place(latitude: Double, longitude: Double) -> (distance: Double, offLine: Double) {
        let found = Self.project(latitude, longitude, onto: line, from: 0)
        return (found.distance, found.offLine)
    }

    /// The nearest point to a position of the line's segments from `first` on: its distance along the line, how far
    /// off the line the position is, and the segment.
    static func project(_ latitude: Double, _ longitude: Double, onto line: [LinePoint], from first: Int) -> (distance: Double, offLine: Double, segment: Int) {
        // A flat projection around the position: exact enough over the few kilometres between two calls.
        let metresPerDegree = 111_195.0
        let east = cos(latitude * .pi / 180) * metresPerDegree
        func xy(_ p: LinePoint) -> (Double, Double) { ((p.longitude - longitude) * east, (p.latitude - latitude) * metresPerDegree) }
        guard line.count > 1 else {
            let (x, y) = line.first.map(xy) ?? (0, 0)
            return (0, (x * x + y * y).squareRoot(), 0)
        }
        var best = (distance: 0.0, offLine: Double.infinity, segment: first)
        for k in min(first, line.count - 2)..<(line.count - 1) {
            let a = line[k], b = line[k + 1]
            let (ax, ay) = xy(a), (bx, by) = xy(b)
            let dx = bx - ax, dy = by - ay
            let length2 = dx * dx + dy * dy
            // The position is the origin: the nearest point of segment a–b to it.
            let part = length2 > 0 ? min(max(-(ax * dx + ay * dy) / length2, 0), 1) : 0
            let px = ax + dx * part, py = ay + dy * part
            let off = (px * px + py * py).squareRoot()
            if off < best.offLine { best = (a.distance + (b.distance - a.distance) * part, off, k) }
        }
        return best
    }
}

/// How fast a traveller can move, by how they travel: the limit a believable pair of fixes keeps to.
enum TravelSpeed {
    /// Metres per second on foot (running, or a bicycle, allowed).
    static let walking = 10.0

    /// The fastest the vehicle of a GTFS `route_type` runs (basic and extended types); nil when the type
    /// is not known.
    static func fastest(routeType: Int?) -> Double? {
        guard let t = routeType else { return nil }
        switch t {
        case 0, 900...999: return 25        // tram, light rail: 90 km/h
        case 1, 400...499: return 35        // metro: 126 km/h
        case 101: return 100                // high-speed rail: 360 km/h
        case 2, 100...199: return 70        // rail: 250 km/h
        case 3, 11, 200...299, 700...799, 800...899: return 35  // bus, coach, trolleybus
        case 4, 1000...1099, 1200: return 20  // ferry
        case 5, 6, 7, 1300...1499: return 15  // cable tram, aerial lift, funicular
        default: return nil
        }
    }
}
