import Foundation

/// The answer of `onward rt inspect --json`: one GTFS-Realtime message in
/// readable form, and how its IDs matched the static timetable. The CLI's text
/// output is rendered from the same value, so the two always agree.
public struct RealtimeInspectDTO: Codable, Sendable, Equatable {
    public struct Header: Codable, Sendable, Equatable {
        public var gtfsRealtimeVersion: String
        /// "fullDataset" or "differential".
        public var incrementality: String
        /// ISO 8601 in UTC; absent when the feed gives none.
        public var timestamp: String?
        /// The same instant in the inspection's `timeZone`.
        public var localTimestamp: String?
        /// Seconds from the timestamp to the moment of inspection.
        public var ageSeconds: Int?

        public init(gtfsRealtimeVersion: String, incrementality: String, timestamp: String?, localTimestamp: String?, ageSeconds: Int?) {
            self.gtfsRealtimeVersion = gtfsRealtimeVersion; self.incrementality = incrementality
            self.timestamp = timestamp; self.localTimestamp = localTimestamp; self.ageSeconds = ageSeconds
        }
    }

    /// Entities by kind. An entity marked is_deleted counts in its kind and in `deleted`.
    public struct Counts: Codable, Sendable, Equatable {
        public var entities: Int
        public var tripUpdates: Int
        public var vehiclePositions: Int
        public var alerts: Int
        public var deleted: Int

        public init(entities: Int, tripUpdates: Int, vehiclePositions: Int, alerts: Int, deleted: Int) {
            self.entities = entities; self.tripUpdates = tripUpdates; self.vehiclePositions = vehiclePositions
            self.alerts = alerts; self.deleted = deleted
        }
    }

    public struct StopTimeUpdate: Codable, Sendable, Equatable {
        public var stopId: String?
        public var stopSequence: Int?
        /// "scheduled", "skipped", "noData", …
        public var scheduleRelationship: String
        /// ISO 8601 in `timeZone`.
        public var arrival: String?
        public var departure: String?
        public var arrivalDelaySeconds: Int?
        public var departureDelaySeconds: Int?

        public init(stopId: String?, stopSequence: Int?, scheduleRelationship: String, arrival: String?, departure: String?,
                    arrivalDelaySeconds: Int?, departureDelaySeconds: Int?) {
            self.stopId = stopId; self.stopSequence = stopSequence; self.scheduleRelationship = scheduleRelationship
            self.arrival = arrival; self.departure = departure
            self.arrivalDelaySeconds = arrivalDelaySeconds; self.departureDelaySeconds = departureDelaySeconds
        }
    }

    public struct TripUpdate: Codable, Sendable, Equatable {
        public var entityId: String
        public var deleted: Bool?
        public var tripId: String?
        public var routeId: String?
        /// YYYYMMDD, as the feed gives it.
        public var startDate: String?
        public var startTime: String?
        /// "scheduled", "added", "canceled", …
        public var scheduleRelationship: String
        public var vehicleId: String?
        public var stopTimeUpdateCount: Int
        public var firstStopTimeUpdate: StopTimeUpdate?

        public init(entityId: String, deleted: Bool?, tripId: String?, routeId: String?, startDate: String?, startTime: String?,
                    scheduleRelationship: String, vehicleId: String?, stopTimeUpdateCount: Int, firstStopTimeUpdate: StopTimeUpdate?) {
            self.entityId = entityId; self.deleted = deleted; self.tripId = tripId; self.routeId = routeId
            self.startDate = startDate; self.startTime = startTime; self.scheduleRelationship = scheduleRelationship
            self.vehicleId = vehicleId; self.stopTimeUpdateCount = stopTimeUpdateCount; self.firstStopTimeUpdate = firstStopTimeUpdate
        }
    }

    public struct VehiclePosition: Codable, Sendable, Equatable {
        public var entityId: String
        public var deleted: Bool?
        public var vehicleId: String?
        public var label: String?
        public var tripId: String?
        public var routeId: String?
        public var latitude: Double?
        public var longitude: Double?
        /// "incomingAt", "stoppedAt" or "inTransitTo", relative to the stop.
        public var currentStatus: String?
        public var stopId: String?
        public var stopSequence: Int?
        /// ISO 8601 in `timeZone`.
        public var timestamp: String?

        public init(entityId: String, deleted: Bool?, vehicleId: String?, label: String?, tripId: String?, routeId: String?,
                    latitude: Double?, longitude: Double?, currentStatus: String?, stopId: String?, stopSequence: Int?, timestamp: String?) {
            self.entityId = entityId; self.deleted = deleted; self.vehicleId = vehicleId; self.label = label
            self.tripId = tripId; self.routeId = routeId; self.latitude = latitude; self.longitude = longitude
            self.currentStatus = currentStatus; self.stopId = stopId; self.stopSequence = stopSequence; self.timestamp = timestamp
        }
    }

    public struct AlertSummary: Codable, Sendable, Equatable {
        public var entityId: String
        /// `Alert.Effect`, `Alert.Severity` and `Alert.Cause` raw values, as in `AlertDTO`.
        public var effect: String
        public var severity: String
        public var cause: String
        public var header: String?
        public var informedEntities: [AlertDTO.EntityDTO]

        public init(entityId: String, effect: String, severity: String, cause: String, header: String?,
                    informedEntities: [AlertDTO.EntityDTO]) {
            self.entityId = entityId; self.effect = effect; self.severity = severity; self.cause = cause
            self.header = header; self.informedEntities = informedEntities
        }
    }

    /// How many of something matched the static feed, with some of the IDs that did not.
    public struct Tally: Codable, Sendable, Equatable {
        public var matched: Int
        public var unknown: Int
        /// Up to ten distinct unknown IDs, in feed order.
        public var unknownIds: [String]

        public init(matched: Int, unknown: Int, unknownIds: [String]) {
            self.matched = matched; self.unknown = unknown; self.unknownIds = unknownIds
        }
    }

    /// The message against the static timetable, as boards and services would use it.
    public struct Match: Codable, Sendable, Equatable {
        /// Trip updates (counted per update) whose trip is in the static feed and runs on its start date.
        public var trips: Tally
        /// Trip updates whose trip is known but does not run on the date they name.
        public var tripsNotRunning: Int
        public var cancelledTrips: Int
        /// ADDED or NEW trips that could be placed (two or more timed updates at known stops).
        public var addedTrips: Int
        /// Stop time updates applied to a call; unknown ones name a stop or stop_sequence the trip does not have.
        /// The rest belong to cancelled or unknown trips.
        public var stopTimeUpdates: Tally
        public var stopTimeUpdateTotal: Int
        public var skippedStops: Int
        public var noDataStops: Int
        /// Vehicle positions whose trip is in the static feed and runs that day.
        public var vehicles: Tally
        /// Distinct route_ids named by trip descriptors and alerts' informed entities.
        public var routes: Tally
        /// Distinct stop_ids and trip_ids named by alerts' informed entities.
        public var alertStops: Tally
        public var alertTrips: Tally

        public init(trips: Tally, tripsNotRunning: Int, cancelledTrips: Int, addedTrips: Int, stopTimeUpdates: Tally,
                    stopTimeUpdateTotal: Int, skippedStops: Int, noDataStops: Int, vehicles: Tally, routes: Tally,
                    alertStops: Tally, alertTrips: Tally) {
            self.trips = trips; self.tripsNotRunning = tripsNotRunning; self.cancelledTrips = cancelledTrips
            self.addedTrips = addedTrips; self.stopTimeUpdates = stopTimeUpdates; self.stopTimeUpdateTotal = stopTimeUpdateTotal
            self.skippedStops = skippedStops; self.noDataStops = noDataStops; self.vehicles = vehicles; self.routes = routes
            self.alertStops = alertStops; self.alertTrips = alertTrips
        }
    }

    /// The file or URL read.
    public var source: String
    public var sizeBytes: Int
    /// The static feed the IDs were matched against (`NAME=` before the input, else the first
    /// feed loaded), its name as the one element: the feed's bare IDs take `NAME:`.
    public var staticFeeds: [String]
    /// The other static feeds loaded, when there are any (the feed was not matched against them).
    public var otherFeeds: [String]?
    /// The zone entity times are written in: the static feed's first agency's.
    public var timeZone: String
    public var header: Header
    public var counts: Counts
    /// The first entities of each kind (`--limit`), in feed order.
    public var tripUpdates: [TripUpdate]
    public var vehiclePositions: [VehiclePosition]
    public var alerts: [AlertSummary]
    public var match: Match

    public init(source: String, sizeBytes: Int, staticFeeds: [String], timeZone: String, header: Header, counts: Counts,
                tripUpdates: [TripUpdate], vehiclePositions: [VehiclePosition], alerts: [AlertSummary], match: Match,
                otherFeeds: [String]? = nil) {
        self.source = source; self.sizeBytes = sizeBytes; self.staticFeeds = staticFeeds; self.otherFeeds = otherFeeds; self.timeZone = timeZone
        self.header = header; self.counts = counts; self.tripUpdates = tripUpdates; self.vehiclePositions = vehiclePositions
        self.alerts = alerts; self.match = match
    }
}
