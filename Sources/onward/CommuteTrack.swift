import Commute
import Foundation
import OnwardCore

/// Tracks for `commute`: read from JSON lines, or made up for a traveller who follows a journey on time.
enum CommuteTrack {
    private struct Line: Decodable {
        struct Beacon: Decodable { var uuid: String; var major: Int; var minor: Int }
        var at: String
        var lat: Double?
        var lon: Double?
        var accuracy: Double?
        var beacon: Beacon?
    }

    /// The events of a track file; a bad line is an error naming it.
    static func read(_ path: String, beacons: BeaconMap?) throws -> [CommuteEvent] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw CLIError("cannot read the track '\(path)'") }
        var events: [CommuteEvent] = []
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            func bad(_ why: String) -> CLIError { CLIError("\(path) line \(n + 1): \(why)") }
            guard let record = try? JSONDecoder().decode(Line.self, from: Data(line.utf8)) else {
                throw bad("not a JSON object with \"at\" and either \"lat\", \"lon\", \"accuracy\" or \"beacon\"")
            }
            guard let at = Instant(iso8601: record.at) else { throw bad("\"at\" is not an ISO 8601 time with its offset: \(record.at)") }
            if let b = record.beacon {
                guard let beacons else { throw bad("a beacon sighting needs --beacons FILE (beacons.csv)") }
                // A beacon the operator's file does not list says nothing about where the traveller is.
                if let stop = beacons.stop(uuid: b.uuid, major: b.major, minor: b.minor) { events.append(.beacon(at: at, stopID: stop)) }
            } else if let lat = record.lat, let lon = record.lon, (-90...90).contains(lat), (-180...180).contains(lon) {
                events.append(.position(at: at, latitude: lat, longitude: lon, accuracy: record.accuracy ?? 20))
            } else {
                throw bad("a position needs \"lat\" (-90…90) and \"lon\" (-180…180)")
            }
        }
        return events
    }

    static func beaconMap(_ path: String) throws -> BeaconMap {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw CLIError("cannot read the beacons file '\(path)'") }
        do { return try BeaconMap(csv: text) } catch { throw CLIError("\(path): \(error)") }
    }
}
