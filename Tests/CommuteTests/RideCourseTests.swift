@testable import Commute
import Foundation
import OnwardCore
import Testing

// A ride from A to B, 2 km apart on the equator, whose line bends 1 km north half-way (a river in the way).
private let A = JourneyStop(stopID: "A", name: "A", platform: nil, timeZone: "UTC", latitude: 0, longitude: 0)
private let B = JourneyStop(stopID: "B", name: "B", platform: nil, timeZone: "UTC", latitude: 0, longitude: 0.018)
private let bend = PathPoint(latitude: 0.009, longitude: 0.009)
private let t0 = Instant(epochSeconds: 1_795_400_000)

private func ride(path: [PathPoint]?) -> TransitLeg {
    var leg = TransitLeg(tripID: "T", routeID: "R", routeShortName: "R", routeLongName: "", routeColor: nil, headsign: "B",
                         serviceDate: ServiceDate(dayNumber: 20_780), startTime: nil, from: A, to: B, departure: t0, arrival: t0.adding(seconds: 600))
    leg.path = path
    return leg
}

@Suite("a ride's course along its path")
struct RideCourseTests {
    @Test("with the feed's shape, a fix at the bend is on the line, half-way, when the vehicle is there; with straight lines it is 1 km off")
    func alongTheBend() {
        let straight = RideCourse(ride(path: nil))
        let shaped = RideCourse(ride(path: [PathPoint(latitude: 0, longitude: 0), bend, PathPoint(latitude: 0, longitude: 0.018)]))
        #expect(abs(straight.length - 2_001) < 2)
        // Two legs of √(1² + 1²) km.
        #expect(abs(shaped.length - 2_830) < 5)
        let onStraight = straight.place(latitude: bend.latitude, longitude: bend.longitude)
        let onShape = shaped.place(latitude: bend.latitude, longitude: bend.longitude)
        #expect(onStraight.offLine > 990)
        #expect(onShape.offLine < 1 && abs(onShape.distance - shaped.length / 2) < 2)
        // Moving evenly from A at t0 to B ten minutes later: at the bend after five.
        #expect(shaped.time(atDistance: onShape.distance) == t0.adding(seconds: 300))
    }

    @Test("a fix at the bend is believed on the shaped ride and held as doubtful on the straight one")
    func judged() {
        for (path, doubtful) in [(nil, true), ([PathPoint(latitude: 0, longitude: 0), bend, PathPoint(latitude: 0, longitude: 0.018)], false)] as [([PathPoint]?, Bool)] {
            let session = CommuteSession(journey: Journey(legs: [.transit(ride(path: path))]))
            let fix = CommuteSession.Fix(at: t0.adding(seconds: 300), latitude: bend.latitude, longitude: bend.longitude, accuracy: 30)
            #expect((session.judge(fix) != nil) == doubtful, "path: \(path != nil)")
        }
    }

    @Test("calls along a shape keep their order, each where the line passes it")
    func calls() {
        var leg = ride(path: [PathPoint(latitude: 0, longitude: 0), bend, PathPoint(latitude: 0, longitude: 0.018)])
        // A call at the bend's foot is passed where the line comes nearest it, not before the boarding stop.
        leg.calls = [JourneyCall(stop: JourneyStop(stopID: "M", name: "M", platform: nil, timeZone: "UTC", latitude: 0.009, longitude: 0.009),
                                 departure: t0.adding(seconds: 300))]
        let course = RideCourse(leg)
        #expect(course.points.map(\.stop.stopID) == ["A", "M", "B"])
        #expect(abs(course.points[1].distance - course.length / 2) < 2)
        #expect(course.distance(at: t0.adding(seconds: 150)) < course.points[1].distance)
    }
}

@Suite("a ride's course placed by its vehicle's reported position")
struct VehiclePlacementTests {
    static func leg(vehicle: VehicleReport?) -> TransitLeg {
        var leg = ride(path: nil)
        leg.calls = [JourneyCall(stop: JourneyStop(stopID: "M", name: "M", platform: nil, timeZone: "UTC", latitude: 0, longitude: 0.009),
                                 departure: t0.adding(seconds: 300))]
        leg.vehicle = vehicle
        return leg
    }

    @Test("a vehicle reported a quarter of the way at 400 s (timetable: 150 s) is 250 s late to every call still ahead")
    func late() {
        let course = RideCourse(Self.leg(vehicle: VehicleReport(latitude: 0, longitude: 0.0045, at: t0.adding(seconds: 400))))
        #expect(course.isLive)
        #expect(course.points.map { $0.time.epochSeconds - t0.epochSeconds } == [0, 550, 850])
        #expect(abs(course.distance(at: t0.adding(seconds: 400)) - course.length / 4) < 2)
    }

    @Test("a vehicle ahead of the timetable brings the calls ahead of it earlier; a report far off the line is ignored")
    func earlyOrElsewhere() {
        let early = RideCourse(Self.leg(vehicle: VehicleReport(latitude: 0, longitude: 0.0135, at: t0.adding(seconds: 400))))
        #expect(early.points.map { $0.time.epochSeconds - t0.epochSeconds } == [0, 300, 550])
        let elsewhere = RideCourse(Self.leg(vehicle: VehicleReport(latitude: 0.01, longitude: 0.009, at: t0.adding(seconds: 400))))
        #expect(!elsewhere.isLive && elsewhere.points.map { $0.time.epochSeconds - t0.epochSeconds } == [0, 300, 600])
    }
}
