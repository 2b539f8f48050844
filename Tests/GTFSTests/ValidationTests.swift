import GTFS
import OnwardCore
import OnwardTesting
import Testing
import Timetable

/// Problems that make a feed unusable: the import is refused with a code and
/// the physical file, line (header = 1) and field.
@Suite("Feed validation")
struct ValidationTests {
    // MARK: Missing files and columns

    @Test(arguments: ["stops.txt", "routes.txt", "trips.txt", "stop_times.txt"])
    func missingRequiredFile(file: String) throws {
        try expectRefusal(BaseFeed.with(removing: [file]), code: "missingFile", file: file, line: nil, field: nil)
    }

    @Test func missingAgencyFile() throws {
        var files = InlineFeed.source(BaseFeed.files).files
        files["agency.txt"] = nil
        let error = try #require(throws: FeedError.self) {
            try GTFSImporter.load([InMemoryGTFSSource(name: "x", files: files)])
        }
        #expect(error.code == "missingFile")
        #expect(error.location == FeedLocation(file: "agency.txt"))
    }

    @Test func neitherCalendarNorCalendarDates() throws {
        try expectRefusal(BaseFeed.with(removing: ["calendar.txt"]), code: "missingFile", file: "calendar.txt", line: nil, field: nil)
    }

    @Test func emptyFileHasNoHeader() throws {
        try expectRefusal(BaseFeed.with(["routes.txt": ""]), code: "missingColumn", file: "routes.txt", line: 1, field: nil)
    }

    @Test func agencyFileWithNoAgency() throws {
        try expectRefusal(BaseFeed.with(["agency.txt": "agency_id,agency_name,agency_url,agency_timezone\n"]),
                          code: "missingFile", file: "agency.txt", line: 2, field: nil)
    }

    @Test func stopsWithoutStopID() throws {
        try expectRefusal(BaseFeed.with([
            "stops.txt": """
                stop_code,stop_name,stop_lat,stop_lon
                S1,One,40.0,-74.0
                """,
        ]), code: "missingColumn", file: "stops.txt", line: 1, field: "stop_id")
    }

    @Test func tripsWithoutServiceID() throws {
        try expectRefusal(BaseFeed.with([
            "trips.txt": """
                route_id,trip_id
                R1,T1
                """,
        ]), code: "missingColumn", file: "trips.txt", line: 1, field: "service_id")
    }

    @Test func routesWithoutRouteType() throws {
        try expectRefusal(BaseFeed.with([
            "routes.txt": """
                route_id,route_short_name
                R1,1
                """,
        ]), code: "missingColumn", file: "routes.txt", line: 1, field: "route_type")
    }

    @Test func stopTimesWithoutStopSequence() throws {
        try expectRefusal(BaseFeed.with([
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id
                T1,08:00:00,08:00:00,S1
                """,
        ]), code: "missingColumn", file: "stop_times.txt", line: 1, field: "stop_sequence")
    }

    @Test func stopTimesWithoutAnyTimeColumn() throws {
        try expectRefusal(BaseFeed.with([
            "stop_times.txt": """
                trip_id,stop_id,stop_sequence
                T1,S1,1
                """,
        ]), code: "missingColumn", file: "stop_times.txt", line: 1, field: "arrival_time")
    }

    @Test func calendarWithoutSunday() throws {
        try expectRefusal(BaseFeed.with([
            "calendar.txt": """
                service_id,monday,tuesday,wednesday,thursday,friday,saturday,start_date,end_date
                WK,1,1,1,1,1,0,20250101,20251231
                """,
        ]), code: "missingColumn", file: "calendar.txt", line: 1, field: "sunday")
    }

    // MARK: Duplicate keys

    @Test func duplicateStopID() throws {
        try expectRefusal(BaseFeed.with([
            "stops.txt": """
                stop_id,stop_name,stop_lat,stop_lon
                S1,One,40.0,-74.0
                S2,Two,40.1,-74.1
                S1,Again,40.2,-74.2
                S3,Three,40.2,-74.2
                """,
        ]), code: "duplicateKey", file: "stops.txt", line: 4, field: "stop_id")
    }

    @Test func duplicateTripID() throws {
        try expectRefusal(BaseFeed.with([
            "trips.txt": """
                route_id,service_id,trip_id
                R1,WK,T1
                R1,WK,T2
                R1,WK,T3
                R1,WK,T2
                """,
        ]), code: "duplicateKey", file: "trips.txt", line: 5, field: "trip_id")
    }

    @Test func duplicateRouteID() throws {
        try expectRefusal(BaseFeed.with([
            "routes.txt": """
                route_id,route_short_name,route_type
                R1,1,3
                R1,1X,3
                """,
        ]), code: "duplicateKey", file: "routes.txt", line: 3, field: "route_id")
    }

    @Test func duplicateServiceInCalendar() throws {
        try expectRefusal(BaseFeed.with([
            "calendar.txt": """
                service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
                WK,1,1,1,1,1,0,0,20250101,20251231
                WE,0,0,0,0,0,1,1,20250101,20251231
                WK,1,1,1,1,1,0,0,20260101,20261231
                """,
        ]), code: "duplicateKey", file: "calendar.txt", line: 4, field: "service_id")
    }

    @Test func duplicateCalendarDate() throws {
        try expectRefusal(BaseFeed.with([
            "calendar_dates.txt": """
                service_id,date,exception_type
                WK,20250106,2
                WK,20250107,2
                WK,20250106,1
                """,
        ]), code: "duplicateKey", file: "calendar_dates.txt", line: 4, field: "date")
    }

    @Test func duplicateStopSequenceInATrip() throws {
        try expectRefusal(BaseFeed.with([
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T1,08:00:00,08:00:00,S1,1
                T1,08:10:00,08:11:00,S2,2
                T1,08:20:00,08:20:00,S3,2
                T2,09:00:00,09:00:00,S1,1
                T2,09:10:00,09:10:00,S2,2
                """,
        ]), code: "duplicateKey", file: "stop_times.txt", line: 4, field: "stop_sequence")
    }

    @Test func duplicateStopSequenceInAnUnsortedInterleavedTrip() throws {
        // T1's sequence 3 appears on lines 2 and 6: the second occurrence is the one named.
        let error = try refusal(BaseFeed.with([
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T1,08:20:00,08:20:00,S3,3
                T2,09:00:00,09:00:00,S1,1
                T1,08:00:00,08:00:00,S1,1
                T2,09:10:00,09:10:00,S2,2
                T1,08:10:00,08:10:00,S2,3
                """,
        ]))
        #expect(error.code == "duplicateKey")
        #expect(error.location.file == "stop_times.txt")
        #expect(error.location.field == "stop_sequence")
        #expect(error.location.line == 6, "\(error)")
        #expect(error.message.contains("T1"))
    }

    // MARK: Unknown references

    @Test func unknownStopInStopTimes() throws {
        try expectRefusal(BaseFeed.with([
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T1,08:00:00,08:00:00,S1,1
                T1,08:10:00,08:11:00,S2,2
                T1,08:20:00,08:20:00,S9,3
                """,
        ]), code: "unknownReference", file: "stop_times.txt", line: 4, field: "stop_id")
    }

    @Test func unknownTripInStopTimes() throws {
        try expectRefusal(BaseFeed.with([
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T1,08:00:00,08:00:00,S1,1
                T1,08:10:00,08:11:00,S2,2
                TX,08:20:00,08:20:00,S3,3
                """,
        ]), code: "unknownReference", file: "stop_times.txt", line: 4, field: "trip_id")
    }

    @Test func unknownRouteInTrips() throws {
        try expectRefusal(BaseFeed.with([
            "trips.txt": """
                route_id,service_id,trip_id
                R1,WK,T1
                R2,WK,T2
                """,
        ]), code: "unknownReference", file: "trips.txt", line: 3, field: "route_id")
    }

    @Test func unknownServiceInTrips() throws {
        try expectRefusal(BaseFeed.with([
            "trips.txt": """
                route_id,service_id,trip_id
                R1,SUNDAY,T1
                R1,WK,T2
                """,
        ]), code: "unknownReference", file: "trips.txt", line: 2, field: "service_id")
    }

    @Test func unknownParentStation() throws {
        try expectRefusal(BaseFeed.with([
            "stops.txt": """
                stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
                P,Station,40.0,-74.0,1,
                S1,One,40.0,-74.0,0,P
                S2,Two,40.1,-74.1,0,NOPE
                S3,Three,40.2,-74.2,0,
                """,
        ]), code: "unknownReference", file: "stops.txt", line: 4, field: "parent_station")
    }

    @Test func parentStationMayComeLaterInTheFile() throws {
        let tt = try InlineFeed.load(BaseFeed.with([
            "stops.txt": """
                stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
                S1,One,40.0,-74.0,0,P
                S2,Two,40.1,-74.1,,
                S3,Three,40.2,-74.2,0,P
                P,Station,40.0,-74.0,1,
                """,
        ])).timetable
        #expect(tt.place(try #require(tt.stop(id: "S1"))).parentID == "test:P")
        #expect(tt.place(try #require(tt.stop(id: "S2"))).parentID == nil)
        #expect(tt.place(try #require(tt.stop(id: "P"))).kind == .station)
    }

    @Test func unknownAgencyInRoutes() throws {
        try expectRefusal(BaseFeed.with([
            "routes.txt": """
                route_id,agency_id,route_short_name,route_type
                R1,B,1,3
                """,
        ]), code: "unknownReference", file: "routes.txt", line: 2, field: "agency_id")
    }

    @Test func unknownStopInTransfers() throws {
        try expectRefusal(BaseFeed.with([
            "transfers.txt": """
                from_stop_id,to_stop_id,transfer_type
                S1,S2,0
                S2,S7,2
                """,
        ]), code: "unknownReference", file: "transfers.txt", line: 3, field: "to_stop_id")
    }

    // MARK: Invalid values

    @Test(arguments: [("25:61:00", "arrival_time"), ("abc", "arrival_time"), ("08:00", "arrival_time"),
                      ("08:00:60", "departure_time"), ("8h00", "departure_time"), ("-1:00:00", "departure_time")])
    func invalidTime(value: String, field: String) throws {
        let arrival = field == "arrival_time" ? value : "08:10:00"
        let departure = field == "departure_time" ? value : "08:11:00"
        try expectRefusal(BaseFeed.with([
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T1,08:00:00,08:00:00,S1,1

                T1,\(arrival),\(departure),S2,2
                T1,08:20:00,08:20:00,S3,3
                """,
        ]), code: "invalidValue", file: "stop_times.txt", line: 4, field: field)
    }

    @Test(arguments: ["20250230", "2025-01-01", "2025011", "20251301", "abcdefgh"])
    func invalidDateInCalendar(value: String) throws {
        try expectRefusal(BaseFeed.with([
            "calendar.txt": """
                service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
                WE,0,0,0,0,0,1,1,20250101,20251231
                WK,1,1,1,1,1,0,0,\(value),20251231
                """,
        ]), code: "invalidValue", file: "calendar.txt", line: 3, field: "start_date")
    }

    @Test func invalidDateInCalendarDates() throws {
        try expectRefusal(BaseFeed.with([
            "calendar_dates.txt": """
                service_id,date,exception_type
                WK,20250230,1
                """,
        ]), code: "invalidValue", file: "calendar_dates.txt", line: 2, field: "date")
    }

    @Test func calendarEndBeforeStart() throws {
        try expectRefusal(BaseFeed.with([
            "calendar.txt": """
                service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
                WK,1,1,1,1,1,0,0,20251231,20250101
                """,
        ]), code: "invalidValue", file: "calendar.txt", line: 2, field: "end_date")
    }

    @Test func calendarWeekdayNotZeroOrOne() throws {
        try expectRefusal(BaseFeed.with([
            "calendar.txt": """
                service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
                WK,1,1,yes,1,1,0,0,20250101,20251231
                """,
        ]), code: "invalidValue", file: "calendar.txt", line: 2, field: "wednesday")
    }

    @Test func invalidExceptionType() throws {
        try expectRefusal(BaseFeed.with([
            "calendar_dates.txt": """
                service_id,date,exception_type
                WK,20250106,3
                """,
        ]), code: "invalidValue", file: "calendar_dates.txt", line: 2, field: "exception_type")
    }

    @Test func invalidTimeZoneInAgency() throws {
        try expectRefusal(BaseFeed.with([
            "agency.txt": """
                agency_id,agency_name,agency_url,agency_timezone
                A,Test Transit,https://example.org,Mars/Olympus_Mons
                """,
        ]), code: "invalidValue", file: "agency.txt", line: 2, field: "agency_timezone")
    }

    @Test func invalidTimeZoneInStops() throws {
        try expectRefusal(BaseFeed.with([
            "stops.txt": """
                stop_id,stop_name,stop_lat,stop_lon,stop_timezone
                S1,One,40.0,-74.0,America/Chicago
                S2,Two,40.1,-74.1,
                S3,Three,40.2,-74.2,Europe/Atlantis
                """,
        ]), code: "invalidValue", file: "stops.txt", line: 4, field: "stop_timezone")
    }

    @Test func validStopTimeZoneIsUsedForThatStop() throws {
        let tt = try InlineFeed.load(BaseFeed.with([
            "stops.txt": """
                stop_id,stop_name,stop_lat,stop_lon,stop_timezone
                S1,One,40.0,-74.0,America/Chicago
                S2,Two,40.1,-74.1,
                S3,Three,40.2,-74.2,
                """,
        ])).timetable
        #expect(tt.timeZoneIdentifier(of: try #require(tt.stop(id: "S1"))) == "America/Chicago")
        #expect(tt.timeZoneIdentifier(of: try #require(tt.stop(id: "S2"))) == "America/New_York")
    }

    @Test(arguments: [("north", "stop_lat"), ("91", "stop_lat"), ("", "stop_lat"), ("40,5", "stop_lat")])
    func invalidLatitude(value: String, field: String) throws {
        let quoted = value.contains(",") ? "\"\(value)\"" : value
        try expectRefusal(BaseFeed.with([
            "stops.txt": """
                stop_id,stop_name,stop_lat,stop_lon
                S1,One,40.0,-74.0
                S2,Two,\(quoted),-74.1
                S3,Three,40.2,-74.2
                """,
        ]), code: "invalidValue", file: "stops.txt", line: 3, field: field)
    }

    @Test func invalidLongitude() throws {
        try expectRefusal(BaseFeed.with([
            "stops.txt": """
                stop_id,stop_name,stop_lat,stop_lon
                S1,One,40.0,-74.0
                S2,Two,40.1,-181
                """,
        ]), code: "invalidValue", file: "stops.txt", line: 3, field: "stop_lon")
    }

    @Test func genericNodesNeedNoCoordinates() throws {
        let tt = try InlineFeed.load(BaseFeed.with([
            "stops.txt": """
                stop_id,stop_name,stop_lat,stop_lon,location_type
                S1,One,40.0,-74.0,0
                S2,Two,40.1,-74.1,0
                S3,Three,40.2,-74.2,
                N1,Node,,,3
                """,
        ])).timetable
        #expect(tt.stopCount == 4)
        #expect(tt.stop(id: "N1") != nil)
    }

    @Test func invalidLocationType() throws {
        try expectRefusal(BaseFeed.with([
            "stops.txt": """
                stop_id,stop_name,stop_lat,stop_lon,location_type
                S1,One,40.0,-74.0,7
                """,
        ]), code: "invalidValue", file: "stops.txt", line: 2, field: "location_type")
    }

    @Test func invalidStopSequence() throws {
        try expectRefusal(BaseFeed.with([
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T1,08:00:00,08:00:00,S1,1
                T1,08:10:00,08:11:00,S2,-2
                """,
        ]), code: "invalidValue", file: "stop_times.txt", line: 3, field: "stop_sequence")
    }

    @Test func invalidPickupType() throws {
        try expectRefusal(BaseFeed.with([
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type
                T1,08:00:00,08:00:00,S1,1,4
                """,
        ]), code: "invalidValue", file: "stop_times.txt", line: 2, field: "pickup_type")
    }

    @Test func invalidRouteType() throws {
        try expectRefusal(BaseFeed.with([
            "routes.txt": """
                route_id,route_short_name,route_type
                R1,1,bus
                """,
        ]), code: "invalidValue", file: "routes.txt", line: 2, field: "route_type")
    }

    @Test func invalidDirection() throws {
        try expectRefusal(BaseFeed.with([
            "trips.txt": """
                route_id,service_id,trip_id,direction_id
                R1,WK,T1,0
                R1,WK,T2,2
                """,
        ]), code: "invalidValue", file: "trips.txt", line: 3, field: "direction_id")
    }

    @Test func emptyStopID() throws {
        try expectRefusal(BaseFeed.with([
            "stops.txt": """
                stop_id,stop_name,stop_lat,stop_lon
                S1,One,40.0,-74.0
                "  ",Blank,40.1,-74.1
                """,
        ]), code: "invalidValue", file: "stops.txt", line: 3, field: "stop_id")
    }

    // MARK: Line numbers are physical lines

    @Test func lineNumbersCountBlankLinesAndMultilineFields() throws {
        // Line 2–3 hold one quoted record, line 4 is blank, the duplicate is on line 6.
        try expectRefusal(BaseFeed.with([
            "stops.txt": """
                stop_id,stop_name,stop_lat,stop_lon
                S1,"One
                and a half",40.0,-74.0

                S2,Two,40.1,-74.1
                S2,Again,40.2,-74.2
                """,
        ]), code: "duplicateKey", file: "stops.txt", line: 6, field: "stop_id")
    }

    @Test func lineNumbersIgnoreTheByteOrderMarkAndCRLF() throws {
        var files = InlineFeed.source(BaseFeed.files).files
        files["stops.txt"] = "\u{FEFF}stop_id,stop_name,stop_lat,stop_lon\r\nS1,One,40.0,-74.0\r\n\r\nS2,Two,north,-74.1\r\n"
        let error = try #require(throws: FeedError.self) { try GTFSImporter.load([InMemoryGTFSSource(name: "x", files: files)]) }
        #expect(error.code == "invalidValue")
        #expect(error.location == FeedLocation(file: "stops.txt", line: 4, field: "stop_lat"))
    }

    @Test func malformedCSVNamesFileAndLine() throws {
        try expectRefusal(BaseFeed.with([
            "routes.txt": """
                route_id,route_short_name,route_type
                R1,1,3
                R2,"2 Express"x,3
                """,
        ]), code: "malformedCSV", file: "routes.txt", line: 3, field: nil)
    }

    @Test func unterminatedQuoteInAFeedNamesTheLineWhereItOpens() throws {
        try expectRefusal(BaseFeed.with([
            "stops.txt": """
                stop_id,stop_name,stop_lat,stop_lon
                S1,One,40.0,-74.0
                S2,"Two,40.1,-74.1
                S3,Three,40.2,-74.2
                """,
        ]), code: "malformedCSV", file: "stops.txt", line: 3, field: nil)
    }

    @Test func errorDescriptionNamesFileLineAndField() throws {
        let error = try refusal(BaseFeed.with([
            "routes.txt": """
                route_id,route_short_name,route_type
                R1,1,3
                R1,1X,3
                """,
        ]))
        #expect(error.description.hasPrefix("routes.txt:3 (route_id): "))
        #expect(error.message.contains("R1"))
    }
}
