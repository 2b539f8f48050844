/// How a realtime feed matched the static timetable: everything unmatched is
/// counted and reported, never fatal.
public struct RealtimeMatchReport: Sendable, Hashable, Codable {
    public var entities = 0
    public var tripUpdates = 0
    public var matchedTrips = 0
    public var unknownTrips = 0
    /// Trips whose service day or frequency run could not be found.
    public var unmatchedInstances = 0
    public var cancelledTrips = 0
    public var addedTrips = 0
    public var stopTimeUpdates = 0
    public var matchedStopTimeUpdates = 0
    public var unknownStops = 0
    public var skippedStops = 0
    public var noDataStops = 0
    public var platformChanges = 0
    /// Updates whose stop_sequence named a call at another stop than their stop_id; matched by stop_id.
    public var sequenceStopMismatches = 0
    public var vehiclePositions = 0
    public var matchedVehicles = 0
    public var unknownVehicleTrips = 0
    /// Up to a few examples of what did not match, for `onward rt inspect`.
    public var unknownTripExamples: [String] = []
    public var unknownStopExamples: [String] = []
    /// Why the whole message was ignored, if it was (e.g. its timestamp went backwards).
    public var ignoredBecause: String?

    public init() {}

    mutating func noteUnknownTrip(_ id: String) {
        unknownTrips += 1
        if unknownTripExamples.count < 5 { unknownTripExamples.append(id) }
    }

    mutating func noteUnknownStop(_ id: String) {
        unknownStops += 1
        if unknownStopExamples.count < 5 && !unknownStopExamples.contains(id) { unknownStopExamples.append(id) }
    }
}
