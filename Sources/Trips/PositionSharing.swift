import Foundation
import OnwardCore

/// A traveller's shared position: where, how sure (metres), when, until when sharing lasts, and
/// whether it is paused. A position past its end, or of someone who paused, is never shown.
public struct SharedPosition: Sendable, Hashable, Codable {
    public var person: String
    public var latitude: Double
    public var longitude: Double
    public var accuracyMetres: Double
    public var at: Instant
    public var sharingUntil: Instant
    public var paused: Bool

    public init(person: String, latitude: Double, longitude: Double, accuracyMetres: Double, at: Instant, sharingUntil: Instant, paused: Bool = false) {
        self.person = person; self.latitude = latitude; self.longitude = longitude; self.accuracyMetres = accuracyMetres
        self.at = at; self.sharingUntil = sharingUntil; self.paused = paused
    }

    /// Whether it may be shown at `now`.
    public func isShown(at now: Instant) -> Bool { !paused && now < sharingUntil && at <= now }

    /// The lengths of sharing the app offers, as Telegram does; the API takes any end time.
    public enum Offer: Sendable, CaseIterable {
        case fifteenMinutes, oneHour, eightHours, untilTripEnds
        public func end(from now: Instant, trip: Trip) -> Instant {
            switch self {
            case .fifteenMinutes: now.adding(seconds: 15 * 60)
            case .oneHour: now.adding(seconds: 3600)
            case .eightHours: now.adding(seconds: 8 * 3600)
            case .untilTripEnds: trip.endsAt
            }
        }
    }
}

/// Who sees whom on a trip's map: the one rule, used by the API, the pages and the live channel.
public enum MapVisibility {
    public static let defaultRadiusMetres = 2_000.0

    /// The positions `viewer` may see on `trip` at `now`. Nobody outside the trip sees anything. A host
    /// sees every member who is sharing, at any distance; a traveller sees the members who are sharing
    /// within `radius` of their own shown position (without one, nobody). Never one's own (the app
    /// draws it apart), never a paused or ended share, never someone who has left the trip.
    public static func visible(to viewer: String, on trip: Trip, positions: [SharedPosition], now: Instant,
                               radiusMetres: Double = defaultRadiusMetres) -> [SharedPosition] {
        let own = positions.first { $0.person == viewer }
        return positions.filter { isVisible($0, to: viewer, on: trip, viewerPosition: own, now: now, radiusMetres: radiusMetres) }
            .sorted { $0.person < $1.person }
    }

    /// Whether `viewer` may see one position, given the viewer's own (nil when they have none): the rule `visible` applies to each.
    public static func isVisible(_ position: SharedPosition, to viewer: String, on trip: Trip, viewerPosition: SharedPosition?, now: Instant,
                                 radiusMetres: Double = defaultRadiusMetres) -> Bool {
        guard trip.isMember(viewer), position.person != viewer, trip.isMember(position.person), position.isShown(at: now) else { return false }
        if trip.isHost(viewer) { return true }
        guard let me = viewerPosition, me.person == viewer, me.isShown(at: now) else { return false }
        return GreatCircle.metres(me.latitude, me.longitude, position.latitude, position.longitude) <= radiusMetres
    }
}
