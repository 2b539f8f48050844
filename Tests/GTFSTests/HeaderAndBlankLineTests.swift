import GTFS
import OnwardTesting
import Testing
import Timetable

@Suite("Headers without rows, and lines of spaces")
struct HeaderAndBlankLineTests {
    @Test func aLineOfSpacesAndTabsIsBlank() throws {
        let rows = try parseCSV("a,b\n   \n\t\n1,2\n")
        #expect(rows.map(\.fields) == [["a", "b"], ["1", "2"]])
        #expect(rows.last?.line == 4)
    }

    @Test func stopsWithALineOfSpacesStillImport() throws {
        let result = try InlineFeed.load(BaseFeed.with(["stops.txt": BaseFeed.stops + "\n   \n"]))
        #expect(result.timetable.stopCount == 3)
    }

    @Test func headerOnlyFileMissingARequiredColumnIsRefused() throws {
        // routes.txt with a header and no rows: the missing route_type is still caught, on line 1.
        let error = try refusal(BaseFeed.with(["routes.txt": "route_id,route_short_name\n",
                                               "trips.txt": "route_id,service_id,trip_id\n",
                                               "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"]))
        #expect(error.code == "missingColumn")
        #expect(error.location.file == "routes.txt" && error.location.line == 1 && error.location.field == "route_type")
    }
}
