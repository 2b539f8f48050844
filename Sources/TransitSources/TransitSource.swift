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
    var capabilities: SourceCapabilities { get }

    /// Whether `localID` is one of this source's IDs of that kind, known without an upstream
    /// request. Used to accept an unprefixed ID when exactly one source has it.
    func recognizes(localID: String, as kind: IDKind) -> Bool

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
}

/// Default answers for what a source does not declare: "unsupported", never an empty list
/// that would look like "nothing there".
extension TransitSource {
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
}
