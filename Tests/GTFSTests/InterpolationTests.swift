import GTFS
import OnwardCore
import OnwardTesting
import Testing
import Timetable

/// Blank times between timepoints are filled in: by shape_dist_traveled when
/// every stop in the gap has one, else evenly by stop count.
@Suite("Interpolation of blank times")
struct InterpolationTests {
    static let stops = """
        stop_id,stop_name,stop_lat,stop_lon
        S1,One,40.0,-74.0
        S2,Two,40.1,-74.1
        S3,Three,40.2,-74.2
        S4,Four,40.3,-74.3
        S5,Five,40.4,-74.4
        """

    static func load(_ stopTimes: String) throws -> GTFSImporter.Result {
        try InlineFeed.load(BaseFeed.with([
            "stops.txt": stops,
            "trips.txt": "route_id,service_id,trip_id\nR1,WK,T1\n",
            "stop_times.txt": stopTimes,
        ]))
    }

    @Test func evenlyBetweenTimepoints() throws {
        let result = try Self.load("""
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,08:00:00,08:00:00,S1,1
            T1,,,S2,2
            T1,,,S3,3
            T1,08:30:00,08:30:00,S4,4
            """)
        #expect(result.notices.isEmpty)
        #expect(try calls(result.timetable, "T1") == [
            Call(stop: "test:S1", sequence: 1, arrival: "08:00:00", departure: "08:00:00", isTimepoint: true),
            Call(stop: "test:S2", sequence: 2, arrival: "08:10:00", departure: "08:10:00", isTimepoint: false),
            Call(stop: "test:S3", sequence: 3, arrival: "08:20:00", departure: "08:20:00", isTimepoint: false),
            Call(stop: "test:S4", sequence: 4, arrival: "08:30:00", departure: "08:30:00", isTimepoint: true),
        ])
    }

    @Test func byShapeDistanceWhenEveryStopInTheGapHasOne() throws {
        let result = try Self.load("""
            trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled
            T1,08:00:00,08:00:00,S1,1,0
            T1,,,S2,2,1.5
            T1,,,S3,3,4
            T1,08:10:00,08:10:00,S4,4,10.0
            """)
        #expect(try calls(result.timetable, "T1") == [
            Call(stop: "test:S1", sequence: 1, arrival: "08:00:00", departure: "08:00:00", isTimepoint: true),
            Call(stop: "test:S2", sequence: 2, arrival: "08:01:30", departure: "08:01:30", isTimepoint: false),
            Call(stop: "test:S3", sequence: 3, arrival: "08:04:00", departure: "08:04:00", isTimepoint: false),
            Call(stop: "test:S4", sequence: 4, arrival: "08:10:00", departure: "08:10:00", isTimepoint: true),
        ])
    }

    @Test func evenlyWhenAStopInTheGapHasNoDistance() throws {
        let result = try Self.load("""
            trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled
            T1,08:00:00,08:00:00,S1,1,0
            T1,,,S2,2,1.5
            T1,,,S3,3,
            T1,08:10:00,08:10:00,S4,4,10
            """)
        #expect(try calls(result.timetable, "T1").map(\.arrival) == ["08:00:00", "08:03:20", "08:06:40", "08:10:00"])
    }

    @Test func fromThePreviousDepartureNotItsArrival() throws {
        let result = try Self.load("""
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,08:00:00,08:02:00,S1,1
            T1,,,S2,2
            T1,08:12:00,08:13:00,S3,3
            """)
        #expect(try calls(result.timetable, "T1") == [
            Call(stop: "test:S1", sequence: 1, arrival: "08:00:00", departure: "08:02:00", isTimepoint: true),
            Call(stop: "test:S2", sequence: 2, arrival: "08:07:00", departure: "08:07:00", isTimepoint: false),
            Call(stop: "test:S3", sequence: 3, arrival: "08:12:00", departure: "08:13:00", isTimepoint: true),
        ])
    }

    @Test func severalGapsInOneTripWithUnsortedRows() throws {
        let result = try Self.load("""
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,,,S4,40
            T1,08:30:00,08:30:00,S5,50
            T1,08:00:00,08:00:00,S1,10
            T1,08:10:00,08:10:00,S3,30
            T1,,,S2,20
            """)
        #expect(try calls(result.timetable, "T1") == [
            Call(stop: "test:S1", sequence: 10, arrival: "08:00:00", departure: "08:00:00", isTimepoint: true),
            Call(stop: "test:S2", sequence: 20, arrival: "08:05:00", departure: "08:05:00", isTimepoint: false),
            Call(stop: "test:S3", sequence: 30, arrival: "08:10:00", departure: "08:10:00", isTimepoint: true),
            Call(stop: "test:S4", sequence: 40, arrival: "08:20:00", departure: "08:20:00", isTimepoint: false),
            Call(stop: "test:S5", sequence: 50, arrival: "08:30:00", departure: "08:30:00", isTimepoint: true),
        ])
    }

    @Test func roundsToTheNearestSecond() throws {
        let result = try Self.load("""
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,08:00:00,08:00:00,S1,1
            T1,,,S2,2
            T1,,,S3,3
            T1,08:00:10,08:00:10,S4,4
            """)
        // 10 s in thirds: 3.33 → 3, 6.67 → 7.
        #expect(try calls(result.timetable, "T1").map(\.arrival) == ["08:00:00", "08:00:03", "08:00:07", "08:00:10"])
    }

    @Test func timepointZeroKeepsGivenTimesButIsNotATimepoint() throws {
        let result = try Self.load("""
            trip_id,arrival_time,departure_time,stop_id,stop_sequence,timepoint
            T1,08:00:00,08:00:00,S1,1,1
            T1,08:04:00,08:04:00,S2,2,0
            T1,,,S3,3,0
            T1,08:10:00,08:10:00,S4,4,
            """)
        #expect(try calls(result.timetable, "T1") == [
            Call(stop: "test:S1", sequence: 1, arrival: "08:00:00", departure: "08:00:00", isTimepoint: true),
            Call(stop: "test:S2", sequence: 2, arrival: "08:04:00", departure: "08:04:00", isTimepoint: false),
            Call(stop: "test:S3", sequence: 3, arrival: "08:07:00", departure: "08:07:00", isTimepoint: false),
            Call(stop: "test:S4", sequence: 4, arrival: "08:10:00", departure: "08:10:00", isTimepoint: true),
        ])
    }

    @Test func aStopWithOnlyOneOfItsTimesIsNotInterpolated() throws {
        let result = try Self.load("""
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,,08:00:00,S1,1
            T1,08:05:00,,S2,2
            T1,08:10:00,08:10:00,S3,3
            """)
        #expect(try calls(result.timetable, "T1") == [
            Call(stop: "test:S1", sequence: 1, arrival: "08:00:00", departure: "08:00:00", isTimepoint: true),
            Call(stop: "test:S2", sequence: 2, arrival: "08:05:00", departure: "08:05:00", isTimepoint: true),
            Call(stop: "test:S3", sequence: 3, arrival: "08:10:00", departure: "08:10:00", isTimepoint: true),
        ])
    }
}
