import API
import Commute
import Foundation
import OnwardCore

extension CommuteDriver {
    /// A recorded track: JSON lines, each a sighting as the API takes one (`{"at", "lat", "lon", "accuracy"}`
    /// or `{"at", "beacon": {"uuid", "major", "minor"}}`) with its time. Checked as the API checks a
    /// sighting; a bad line is refused naming `name` and the line. Beacons the operator's file does not
    /// list are left out, as the server leaves them out.
    public static func track(jsonLines text: String, name: String, beacons: BeaconMap?) throws(ServiceError) -> [CommuteEvent] {
        var events: [CommuteEvent] = []
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            func bad(_ why: String) -> ServiceError { ServiceError(.invalidParameter, "\(name) line \(n + 1): \(why)", parameter: "track") }
            guard let sighting = try? JSONDecoder().decode(CommuteSightingDTO.self, from: Data(line.utf8)) else {
                throw bad("not a JSON object with \"at\" and either \"lat\", \"lon\", \"accuracy\" or \"beacon\"")
            }
            guard let text = sighting.at else { throw bad("\"at\" is missing: a track's sightings say when they were taken") }
            guard let at = Instant(iso8601: text) else { throw bad("\"at\" is not an ISO 8601 time with its offset: \(text)") }
            do throws(ServiceError) { try check(sighting) } catch { throw bad(error.message) }
            if sighting.beacon != nil && beacons == nil { throw bad("a beacon sighting needs the operator's beacons (beacons.csv)") }
            if let event = event(sighting, at: at, beacons: beacons ?? BeaconMap()) { events.append(event) }
        }
        return events
    }
}
