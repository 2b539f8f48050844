import Foundation
import OnwardCore

/// A source of stops, boards, services, alerts and vehicles: the GTFS network with
/// its realtime feeds, National Rail's Darwin, the CTA bus tracker. The query layer
/// (`Transit`) talks to sources only through this protocol, in `OnwardCore` types.
///
/// Every ID a source takes or gives is canonical (`SOURCE:LOCAL`, see `CanonicalID`).
/// Answers that failed throw `SourceError` with a safe message (never a URL or a key);
/// "the upstream has nothing to show" is not an error but a result with a reason.
public protocol TransitSource: Sendable {
    /// The public source names this adapter answers for: `["national-rail"]`; one per
    /// feed for the GTFS network (`["mrt-jakarta"]`, or `["caltrain", "bart"]`).
    var sourceNames: [String] { get }
    /// A name for people ("National Rail", "CTA Bus Tracker", "MRT Jakarta").
    var displayName: String { get }
    /// How many stops and trips the source's timetable has now (nil: it has none of its own).
    var timetableSize: (stops: Int, trips: Int)? { get }
    var capabilities: SourceCapabilities { get }

    /// Whether `localID` is one of this source's IDs of that kind, known without an upstream
    /// request. Used to accept an unprefixed ID when exactly one source has it.
    func recognizes(localID: String, as kind: IDKind) -> Bool
    /// The canonical IDs an unprefixed ID has here: one per source name that recognises it
    /// (several when several feeds of a network have it, which makes it ambiguous).
    func canonicalIDs(forLocal localID: String, as kind: IDKind) -> [String]
    /// What a person typed as a stop ("blok m", "York"), matched against this source's stop names.
    func matchStop(named text: String) async -> StopNameMatch
    /// Routes whose short name (else long name) is `text`, ignoring case ("10C", "Blue Line"),
    /// known without an upstream request.
    func routes(named text: String) -> [RouteSummary]
    /// The stations a small network lists for browsing on the home page; empty for a big
    /// network (searched, not browsed) and for a live-only source.
    func listedStations() -> [StopPlace]
    /// The way service `serviceID`'s vehicle goes between two of its stops (given by where they are), from the
    /// feed's shapes; nil when the source has none (commuting mode then takes straight lines between calls).
    func path(serviceID: String, from: PathPoint, to: PathPoint) -> [PathPoint]?
    /// Names for people of the stops and routes alerts mention, where this source knows them.
    func names(stopIDs: [String], routeIDs: [String]) -> EntityNames
    /// The stops a station's board gathers (its platforms), by canonical ID; empty for a stop that is no station.
    func platformIDs(of stationID: String) -> [String]
    /// Announces each change of a source whose data arrives in the background (realtime
    /// feeds the server polls); nil for a source asked on demand, which a live page polls.
    var updates: (any SourceUpdates)? { get }

    func place(_ stopID: String) async throws(SourceError) -> StopPlace
    func searchStops(_ text: String, limit: Int) async throws(SourceError) -> [StopPlace]
    func nearbyStops(latitude: Double, longitude: Double, radius: Double, limit: Int) async throws(SourceError) -> [StopPlace]
    func board(_ request: SourceBoardRequest) async throws(SourceError) -> SourceBoard
    func service(_ request: SourceServiceRequest) async throws(SourceError) -> SourceService
    func alerts(_ scope: AlertScope, now: Instant) async throws(SourceError) -> SourceAlerts
    func routes() async throws(SourceError) -> [RouteSummary]
    func directions(routeID: String) async throws(SourceError) -> [RouteDirection]
    func stops(routeID: String, directionID: String) async throws(SourceError) -> [StopPlace]
    func vehicles(routeID: String?, now: Instant) async throws(SourceError) -> SourceVehicles
    /// A route's lines (each direction's way and stops) for its map; by default its directions' stops joined.
    func routeMap(routeID: String) async throws(SourceError) -> SourceRouteMap
    /// The vehicles on a route now with their next stops; by default its vehicle positions.
    func routeVehicles(routeID: String, now: Instant) async throws(SourceError) -> SourceRouteVehicles
    /// Journeys from one stop or station to another, with changes.
    func plan(_ request: SourceJourneyRequest) async throws(SourceError) -> SourceJourneys
    /// How each upstream of this source is doing, by source name (never by URL).
    func status(now: Instant) -> [SourceStatus]
}

/// The kinds of ID a source may be asked to recognise.
public enum IDKind: Sendable, Hashable { case stop, service, route }

/// What a source can answer. The query layer refuses the rest with a reason
/// before asking, and pages hide what a source lacks.
public struct SourceCapabilities: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let stopSearch = SourceCapabilities(rawValue: 1 << 0)
    public static let nearby = SourceCapabilities(rawValue: 1 << 1)
    public static let departures = SourceCapabilities(rawValue: 1 << 2)
    public static let arrivals = SourceCapabilities(rawValue: 1 << 3)
    /// Departures calling at (arrivals coming from) a second stop.
    public static let callingAtFilter = SourceCapabilities(rawValue: 1 << 4)
    public static let serviceDetails = SourceCapabilities(rawValue: 1 << 5)
    public static let alerts = SourceCapabilities(rawValue: 1 << 6)
    /// Routes → directions → stops.
    public static let browse = SourceCapabilities(rawValue: 1 << 7)
    public static let vehicles = SourceCapabilities(rawValue: 1 << 8)
    /// Boards for any date and time (a timetable); without it, only the upstream's own now.
    public static let anyTime = SourceCapabilities(rawValue: 1 << 9)
    /// A board limited by a time window (not only a number of rows).
    public static let timeWindow = SourceCapabilities(rawValue: 1 << 10)
    /// Journeys from A to B, with changes.
    public static let journeys = SourceCapabilities(rawValue: 1 << 11)
}

/// Default answers for what a source does not declare: "unsupported", never an empty list
/// that would look like "nothing there".
extension TransitSource {
    public var timetableSize: (stops: Int, trips: Int)? { nil }
    public func canonicalIDs(forLocal localID: String, as kind: IDKind) -> [String] {
        sourceNames.filter { _ in recognizes(localID: localID, as: kind) }.map { CanonicalID.make(source: $0, local: localID) }
    }

    /// By the stop search: one result, or one whose name (or code) is exactly the text, is found.
    public func matchStop(named text: String) async -> StopNameMatch {
        guard capabilities.contains(.stopSearch), let found = try? await searchStops(text, limit: 12), !found.isEmpty else {
            return .notFound(suggestions: [])
        }
        if found.count == 1 { return .found(found[0]) }
        let folded = TextFolding.fold(text)
        let exact = found.filter { TextFolding.fold($0.name) == folded || $0.code?.caseInsensitiveCompare(text) == .orderedSame }
        return exact.count == 1 ? .found(exact[0]) : .ambiguous(found)
    }

    public func listedStations() -> [StopPlace] { [] }
    public func path(serviceID: String, from: PathPoint, to: PathPoint) -> [PathPoint]? { nil }
    public func routes(named text: String) -> [RouteSummary] { [] }
    public func names(stopIDs: [String], routeIDs: [String]) -> EntityNames { EntityNames() }
    public func platformIDs(of stationID: String) -> [String] { [] }
    public var updates: (any SourceUpdates)? { nil }

    public func unsupported(_ what: String) -> SourceError {
        SourceError(.unsupported, "\(displayName) cannot answer \(what).")
    }

    public func searchStops(_ text: String, limit: Int) async throws(SourceError) -> [StopPlace] { throw unsupported("stop search") }
    public func nearbyStops(latitude: Double, longitude: Double, radius: Double, limit: Int) async throws(SourceError) -> [StopPlace] {
        throw unsupported("nearby stops")
    }
    public func service(_ request: SourceServiceRequest) async throws(SourceError) -> SourceService { throw unsupported("service details") }
    public func alerts(_ scope: AlertScope, now: Instant) async throws(SourceError) -> SourceAlerts { throw unsupported("alerts") }
    public func routes() async throws(SourceError) -> [RouteSummary] { throw unsupported("a list of routes") }
    public func directions(routeID: String) async throws(SourceError) -> [RouteDirection] { throw unsupported("a route's directions") }
    public func stops(routeID: String, directionID: String) async throws(SourceError) -> [StopPlace] { throw unsupported("a route's stops") }
    public func vehicles(routeID: String?, now: Instant) async throws(SourceError) -> SourceVehicles { throw unsupported("vehicle positions") }
    public func plan(_ request: SourceJourneyRequest) async throws(SourceError) -> SourceJourneys { throw unsupported("journeys") }
}

/// What a stop typed by name resolves to at one source.
public enum StopNameMatch: Sendable {
    case found(StopPlace)
    /// Several stops match equally well: the candidates, best first.
    case ambiguous([StopPlace])
    /// Nothing matches; names that come near (a typo), for "did you mean".
    case notFound(suggestions: [StopPlace])
}

/// Change announcements: each change bumps `version` and tells every subscriber, who
/// then reads afresh (a slow one skips to the newest state, never a backlog).
public protocol SourceUpdates: AnyObject, Sendable {
    var version: Int { get }
    func subscribe() -> AsyncStream<Int>
}
