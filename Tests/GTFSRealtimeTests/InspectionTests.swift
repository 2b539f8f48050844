import DataSources
import Foundation
import GTFS
import GTFSRealtime
import OnwardCore
import OnwardTesting
import SwiftProtobuf
import Testing
import Timetable

/// `RealtimeInspection`: what `onward rt inspect` reports, from a message decoded as boards decode it.
@Suite("GTFS-Realtime inspection")
struct InspectionTests {
    /// One trip T1 on route R: A 08:00, B 08:10, in UTC, every day of 2025.
    private func timetable() throws -> Timetable {
        try InlineFeed.load(timeZone: "UTC", [
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,40.0,-74.0\nB,Bravo,40.01,-74.0\n",
            "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nR,A,1,Line One,3\n",
            "trips.txt": "route_id,service_id,trip_id\nR,DAILY,T1\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,A,1\nT1,08:10:00,08:10:00,B,2\n",
            "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
                + "DAILY,1,1,1,1,1,1,1,20250101,20251231\n",
        ]).timetable
    }

    /// 2025-06-02 07:30 UTC.
    private let now = Instant(epochSeconds: Int64(ServiceDate(iso: "2025-06-02")!.dayNumber) * 86_400 + 7 * 3600 + 30 * 60)

    /// T1 late at A; an unknown trip at an unknown stop on an unknown route; a deleted update; a vehicle on T1.
    private func bytes() throws -> Data {
        var m = TransitRealtime_FeedMessage()
        m.header.gtfsRealtimeVersion = "2.0"
        m.header.timestamp = UInt64(now.epochSeconds)
        func update(_ id: String, trip: String, route: String?, stop: String, deleted: Bool = false) -> TransitRealtime_FeedEntity {
            var e = TransitRealtime_FeedEntity()
            e.id = id
            if deleted { e.isDeleted = true }
            e.tripUpdate.trip.tripID = trip
            e.tripUpdate.trip.startDate = "20250602"
            if let route { e.tripUpdate.trip.routeID = route }
            var s = TransitRealtime_TripUpdate.StopTimeUpdate()
            s.stopID = stop
            s.departure.delay = 120
            e.tripUpdate.stopTimeUpdate = [s]
            return e
        }
        m.entity = [update("e1", trip: "T1", route: "R", stop: "A"), update("e2", trip: "GHOST", route: "X9", stop: "Z"),
                    update("e3", trip: "T1", route: nil, stop: "B", deleted: true)]
        var v = TransitRealtime_FeedEntity()
        v.id = "v1"
        v.vehicle.trip.tripID = "T1"
        v.vehicle.position.latitude = 40
        v.vehicle.position.longitude = -74
        m.entity.append(v)
        return try m.serializedData()
    }

    @Test("counts, the first entities of each kind, and what matched and what did not")
    func report() throws {
        let message = try RealtimeFeed.decode(try bytes(), source: "test.pb")
        let tt = try timetable(), p = tt.defaultIDPrefix
        let i = RealtimeInspection(message, timetable: tt, idPrefix: p, limit: 1, now: now)
        #expect(i.entities == 4 && i.tripUpdateCount == 3 && i.vehiclePositionCount == 1 && i.alertCount == 0 && i.deleted == 1)
        #expect(i.tripUpdates.map(\.entityID) == ["e1"] && i.vehiclePositions.map(\.id) == ["v1"])
        #expect(i.header.gtfsRealtimeVersion == "2.0")
        #expect(i.match.trips == .init(matched: 1, unknown: 1, unknownIDs: [p + "GHOST"]))
        #expect(i.match.stopTimeUpdates.unknownIDs == [p + "Z"])
        #expect(i.match.routes == .init(matched: 1, unknown: 1, unknownIDs: [p + "X9"]))
        #expect(i.match.vehicles.matched == 1 && i.match.vehicles.unknown == 0)
    }

    @Test("a malformed file is refused in the words boards use, never a decoder's internal code")
    func malformed() {
        let garbage = Data("this is not a GTFS-Realtime feed\n".utf8)
        #expect {
            _ = try RealtimeFeed.decode(garbage, source: "garbage.pb")
        } throws: { error in
            let message = (error as? SourceError)?.message ?? ""
            return message.hasPrefix("garbage.pb is not a valid GTFS-Realtime feed (33 bytes): ") && !message.contains("malformedProtobuf")
        }
    }
}
