import Foundation
import OnwardCore

/// What the traveller's device (or the clock) tells the commute engine.
public enum CommuteEvent: Sendable, Hashable {
    /// A position from the browser (or a track), with its accuracy radius in metres.
    case position(at: Instant, latitude: Double, longitude: Double, accuracy: Double)
    /// A Bluetooth beacon sighting, already mapped to its stop (`BeaconMap`).
    case beacon(at: Instant, stopID: String)
    /// Time passing: the moment the engine asked to be woken at (`nextDeadline`).
    case tick(Instant)
    /// New live times for the journey being made, or a new journey after a re-plan.
    case journey(Journey, at: Instant)

    public var at: Instant {
        switch self {
        case .position(let at, _, _, _), .beacon(let at, _), .tick(let at), .journey(_, let at): at
        }
    }
}

/// One nudge to the traveller.
public struct CommuteAlert: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// Near a station, before the journey starts (opt-in).
        case nearStation
        /// The vehicle to board is arriving at the departure station.
        case vehicleArriving
        /// Arriving at the station where the traveller changes.
        case arrivingAtTransfer
        /// Arriving at the destination: time to get up.
        case arrivingAtDestination
        /// The change was missed: the journey is planned again from where the traveller is.
        case missedConnection
        /// A ride still to come was cancelled: the journey is planned again from where it would have been boarded.
        case tripCancelled
    }

    /// What an alert's moment was judged from.
    public enum Basis: String, Sendable, Hashable, Codable, CaseIterable {
        /// The vehicle's live times (a realtime source).
        case liveTimes
        /// The timetable: no live times, and no position said otherwise.
        case timetable
        /// The traveller's positions (fixes, or the delay they showed).
        case position
        /// A beacon sighting.
        case beacon
    }

    public var at: Instant
    public var kind: Kind
    public var stopID: String
    public var stopName: String
    public var message: String
    /// Nil in alerts kept before bases were recorded.
    public var basis: Basis?

    public init(at: Instant, kind: Kind, stopID: String, stopName: String, message: String, basis: Basis? = nil) {
        self.at = at; self.kind = kind; self.stopID = stopID; self.stopName = stopName; self.message = message; self.basis = basis
    }
}

/// How the engine judges positions and times.
public struct CommuteSettings: Sendable, Hashable, Codable {
    /// Within this many metres of a stop counts as at it.
    public var radius: Double = 150
    /// A position less precise than this (metres) is ignored.
    public var worstAccuracy: Double = 300
    /// A position implying a faster move than this (metres per second) from the last one is a
    /// GPS jump, believed only when the next position agrees with it. The limit of a ride whose
    /// mode (route type) is known is that mode's (`TravelSpeed`); on foot, walking pace.
    public var fastestMove: Double = 90
    /// How long before the vehicle leaves the departure station to say it is arriving.
    public var vehicleLeadSeconds = 120
    /// How long past the connecting vehicle's departure a traveller still at the change is taken to have missed it.
    public var missedGraceSeconds = 60
    /// Whether to say "near a station" before the journey starts.
    public var nearStation = false

    public init() {}
}

/// Beacons (`beacons.csv`: `uuid,major,minor,stop_id`) mapped to stops.
public struct BeaconMap: Sendable, Hashable {
    public struct Key: Sendable, Hashable {
        public var uuid: String
        public var major: Int
        public var minor: Int

        public init(uuid: String, major: Int, minor: Int) { self.uuid = uuid.lowercased(); self.major = major; self.minor = minor }
    }

    public private(set) var stops: [Key: String] = [:]

    public init() {}

    /// Reads the operator's file; a bad line is an error naming the line.
    public init(csv text: String) throws(BeaconMapError) {
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let header = lines.first, header.lowercased().replacingOccurrences(of: " ", with: "") == "uuid,major,minor,stop_id" else {
            throw BeaconMapError(line: 1, reason: "the header must be uuid,major,minor,stop_id")
        }
        lines.removeFirst()
        for (i, line) in lines.enumerated() where !line.isEmpty {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard f.count == 4, !f[0].isEmpty, let major = Int(f[1]), let minor = Int(f[2]), !f[3].isEmpty else {
                throw BeaconMapError(line: i + 2, reason: "expected uuid,major,minor,stop_id with whole-number major and minor")
            }
            stops[Key(uuid: f[0], major: major, minor: minor)] = f[3]
        }
    }

    public func stop(uuid: String, major: Int, minor: Int) -> String? { stops[Key(uuid: uuid, major: major, minor: minor)] }
}

public struct BeaconMapError: Error, Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var reason: String
    public var description: String { "beacons.csv line \(line): \(reason)" }

    public init(line: Int, reason: String) { self.line = line; self.reason = reason }
}

extension BeaconMap {
    /// The same beacons with each stop ID rewritten (to the full ID the server uses); an error stops it.
    public func resolvingStops(_ resolve: (String) throws -> String) rethrows -> BeaconMap {
        var copy = self
        for (key, stop) in stops { copy.stops[key] = try resolve(stop) }
        return copy
    }
}
