import Foundation
import GTFS
import OnwardCore
import OnwardTesting
import Testing
import Timetable

/// A small valid feed: three stops, one route, weekday service through 2025,
/// two trips S1 → S2 → S3. Tests replace or remove files to break it.
enum BaseFeed {
    static let stops = """
        stop_id,stop_name,stop_lat,stop_lon
        S1,One,40.0,-74.0
        S2,Two,40.1,-74.1
        S3,Three,40.2,-74.2
        """
    static let routes = """
        route_id,route_short_name,route_type
        R1,1,3
        """
    static let calendar = """
        service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
        WK,1,1,1,1,1,0,0,20250101,20251231
        """
    static let trips = """
        route_id,service_id,trip_id
        R1,WK,T1
        R1,WK,T2
        """
    static let stopTimes = """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        T1,08:00:00,08:00:00,S1,1
        T1,08:10:00,08:11:00,S2,2
        T1,08:20:00,08:20:00,S3,3
        T2,09:00:00,09:00:00,S1,1
        T2,09:10:00,09:10:00,S2,2
        T2,09:20:00,09:20:00,S3,3
        """

    static let files: [String: String] = [
        "stops.txt": stops, "routes.txt": routes, "calendar.txt": calendar,
        "trips.txt": trips, "stop_times.txt": stopTimes,
    ]

    /// The base feed with some files replaced and some removed.
    static func with(_ replaced: [String: String] = [:], removing: [String] = []) -> [String: String] {
        var f = files.merging(replaced) { _, new in new }
        for r in removing { f[r] = nil }
        return f
    }
}

/// A Monday inside the base feed's calendar.
let monday = ServiceDate(iso: "2025-01-06")!
let newYork = TimeZone(identifier: "America/New_York")!

/// Loads an inline feed that must be refused, and returns the error.
func refusal(_ files: [String: String], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> FeedError {
    try #require(throws: FeedError.self, sourceLocation: sourceLocation) { try InlineFeed.load(files) }
}

/// Asserts an import is refused with exactly this code and location.
func expectRefusal(_ files: [String: String], code: String, file: String, line: Int?, field: String?,
                   sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
    let error = try refusal(files, sourceLocation: sourceLocation)
    #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    #expect(error.location == FeedLocation(file: file, line: line, field: field), "\(error)", sourceLocation: sourceLocation)
    #expect(!error.message.isEmpty, sourceLocation: sourceLocation)
}

/// The calling points of a trip on a date, as (stop, sequence, arrival, departure) in local time.
struct Call: Equatable, CustomStringConvertible {
    var stop: String
    var sequence: Int
    var arrival: String
    var departure: String
    var isTimepoint: Bool = true

    var description: String { "\(stop)#\(sequence) \(arrival)/\(departure)\(isTimepoint ? "" : " ~")" }
}

func calls(_ tt: Timetable, _ trip: String, on date: ServiceDate = monday, zone: TimeZone = newYork,
           sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [Call] {
    let index = try #require(tt.trip(id: trip), "no trip \(trip)", sourceLocation: sourceLocation)
    let details = try tt.service(index, on: date)
    return details.calls.map { c in
        Call(stop: c.stopID, sequence: c.stopSequence,
             arrival: LocalTime(c.scheduledArrival, in: zone).hhmmss,
             departure: LocalTime(c.scheduledDeparture, in: zone).hhmmss,
             isTimepoint: c.isTimepoint)
    }
}

/// Bytes as a `String` without any normalisation (BOM and CRLF kept).
func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

let defaultAgency = "agency_id,agency_name,agency_url,agency_timezone\nA,Test Transit,https://example.org,America/New_York\n"
