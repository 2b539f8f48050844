import Commute
import Foundation
import OnwardCore

/// An alert as `onward commute --json` prints it and the API and the live channel send it.
public struct CommuteAlertDTO: Codable, Sendable, Equatable {
    /// ISO 8601 local (the alert's stop's zone) with offset.
    public var at: String
    public var kind: String
    public var stopId: String
    public var stopName: String
    public var message: String
    /// What its moment was judged from: `liveTimes`, `timetable`, `position` or `beacon` (absent in alerts
    /// given before this was kept).
    public var basis: String?

    public init(_ a: CommuteAlert, zone: TimeZone) {
        at = LocalTime(a.at, in: zone).iso8601
        kind = a.kind.rawValue; stopId = a.stopID; stopName = a.stopName; message = a.message; basis = a.basis?.rawValue
    }
}

/// `POST /api/v1/commutes`, `GET /api/v1/commutes/{commuteId}` and the live channel's `commute` messages:
/// one commute in progress and what it has said so far.
public struct CommuteDTO: Codable, Sendable, Equatable {
    /// The commute's ID: a secret that lets whoever holds it follow and end the commute. Only in the
    /// answer that starts it (the traveller's device keeps it); never in a URL.
    public var id: String?
    /// `active` until the journey is over (an hour after its arrival) or the traveller ends it, then `ended`.
    public var status: String
    /// A simulated traveller who follows the journey on time, `speed` times faster than real time.
    public var simulated: Bool
    public var speed: Int?
    /// The journey being made, live where known (after a missed change, the new plan).
    public var journey: JourneyDTO
    /// Every alert so far, oldest first.
    public var alerts: [CommuteAlertDTO]
    /// The alerts the journey's times alone would give next, each at its moment (`CommuteSession.ahead`): what the
    /// page says by itself if the network goes.
    public var ahead: [CommuteAlertDTO]?
    /// The commute's clock (real time, or the simulation's), ISO 8601 local with offset.
    public var now: String
    /// Whether alerts are also sent by Web Push to a subscription.
    public var push: Bool

    public init(id: String?, status: String, simulated: Bool, speed: Int?, journey: Journey, alerts: [CommuteAlert], ahead: [CommuteAlert] = [],
                now: Instant, push: Bool) {
        let zone = TimeZone.named(journey.legs.first?.fromStop.timeZone ?? "UTC")
        self.id = id; self.status = status; self.simulated = simulated; self.speed = speed
        self.journey = JourneyDTO(journey)
        self.alerts = alerts.map { CommuteAlertDTO($0, zone: zone) }
        self.ahead = ahead.map { CommuteAlertDTO($0, zone: zone) }
        self.now = LocalTime(now, in: zone).iso8601
        self.push = push
    }
}

/// `POST /api/v1/commutes/{commuteId}/sightings`: a position from the browser, or a beacon sighting.
public struct CommuteSightingDTO: Codable, Sendable, Equatable {
    public struct Beacon: Codable, Sendable, Equatable {
        public var uuid: String
        public var major: Int
        public var minor: Int
    }

    /// ISO 8601 with offset, when the position was taken; now when left out.
    public var at: String?
    public var lat: Double?
    public var lon: Double?
    /// Metres (the browser's `coords.accuracy`).
    public var accuracy: Double?
    public var beacon: Beacon?

    public init(at: String? = nil, lat: Double? = nil, lon: Double? = nil, accuracy: Double? = nil, beacon: Beacon? = nil) {
        self.at = at; self.lat = lat; self.lon = lon; self.accuracy = accuracy; self.beacon = beacon
    }
}

/// The answer to a sighting: the alerts it caused, if any.
public struct CommuteAlertsDTO: Codable, Sendable, Equatable {
    public var alerts: [CommuteAlertDTO]

    public init(alerts: [CommuteAlertDTO]) { self.alerts = alerts }
}

/// `PUT /api/v1/commutes/{commuteId}/push`: the browser's push subscription (`PushSubscription.toJSON()`).
public struct PushSubscriptionDTO: Codable, Sendable, Equatable {
    public struct Keys: Codable, Sendable, Equatable {
        public var p256dh: String
        public var auth: String
    }

    public var endpoint: String
    public var keys: Keys
}

/// `GET /api/v1/push/key`: the server's VAPID public key, for `pushManager.subscribe`.
public struct PushKeyDTO: Codable, Sendable, Equatable {
    public var publicKey: String

    public init(publicKey: String) { self.publicKey = publicKey }
}

/// What a push (and a live `alert` message) carries: one alert, and where to look.
public struct CommutePushDTO: Codable, Sendable, Equatable {
    public var type = "alert"
    public var alert: CommuteAlertDTO
    /// The page that shows the commute (its ID travels in the fragment, never to a server log).
    public var url: String

    public init(alert: CommuteAlertDTO, url: String) { self.alert = alert; self.url = url }
}
