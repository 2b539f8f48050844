import API
import Commute
import Foundation
import OnwardCore
import Transit
import TransitSources

/// The one driver of the commute engine (`CommuteSession`) that the server and `onward commute` both
/// run: how a commute begins from a journey request (the journey chosen, the stations it watches, how
/// to plan again), how a device's sighting becomes an event, how a missed change is planned again,
/// and, for the CLI, a recorded track replayed in time order. `CommuteService` adds the clock, storage,
/// live clients and pushes around it; the CLI prints what it says.
public struct CommuteDriver: Sendable {
    /// The accuracy of a position whose sighting gives none, in metres (a phone's GPS in a city).
    public static let defaultAccuracyMetres = 50.0
    /// How far before the first departure a simulated traveller sets out, in seconds.
    public static let simulationLeadSeconds: Int64 = 360

    let sources: SourceRegistry

    public init(sources: SourceRegistry) { self.sources = sources }

    /// A commute ready to start: the journey chosen, the engine's first state, and what planning
    /// again needs.
    public struct Begun: Sendable {
        public var journey: Journey
        public var session: CommuteSession
        public var plan: CommuteState.Plan
        public var from: StopPlace
        public var to: StopPlace
    }

    /// Plans `query` as of `now` and begins a commute on its `option`-th journey (from 1). The engine
    /// watches the stations the journey's source lists (a small network's stations) and the journey's ends.
    public func begin(_ query: Queries.JourneyQuery, option: Int, settings: CommuteSettings, now: Instant) async throws -> Begun {
        var query = query
        query.limit = max(query.limit, option)
        let (answer, source) = try await Queries(sources, now: now).journeys(query)
        guard option <= answer.journeys.count else {
            throw ServiceError(.journeyNotFound, answer.journeys.isEmpty ? (answer.emptyReason ?? "No journey was found then.")
                                   : "option \(option): only \(answer.journeys.count) journeys were found.", parameter: "option")
        }
        // With each ride's path: positions are judged against the way the vehicle goes, not straight lines.
        let journey = Queries(sources, now: now).withPaths(answer.journeys[option - 1])
        let stations = source.listedStations() + [answer.from, answer.to]
        let plan = CommuteState.Plan(destination: answer.to.id, maxWalkMetres: query.maxWalkMetres, transferSlackSeconds: query.transferSlackSeconds,
                                     maxTransfers: query.maxTransfers, wheelchair: query.wheelchair)
        return Begun(journey: journey, session: CommuteSession(journey: journey, settings: settings, stations: stations), plan: plan,
                     from: answer.from, to: answer.to)
    }

    /// A device's sighting checked: `at` an ISO 8601 time with its offset, a beacon, or a position with
    /// `lat` and `lon` in range and an accuracy of 0 metres or more. Refused naming the field at fault.
    public static func check(_ s: CommuteSightingDTO) throws(ServiceError) {
        if let at = s.at, Instant(iso8601: at) == nil { throw .invalid("at '\(at)' is not an ISO 8601 time with its offset", "at") }
        if s.beacon != nil { return }
        guard let lat = s.lat, (-90...90).contains(lat) else { throw .invalid("lat (-90…90) is required, or a beacon", "lat") }
        guard let lon = s.lon, (-180...180).contains(lon) else { throw .invalid("lon (-180…180) is required, or a beacon", "lon") }
        if let a = s.accuracy, !(a.isFinite && a >= 0) { throw .invalid("accuracy must be a number of metres, 0 or more", "accuracy") }
    }

    /// The engine's event for a (checked) sighting at `at`; nil for a beacon the operator's file does not
    /// list, which says nothing about where the traveller is.
    public static func event(_ s: CommuteSightingDTO, at: Instant, beacons: BeaconMap) -> CommuteEvent? {
        if let b = s.beacon {
            return beacons.stop(uuid: b.uuid, major: b.major, minor: b.minor).map { .beacon(at: at, stopID: $0) }
        }
        guard let lat = s.lat, let lon = s.lon else { return nil }
        return .position(at: at, latitude: lat, longitude: lon, accuracy: s.accuracy ?? defaultAccuracyMetres)
    }

    /// The first journey from `stopID` (where a change was missed) to the plan's destination at `at`;
    /// nil when there is none (the old journey is then followed to its end).
    public func replan(from stopID: String, plan: CommuteState.Plan, at: Instant, now: Instant) async -> Journey? {
        var q = Queries.JourneyQuery(from: stopID, to: plan.destination, at: at)
        q.maxWalkMetres = plan.maxWalkMetres; q.transferSlackSeconds = plan.transferSlackSeconds
        q.maxTransfers = plan.maxTransfers; q.wheelchair = plan.wheelchair; q.limit = 1
        let queries = Queries(sources, now: now)
        return (try? await queries.journeys(q).journeys.journeys.first).map(queries.withPaths)
    }

    /// The journey to follow once the session asks to plan again (`replanFrom`): planned from there at the
    /// moment it says (as the ride arrives, ahead of a change that can no longer be made; else now) and, ahead
    /// of a change, joined to the rides up to it. Nil when no way is found (the old journey is then followed).
    public func replanned(_ session: CommuteSession, current: Journey, plan: CommuteState.Plan, now: Instant) async -> Journey? {
        guard let from = session.replanFrom, let time = session.time,
              let journey = await replan(from: from.stopID, plan: plan, at: session.replan?.at ?? time, now: now) else { return nil }
        return session.replan.map { current.keepingRides($0.keepRides, then: journey) } ?? journey
    }

    /// The positions of a traveller who follows `journey` on time, setting out before its first departure.
    public static func simulatedTrack(_ journey: Journey) -> [CommuteEvent] {
        SimulatedTraveller.track(following: journey, from: journey.departure.adding(seconds: -simulationLeadSeconds))
    }

    /// New live data at a moment of a replay: a recorded capture, applied to the sources when the replay reaches it.
    public struct LiveStep: Sendable {
        public var at: Instant
        public var apply: @Sendable () async -> Void

        public init(at: Instant, apply: @escaping @Sendable () async -> Void) { self.at = at; self.apply = apply }
    }

    /// Drives `session` through `events` in time order from `start`, waking it at each deadline in between,
    /// applying each of `live` at its moment and handing the journey's new live times in (as the server's
    /// refresh does), and planning again from the station of a missed change, as the server does; each alert
    /// is reported as it is given.
    public func replay(_ session: inout CommuteSession, journey: Journey, plan: CommuteState.Plan, events: [CommuteEvent], live: [LiveStep] = [],
                       from start: Instant, until end: Instant, report: (CommuteAlert) throws -> Void) async rethrows {
        var current = journey
        var pending = events.sorted { $0.at < $1.at }[...]
        var steps = live.sorted { $0.at < $1.at }[...]
        let last = max(end, pending.last?.at ?? end)
        // What is due at the start is said at once.
        for alert in session.handle(.tick(start)) { try report(alert) }
        // Once planning again found no other way, the old journey is followed until new live data comes.
        var replanFailed = false
        while true {
            for alert in session.advance(to: steps.first.map { min(max($0.at, start), last) } ?? last, events: &pending) { try report(alert) }
            if session.replanFrom != nil, !replanFailed, let at = session.time {
                if let journey = await replanned(session, current: current, plan: plan, now: at) {
                    current = journey
                    for alert in session.handle(.journey(journey, at: at)) { try report(alert) }
                } else {
                    replanFailed = true
                }
                continue
            }
            guard let step = steps.popFirst(), step.at <= last else { break }
            replanFailed = false
            await step.apply()
            let at = max(step.at, session.time ?? step.at)
            let fresh = await Queries(sources, now: at).refreshed(current)
            if fresh != current {
                current = fresh
                for alert in session.handle(.journey(fresh, at: at)) { try report(alert) }
            }
        }
    }
}
