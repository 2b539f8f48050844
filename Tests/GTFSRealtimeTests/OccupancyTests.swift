import API
import Foundation
import GTFS
import GTFSRealtime
import OnwardCore
import OnwardTesting
import SwiftProtobuf
import Testing
import Timetable

// How full a vehicle is (issue 27, item 2): GTFS-Realtime messages built in code with each occupancy field, through
// the appliers, to boards, services and the API's shapes. The feed is in UTC, so every instant is plain arithmetic.

private let day = ServiceDate(iso: "2025-06-02")!

private func at(_ hhmm: String) -> Int64 {
    let p = hhmm.split(separator: ":").map { Int64($0)! }
    return Int64(day.dayNumber) * 86_400 + p[0] * 3600 + p[1] * 60
}

/// T1 (a train, route_type 2): A 08:00, B 08:10, C 08:20, D 08:30 (sequences 1–4). B1 (a bus): A 08:05, C 08:25, D 08:35.
private func feed() throws -> Timetable {
    try InlineFeed.load(timeZone: "UTC", [
        "stops.txt": """
            stop_id,stop_name,stop_lat,stop_lon
            A,Alpha,40.00,-74.0
            B,Bravo,40.01,-74.0
            C,Charlie,40.02,-74.0
            D,Delta,40.03,-74.0
            """,
        "routes.txt": """
            route_id,agency_id,route_short_name,route_long_name,route_type
            RAIL,A,R1,Rail One,2
            BUS,A,7,Bus Seven,3
            """,
        "trips.txt": """
            route_id,service_id,trip_id
            RAIL,DAILY,T1
            BUS,DAILY,B1
            """,
        "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,08:00:00,08:00:00,A,1
            T1,08:10:00,08:10:00,B,2
            T1,08:20:00,08:20:00,C,3
            T1,08:30:00,08:30:00,D,4
            B1,08:05:00,08:05:00,A,1
            B1,08:25:00,08:25:00,C,2
            B1,08:35:00,08:35:00,D,3
            """,
        "calendar.txt": """
            service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
            DAILY,1,1,1,1,1,1,1,20250101,20251231
            """,
    ]).timetable
}

private func message(_ entities: [TransitRealtime_FeedEntity]) -> TransitRealtime_FeedMessage {
    var m = TransitRealtime_FeedMessage()
    m.header.gtfsRealtimeVersion = "2.0"
    m.header.timestamp = UInt64(at("07:55"))
    m.entity = entities
    return m
}

private func carriage(_ sequence: UInt32?, id: String? = nil, _ status: TransitRealtime_VehiclePosition.OccupancyStatus? = nil,
                      percent: Int32? = nil) -> TransitRealtime_VehiclePosition.CarriageDetails {
    var c = TransitRealtime_VehiclePosition.CarriageDetails()
    if let sequence { c.carriageSequence = sequence }
    if let id { c.id = id }
    if let status { c.occupancyStatus = status }
    if let percent { c.occupancyPercentage = percent }
    return c
}

/// T1's vehicle, on its way to call `sequence`, with the occupancy fields given.
private func vehicle(_ tripID: String = "T1", sequence: UInt32, _ status: TransitRealtime_VehiclePosition.OccupancyStatus? = nil,
                     percent: UInt32? = nil, carriages: [TransitRealtime_VehiclePosition.CarriageDetails] = []) -> TransitRealtime_FeedEntity {
    var v = TransitRealtime_VehiclePosition()
    v.trip.tripID = tripID
    v.trip.startDate = "20250602"
    v.currentStopSequence = sequence
    v.currentStatus = .inTransitTo
    if let status { v.occupancyStatus = status }
    if let percent { v.occupancyPercentage = percent }
    v.multiCarriageDetails = carriages
    var e = TransitRealtime_FeedEntity()
    e.id = "v-\(tripID)"
    e.vehicle = v
    return e
}

/// A trip update for T1, on time at each sequence given, with the departure occupancy forecast given there (if any).
private func forecasts(_ calls: [(UInt32, TransitRealtime_VehiclePosition.OccupancyStatus?)]) -> TransitRealtime_FeedEntity {
    var u = TransitRealtime_TripUpdate()
    u.trip.tripID = "T1"
    u.trip.startDate = "20250602"
    for (sequence, status) in calls {
        var s = TransitRealtime_TripUpdate.StopTimeUpdate()
        s.stopSequence = sequence
        var e = TransitRealtime_TripUpdate.StopTimeEvent()
        e.delay = 0
        s.arrival = e
        s.departure = e
        if let status { s.departureOccupancyStatus = status }
        u.stopTimeUpdate.append(s)
    }
    var e = TransitRealtime_FeedEntity()
    e.id = "tu-T1"
    e.tripUpdate = u
    return e
}

private func board(_ tt: Timetable, _ stopID: String, from: String, now: String, overlay: RealtimeOverlay) throws -> [BoardEntry] {
    let stop = try #require(tt.stop(id: stopID))
    return tt.liveBoard(BoardRequest(kind: .departures, stop: stop, from: Instant(epochSeconds: at(from)), window: 3600), overlay: overlay,
                        now: Instant(epochSeconds: at(now)))
}

@Suite("Occupancy from GTFS-Realtime")
struct OccupancyTests {
    @Test("a vehicle's status, percentage and carriages, in carriage order; no data and -1 are nothing, not empty")
    func vehicleFields() throws {
        let tt = try feed()
        let m = message([vehicle(sequence: 2, .standingRoomOnly, percent: 85, carriages: [
            carriage(3, id: "C3", .crushedStandingRoomOnly, percent: 97),
            carriage(1, id: "LOCO", .notBoardable),
            carriage(2, id: "C2", .noDataAvailable, percent: -1),
            carriage(4, id: "C4", percent: 30),
        ])])
        let (overlay, report) = VehiclePositionApplier(timetable: tt).apply(m, now: Instant(epochSeconds: at("07:55")))
        #expect(report.matchedVehicles == 1)
        let info = try #require(overlay.vehicles.values.first?.occupancy)
        #expect(info.level == .standingRoomOnly)
        #expect(info.percentage == 85)
        #expect(info.basis == .vehicleNow)
        #expect(info.carriages == [
            Occupancy.Carriage(sequence: 1, id: "LOCO", level: .notBoardable),
            Occupancy.Carriage(sequence: 2, id: "C2"),
            Occupancy.Carriage(sequence: 3, id: "C3", level: .crushedStandingRoomOnly, percentage: 97),
            Occupancy.Carriage(sequence: 4, id: "C4", percentage: 30),
        ])
        // The API gives each carriage the level it reads as: its own, else from its percentage.
        let dto = OccupancyDTO(info)
        #expect(dto.level == "standingRoomOnly")
        #expect(dto.basis == "vehicleNow")
        #expect(dto.carriages?.map(\.level) == ["notBoardable", nil, "crushedStandingRoomOnly", "manySeatsAvailable"])
    }

    @Test("with a percentage alone the level comes from it; with carriages alone, from the middle boardable one")
    func derivedLevels() throws {
        let tt = try feed()
        let applier = VehiclePositionApplier(timetable: tt)
        let now = Instant(epochSeconds: at("07:55"))
        let byPercent = try #require(applier.apply(message([vehicle(sequence: 2, percent: 62)]), now: now).overlay.vehicles.values.first?.occupancy)
        #expect(byPercent.level == nil)
        #expect(byPercent.effectiveLevel == .fewSeatsAvailable)
        // Carriages at 10%, 55%, 90% and a locomotive: the locomotive does not count; the middle of three is 55%.
        let byCarriages = try #require(applier.apply(message([vehicle(sequence: 2, carriages: [
            carriage(1, .notBoardable), carriage(2, percent: 10), carriage(3, percent: 55), carriage(4, percent: 90),
        ])]), now: now).overlay.vehicles.values.first?.occupancy)
        #expect(byCarriages.effectiveLevel == .fewSeatsAvailable)
        #expect(OccupancyDTO(byCarriages).level == "fewSeatsAvailable")
        // Nothing said: no occupancy at all (a vehicle with NO_DATA_AVAILABLE is not "empty").
        let none = applier.apply(message([vehicle(sequence: 2, .noDataAvailable, carriages: [carriage(1, .noDataAvailable)])]), now: now)
        #expect(none.overlay.vehicles.values.first?.occupancy == nil)
        #expect(none.overlay.vehicles.count == 1)
    }

    @Test("a board shows the forecast for leaving its stop, else the vehicle as reported until it has passed the stop")
    func boards() throws {
        let tt = try feed()
        let now = Instant(epochSeconds: at("07:55"))
        var overlay = TripUpdateApplier(timetable: tt).apply(message([forecasts([(2, nil), (3, .full), (4, .empty)])]), now: now).overlay
        overlay = VehiclePositionApplier(timetable: tt).apply(message([vehicle(sequence: 2, .standingRoomOnly, percent: 85)]), to: overlay, now: now).overlay
        // At C the feed forecasts T1 leaving full; B1 has no live data and no vehicle.
        let c = try board(tt, "C", from: "08:00", now: "07:55", overlay: overlay)
        try #require(c.map(\.tripID) == ["test:T1", "test:B1"])
        #expect(c[0].occupancy == Occupancy(level: .full, percentage: nil, basis: .forecastAtStop))
        #expect(c[1].occupancy == nil)
        // At B there is no forecast: the vehicle, on its way to B, as it was reported.
        let b = try board(tt, "B", from: "08:00", now: "07:55", overlay: overlay)
        #expect(b.first?.occupancy == Occupancy(level: .standingRoomOnly, percentage: 85, basis: .vehicleNow))
        // At A the vehicle has already left (it is on its way to B): what it says now is not about A.
        let vehicleOnly = VehiclePositionApplier(timetable: tt).apply(message([vehicle(sequence: 2, .standingRoomOnly)]), now: now).overlay
        let a = try board(tt, "A", from: "07:55", now: "07:55", overlay: vehicleOnly)
        #expect(a.first?.tripID == "test:T1")
        #expect(a.first?.occupancy == nil)
        // The board's JSON carries it.
        let dto = BoardEntryDTO(c[0], arrivals: false)
        #expect(dto.occupancy == OccupancyDTO(c[0].occupancy!))
        #expect(dto.occupancy?.level == "full")
        #expect(dto.occupancy?.basis == "forecastAtStop")
    }

    @Test("a service shows each call's forecast and the vehicle with its carriages")
    func service() throws {
        let tt = try feed()
        let now = Instant(epochSeconds: at("07:55"))
        var overlay = TripUpdateApplier(timetable: tt).apply(message([forecasts([(2, .fewSeatsAvailable), (3, .standingRoomOnly)])]), now: now).overlay
        overlay = VehiclePositionApplier(timetable: tt).apply(message([vehicle(sequence: 2, .manySeatsAvailable, carriages: [
            carriage(1, .manySeatsAvailable), carriage(2, .fewSeatsAvailable),
        ])]), to: overlay, now: now).overlay
        let t1 = try #require(tt.trip(id: "T1"))
        let details = try tt.liveService(t1, on: day, overlay: overlay, now: now)
        #expect(details.calls.map(\.occupancy?.level) == [nil, .fewSeatsAvailable, .standingRoomOnly, nil])
        #expect(details.calls.compactMap(\.occupancy).allSatisfy { $0.basis == .forecastAtStop })
        #expect(details.vehicle?.occupancy?.level == .manySeatsAvailable)
        #expect(details.vehicle?.occupancy?.carriages.map(\.level) == [.manySeatsAvailable, .fewSeatsAvailable])
        let dto = ServiceDTO(details)
        #expect(dto.calls.map(\.occupancy?.level) == [nil, "fewSeatsAvailable", "standingRoomOnly", nil])
        #expect(dto.vehicle?.occupancy?.carriages?.count == 2)
    }

    @Test("a journey's ride says how full the vehicle is where it is boarded")
    func journey() throws {
        let tt = try feed()
        let now = Instant(epochSeconds: at("07:55"))
        let overlay = TripUpdateApplier(timetable: tt).apply(message([forecasts([(1, .manySeatsAvailable), (2, .full)])]), now: now).overlay
        var request = JourneyPlanner.Request(from: try #require(tt.stop(id: "A")), to: try #require(tt.stop(id: "C")), time: now)
        request.limit = 1
        let journeys = JourneyPlanner(tt).journeys(request, overlay: overlay, live: true)
        let ride = try #require(journeys.first?.rides.first)
        #expect(ride.tripID == "test:T1")
        #expect(ride.occupancy == Occupancy(level: .manySeatsAvailable, percentage: nil, basis: .forecastAtStop))
        #expect(JourneyLegDTO(.transit(ride)).occupancy?.level == "manySeatsAvailable")
    }

    @Test("the wire decoder reads departure_occupancy_status as SwiftProtobuf does; NO_DATA_AVAILABLE and unknown values are nothing")
    func wire() throws {
        let m = message([forecasts([(1, .crushedStandingRoomOnly), (2, .noDataAvailable), (3, .notAcceptingPassengers)])])
        var bytes = try m.serializedData()
        let fast = try RealtimeFeed.decode(bytes, source: "test")
        let reference = RealtimeMessage(try TransitRealtime_FeedMessage(serializedBytes: bytes))
        #expect(fast.tripUpdates == reference.tripUpdates)
        #expect(fast.tripUpdates.first?.stopTimeUpdates.map(\.departureOccupancy) == [.crushedStandingRoomOnly, nil, .notAcceptingPassengers])
        // A value this version does not know (99), written by hand as field 7 of the first stop time update.
        var u = m
        u.entity[0].tripUpdate.stopTimeUpdate[0].clearDepartureOccupancyStatus()
        var stu = try u.entity[0].tripUpdate.stopTimeUpdate[0].serializedData()
        stu.append(contentsOf: [7 << 3, 99])
        u.entity[0].tripUpdate.stopTimeUpdate[0] = try TransitRealtime_TripUpdate.StopTimeUpdate(serializedBytes: stu)
        bytes = try u.serializedData()
        #expect(try RealtimeFeed.decode(bytes, source: "test").tripUpdates.first?.stopTimeUpdates.first?.departureOccupancy == nil)
    }
}
