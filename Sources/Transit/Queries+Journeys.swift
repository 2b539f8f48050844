import API
import Foundation
import OnwardCore
import TransitSources

extension Queries {
    /// Caps that keep one journey request cheap (the window as for boards).
    public static let maxWalkMetres = 2_000
    public static let maxTransferSlackSeconds = 3_600
    public static let maxTransfersAllowed = 8

    /// A journey request. Its initial values are the defaults everywhere (API, pages, CLI, commuting
    /// mode): `JourneyQuery.defaults` names them.
    public struct JourneyQuery: Sendable, Hashable {
        public var from: String
        public var to: String
        public var at: Instant?
        public var arriveBy = false
        public var windowMinutes = 0
        public var limit = 5
        public var maxWalkMetres = 500
        public var transferSlackSeconds = 60
        public var maxTransfers = 5
        /// Only trips and stops the feed says are wheelchair accessible.
        public var wheelchair = false
        /// The timetable's journeys, live data aside (`SourceJourneyRequest.timetableOnly`).
        public var timetableOnly = false
        /// Options arriving at the same time, the less crowded first (`Journey.lessCrowdedFirst`); the answer is then in
        /// order of arrival.
        public var lessCrowded = false
        /// Journeys whose changes hold four days in five by the delay history first (`Journey.reliableFirst`).
        public var reliable = false

        public init(from: String, to: String, at: Instant? = nil) {
            self.from = from; self.to = to; self.at = at
        }

        /// What a request that names none of the options asks for.
        public static let defaults = JourneyQuery(from: "", to: "")
    }

    /// Journeys from a stop or station to another, with the options' limits checked first.
    public func plan(_ q: JourneyQuery) async throws(QueryError) -> JourneysDTO {
        let (answer, source) = try await journeys(q)
        var dto = JourneysDTO(from: answer.from, to: answer.to, journeys: answer.journeys, live: answer.live.map(LiveDTO.init))
        dto.emptyReason = answer.emptyReason
        dto.source = CanonicalID.split(answer.from.id)?.source
        dto.sourceName = source.displayName
        return dto
    }

    /// The same journeys in the domain's terms, for what works on them (commuting mode), with the source that planned them.
    public func journeys(_ q: JourneyQuery) async throws(QueryError) -> (journeys: SourceJourneys, source: any TransitSource) {
        func check(_ value: Int, _ range: ClosedRange<Int>, _ parameter: String, _ unit: String) throws(QueryError) {
            guard range.contains(value) else {
                throw QueryError(.invalidParameter, "\(parameter) must be between \(range.lowerBound) and \(range.upperBound)\(unit)", parameter: parameter)
            }
        }
        try check(q.windowMinutes, 0...Queries.maxWindowMinutes, "window", " minutes")
        try check(q.limit, 1...Queries.maxLimit, "limit", "")
        try check(q.maxWalkMetres, 0...Queries.maxWalkMetres, "maxWalk", " metres")
        try check(q.transferSlackSeconds, 0...Queries.maxTransferSlackSeconds, "transferSlack", " seconds")
        try check(q.maxTransfers, 0...Queries.maxTransfersAllowed, "maxTransfers", "")
        let (source, from) = try resolveStop(q.from)
        let (other, to) = try resolveStop(q.to)
        guard other.sourceNames == source.sourceNames else {
            throw QueryError(.unsupported, "A journey has to start and end in one network: '\(q.from)' is \(source.displayName), '\(q.to)' is \(other.displayName).")
        }
        guard source.capabilities.contains(.journeys) else { throw QueryError(.unsupported, "\(source.displayName) cannot plan journeys.") }
        var request = SourceJourneyRequest(from: from, to: to, at: q.at, arriveBy: q.arriveBy, windowMinutes: q.windowMinutes, limit: q.limit,
                                           maxWalkMetres: q.maxWalkMetres, transferSlackSeconds: q.transferSlackSeconds,
                                           maxTransfers: q.maxTransfers, now: now)
        request.wheelchair = q.wheelchair
        request.timetableOnly = q.timetableOnly
        let asked = request
        @Sendable func plan() async throws(QueryError) -> SourceJourneys {
            do throws(SourceError) { return try await source.plan(asked) } catch { throw QueryError(error, sourceName: source.displayName) }
        }
        var answer: SourceJourneys
        if let planning { answer = try await planning.run(plan) } else { answer = try await plan() }
        if q.lessCrowded { answer.journeys = Journey.lessCrowdedFirst(answer.journeys) }
        if q.reliable { answer.journeys = Journey.reliableFirst(answer.journeys) }
        return (answer, source)
    }
}

extension Queries {
    /// The journey with the live times its sources know now: each ride's service is asked again
    /// and its boarding, calls and alighting take that service's expected times and status (the boarding call also
    /// its new platform, when the source moved it), and its vehicle's last reported position. A ride whose service
    /// cannot be asked keeps what it had (commuting mode goes on with the timetable).
    public func refreshed(_ journey: Journey) async -> Journey {
        var legs = journey.legs
        for (i, leg) in legs.enumerated() {
            guard case .transit(var ride) = leg, let (source, id) = registry.resolve(ride.tripID, as: .service) else { continue }
            guard let answer = try? await source.service(SourceServiceRequest(serviceID: id, date: ride.serviceDate, startTime: ride.startTime, now: now)) else {
                continue
            }
            let calls = Dictionary(answer.details.calls.map { ($0.stopID, $0) }, uniquingKeysWith: { first, _ in first })
            if let c = calls[ride.from.stopID] {
                ride.expectedDeparture = c.expectedDeparture
                ride.status = answer.details.isCancelled ? .cancelled : c.status
                if c.platformChanged, let platform = c.platform { ride.from.platform = platform }
            }
            if let c = calls[ride.to.stopID] { ride.expectedArrival = c.expectedArrival }
            ride.vehicle = answer.details.vehicle.flatMap { v in
                guard let lat = v.latitude, let lon = v.longitude, let at = v.reportedAt else { return nil }
                return VehicleReport(latitude: lat, longitude: lon, at: at)
            }
            for (n, call) in ride.calls.enumerated() { ride.calls[n].expectedDeparture = calls[call.stop.stopID]?.expectedDeparture }
            legs[i] = .transit(ride)
        }
        return Journey(legs: legs)
    }
}

extension Queries {
    /// The journey with each ride's path (the way its vehicle goes, from its source's shapes) where the source
    /// has one: what commuting mode judges positions against. Journey answers go without (they would be large).
    public func withPaths(_ journey: Journey) -> Journey {
        Journey(legs: journey.legs.map { leg in
            guard case .transit(var ride) = leg, ride.path == nil, let (source, id) = registry.resolve(ride.tripID, as: .service) else { return leg }
            ride.path = source.path(serviceID: id, from: PathPoint(latitude: ride.from.latitude, longitude: ride.from.longitude),
                                    to: PathPoint(latitude: ride.to.latitude, longitude: ride.to.longitude))
            return .transit(ride)
        })
    }
}
