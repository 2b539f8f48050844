import DataSources
import Foundation
import OnwardCore
import Synchronization
import TransitSources

/// National Rail's live departure boards (Darwin OpenLDBWS) as a `TransitSource`
/// named `national-rail`.
///
/// Darwin answers only about its own now: boards from two hours ago to two hours
/// ahead, at most 10 rows with calling points, and services running today. Station
/// search and nearby come from the bundled station list, without a request.
///
/// The token and the endpoint are the operator's secrets: they are sent to Darwin
/// and never appear in an error, a status or a log line this type makes.
public final class NationalRailSource: TransitSource, KeepsDelayHistory {
    /// The live service's endpoint for the 2021-11-01 schema.
    public static let defaultEndpoint = URL(string: "https://lite.realtime.nationalrail.co.uk/OpenLDBWS/ldb12.asmx")!

    public let sourceNames = [NationalRailIDs.source]
    public let displayName = "National Rail"
    public let capabilities: SourceCapabilities = [
        .stopSearch, .nearby, .departures, .arrivals, .callingAtFilter, .serviceDetails, .alerts, .timeWindow,
    ]

    private let token: String
    private let endpoint: URL
    /// Darwin through the upstream client: a board asked by many people within a few
    /// seconds is one request (coalesced, then cached briefly), and retries are bounded.
    private let client: UpstreamClient
    private let now: @Sendable () -> Instant
    private let directory: Result<StationDirectory, SourceError>
    private let health = Mutex(Health.idle)
    private let history = Mutex(History())

    /// The delay history's side: who hears what boards say, the book they show, and the moment of the last board
    /// of each station and kind heard (a board asked by many within Darwin's cache is one answer, recorded once).
    private struct History {
        var observer: (@Sendable ([DelayObservation]) -> Void)?
        var book = DelayHistoryBook.empty
        var heard: [String: Instant] = [:]
    }

    private enum Health {
        case idle
        case succeeded(dataMadeAt: Instant)
        case failed(SourceError)
    }

    /// - Parameters:
    ///   - token: the OpenLDBWS access token.
    ///   - stations: the station list; nil for the bundled one.
    ///   - shared: answers shared with the other servers on one database, so Darwin sees one client.
    public init(token: String, endpoint: URL = NationalRailSource.defaultEndpoint, fetcher: any HTTPFetching,
                shared: (any SharedUpstreamAnswers)? = nil,
                now: @escaping @Sendable () -> Instant = { Instant.now() }, stations: StationDirectory? = nil) {
        self.token = token; self.endpoint = endpoint; self.now = now
        client = UpstreamClient(configuration: .init(name: NationalRailIDs.source, secrets: token.isEmpty ? [] : [token]),
                                fetcher: fetcher, shared: shared, now: now)
        if let stations {
            directory = .success(stations)
        } else {
            do throws(SourceError) { directory = .success(try StationDirectory.bundled()) } catch { directory = .failure(error) }
        }
    }

    // MARK: - Stations

    public func recognizes(localID: String, as kind: IDKind) -> Bool {
        guard kind == .stop, case .success(let stations) = directory else { return false }
        return stations.station(crs: localID) != nil
    }

    public func place(_ stopID: String) async throws(SourceError) -> StopPlace {
        try station(stopID).place
    }

    public func searchStops(_ text: String, limit: Int) async throws(SourceError) -> [StopPlace] {
        try directory.get().search(text, limit: limit).map(\.place)
    }

    public func nearbyStops(latitude: Double, longitude: Double, radius: Double, limit: Int) async throws(SourceError) -> [StopPlace] {
        try directory.get().nearby(latitude: latitude, longitude: longitude, radius: radius, limit: limit).map {
            var place = $0.station.place
            place.distance = $0.distance
            return place
        }
    }

    private func station(_ stopID: String) throws(SourceError) -> StationDirectory.Station {
        guard let local = NationalRailIDs.local(stopID), let crs = NationalRailIDs.crs(local) else {
            throw SourceError(.notFound, "\(stopID) is not a National Rail station (they are national-rail:CRS, e.g. national-rail:KGX)")
        }
        guard let found = try directory.get().station(crs: crs) else {
            throw SourceError(.notFound, "National Rail has no station with the code \(crs)")
        }
        return found
    }

    // MARK: - Boards

    /// How far from now Darwin's boards reach, in minutes (its `timeOffset` range).
    public static let reach = DarwinRequest.timeOffsetRange

    /// A departures or arrivals board with calling points (GetDepBoardWithDetails /
    /// GetArrBoardWithDetails). `via` filters to services calling there later (or
    /// earlier, for arrivals); `windowMinutes` becomes Darwin's `timeWindow` (at most
    /// 120) and `limit` its `numRows` (at most 10). A moment `at` more than two hours
    /// from now is refused (`.invalidRequest`, parameter "time"): Darwin cannot see it.
    /// Station notices and the rows' cancel and delay reasons come as alerts.
    public func board(_ request: SourceBoardRequest) async throws(SourceError) -> SourceBoard {
        let here = try station(request.stopID)
        let via = try request.via.map { v throws(SourceError) in try station(v) }
        let darwinNow = now()
        var offset = 0
        if let at = request.at {
            // Whole minutes, rounded down: Darwin's offset counts minutes from its now.
            let seconds = at.epochSeconds - darwinNow.epochSeconds
            let minutes = Int((seconds >= 0 ? seconds : seconds - 59) / 60)
            guard Self.reach.contains(minutes) else {
                throw SourceError(.invalidRequest,
                                  "National Rail boards show the next two hours only; ask for a time no more than two hours before or after now",
                                  parameter: "time")
            }
            offset = minutes
        }
        let window = DarwinRequest.clamp(request.windowMinutes ?? 120, DarwinRequest.timeWindowRange)
        let rows = DarwinRequest.clamp(request.limit ?? DarwinRequest.maxRowsWithDetails, 1...DarwinRequest.maxRowsWithDetails)
        let darwin = DarwinRequest.board(request.kind == .departures ? .departureBoard : .arrivalBoard, crs: here.crs,
                                         numRows: rows, filterCRS: via?.crs,
                                         filterType: request.kind == .departures ? .to : .from,
                                         timeOffset: offset, timeWindow: window)
        guard case .board(let board) = try await ask(darwin) else {
            throw record(SourceError(.undecodable, "National Rail answered a board request with something else"))
        }
        var entries = board.entries(kind: request.kind, via: via?.crs)
        let book = hear(board, kind: request.kind)
        if !book.isEmpty {
            let zone = TimeZone.named(DarwinClock.zoneIdentifier)
            for i in entries.indices { entries[i].usualDelay = book.usual(route: entries[i].routeID, stop: entries[i].stopID, at: entries[i].scheduled, zone: zone) }
        }
        let stationAlerts = board.stationAlerts
        // Only the rows shown: a combined board's arrivals-only rows are not on a departures board.
        let shown = Set(entries.map(\.tripID))
        let serviceAlerts = board.services.filter { shown.contains(NationalRailIDs.service($0.serviceID)) }.flatMap(\.alerts)
        let entryAlertIDs = entries.map { entry in
            serviceAlerts.filter { $0.informedEntities.contains { $0.tripID == entry.tripID } }.map(\.id)
        }
        var emptyReason: String?
        if entries.isEmpty {
            emptyReason = Self.emptyReason(kind: request.kind, via: via, window: window, at: request.at,
                                           notices: stationAlerts)
        }
        return SourceBoard(place: here.place, via: via?.place, kind: request.kind, entries: entries,
                           alerts: BoardAlerts(stationAlerts + serviceAlerts), entryAlertIDs: entryAlertIDs,
                           live: LiveInfo(updatedAt: board.generatedAt, stale: false), emptyReason: emptyReason)
    }

    // MARK: - Delay history

    public func observeDelays(_ observer: @escaping @Sendable ([DelayObservation]) -> Void) { history.withLock { $0.observer = observer } }

    public func serve(history book: DelayHistoryBook) { history.withLock { $0.book = book } }

    /// Hands what a board said to the history, once per answer Darwin made; the book to show.
    private func hear(_ board: DarwinStationBoard, kind: SourceBoardRequest.Kind) -> DelayHistoryBook {
        let key = board.crs + "/" + kind.rawValue + "/" + (board.filterCRS ?? "")
        let (observer, book) = history.withLock { h -> ((@Sendable ([DelayObservation]) -> Void)?, DelayHistoryBook) in
            let fresh = h.heard[key].map { $0 < board.generatedAt } ?? true
            if fresh { h.heard[key] = board.generatedAt }
            // Bounded: a station's last answer only matters while Darwin may still send the same one.
            if h.heard.count > 10_000 { h.heard.removeAll() }
            return (fresh ? h.observer : nil, h.book)
        }
        if let observer {
            let observations = board.delayObservations(observedAt: board.generatedAt)
            if !observations.isEmpty { observer(observations) }
        }
        return book
    }

    /// Why a board is empty: a notice that says trains are not running, if Darwin
    /// sent one; otherwise the window that had nothing.
    static func emptyReason(kind: SourceBoardRequest.Kind, via: StationDirectory.Station?, window: Int, at: Instant?,
                            notices: [Alert]) -> String {
        if let notice = notices.first(where: { $0.effect == .noService || $0.effect == .reducedService }),
           let text = notice.header.best(for: ["en"]) {
            return text
        }
        var what = kind == .departures ? "No departures" : "No arrivals"
        if let via { what += kind == .departures ? " calling at \(via.name)" : " from \(via.name)" }
        if let at {
            return what + " in the \(window) minutes from \(LocalTime(at, in: TimeZone.named(DarwinClock.zoneIdentifier)).hhmm)"
        }
        return what + " in the next \(window) minutes"
    }

    /// The next (or, with `fastest`, the first to arrive) departure from `stopID` to
    /// each destination (at most 10): "when is my next train to each of these?",
    /// which one board filtered to one destination cannot answer at once.
    /// Each destination comes back in order, with nil when nothing runs there.
    public func nextDepartures(from stopID: String, to destinationIDs: [String], fastest: Bool = false)
        async throws(SourceError) -> [(destination: StopPlace, entry: BoardEntry?)] {
        let here = try station(stopID)
        var destinations: [StationDirectory.Station] = []
        for id in destinationIDs.prefix(DarwinRequest.maxDestinations) { destinations.append(try station(id)) }
        guard !destinations.isEmpty else { throw SourceError(.invalidRequest, "name at least one destination", parameter: "to") }
        let darwin = DarwinRequest.departures(fastest: fastest, crs: here.crs, to: destinations.map(\.crs))
        guard case .departures(let answer) = try await ask(darwin) else {
            throw record(SourceError(.undecodable, "National Rail answered a departures request with something else"))
        }
        return destinations.map { d in
            let service = answer.items.first { $0.destinationCRS == d.crs }?.service
            let entry = service?.boardEntry(kind: .departures, stationCRS: answer.crs, stationName: answer.locationName, via: d.crs)
            return (d.place, entry)
        }
    }

    // MARK: - Services

    /// One service's calls (GetServiceDetails), with the portions of a train that
    /// divides as branches. A `date` other than yesterday, today or tomorrow is refused.
    public func service(_ request: SourceServiceRequest) async throws(SourceError) -> SourceService {
        let serviceID = try localServiceID(request.serviceID)
        guard case .serviceDetails(let answer) = try await ask(.serviceDetails(serviceID)) else {
            throw record(SourceError(.undecodable, "National Rail answered a service request with something else"))
        }
        // A Darwin service ID names one run while it is in Darwin's view, so the date a link
        // carries adds nothing: the answer says which day the run is on.
        return SourceService(details: answer.serviceDetails(serviceID: serviceID), timeZone: DarwinClock.zoneIdentifier,
                             alerts: answer.alerts(serviceID: serviceID), live: LiveInfo(updatedAt: answer.generatedAt, stale: false))
    }

    private func localServiceID(_ id: String) throws(SourceError) -> String {
        guard let local = NationalRailIDs.local(id), !local.isEmpty else {
            throw SourceError(.notFound, "\(id) is not a National Rail service")
        }
        return local
    }

    // MARK: - Alerts

    /// Station alerts are the NRCC messages on the station's board; service alerts
    /// are a service's cancel and delay reasons. Darwin has no network-wide or
    /// per-operator list, so `.all` and `.route` are refused.
    public func alerts(_ scope: AlertScope, now instant: Instant) async throws(SourceError) -> SourceAlerts {
        switch scope {
        case .stop(let stopID):
            let here = try station(stopID)
            // One row is enough: the messages come with any board.
            guard case .board(let board) = try await ask(.board(.departureBoard, crs: here.crs, numRows: 1)) else {
                throw record(SourceError(.undecodable, "National Rail answered a board request with something else"))
            }
            let alerts = board.stationAlerts
            return SourceAlerts(place: here.place, alerts: alerts, total: alerts.count, timeZone: DarwinClock.zoneIdentifier)
        case .service(let id):
            let serviceID = try localServiceID(id)
            guard case .serviceDetails(let answer) = try await ask(.serviceDetails(serviceID)) else {
                throw record(SourceError(.undecodable, "National Rail answered a service request with something else"))
            }
            let alerts = answer.alerts(serviceID: serviceID)
            return SourceAlerts(alerts: alerts, total: alerts.count, timeZone: DarwinClock.zoneIdentifier)
        case .all:
            throw unsupported("a list of every alert (Darwin gives notices per station and per service)")
        case .route:
            throw unsupported("alerts by operator")
        }
    }

    // MARK: - Status

    /// One status, `national-rail`: idle before the first request, fresh after a
    /// success (aged by Darwin's `generatedAt`), failing after a failure with a safe
    /// reason ("configuration: …" when the token was refused).
    public func status(now instant: Instant) -> [SourceStatus] {
        let state = health.withLock { $0 }
        switch state {
        case .idle:
            return [SourceStatus(name: NationalRailIDs.source, state: .idle)]
        case .succeeded(let madeAt):
            return [SourceStatus(name: NationalRailIDs.source, state: .fresh, ageSeconds: max(0, instant.epochSeconds - madeAt.epochSeconds))]
        case .failed(let error):
            let detail = error.code == .configuration ? "configuration: the access token was refused" : "\(error.code.rawValue): \(error.message)"
            return [SourceStatus(name: NationalRailIDs.source, state: .failing, detail: detail)]
        }
    }

    // MARK: - The request

    /// Sends one request and parses the answer, recording the outcome for `status`.
    /// Errors are scrubbed of the token and the endpoint, whatever produced them.
    private func ask(_ request: DarwinRequest) async throws(SourceError) -> DarwinResponse {
        // Darwin refuses every request without a token: say so without asking.
        guard !token.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw record(SourceError(.configuration, "no National Rail access token is configured"))
        }
        let response: HTTPResponse
        do {
            response = try await client.fetch(request.httpRequest(token: token, endpoint: endpoint), cache: request.cachePolicy).response
        } catch {
            throw record(error)
        }
        let parsed: DarwinResponse
        do {
            parsed = try DarwinParser.parse(response.body, status: response.status)
        } catch {
            // "No such service" is an answer, not a failure of the upstream.
            if error.code == .notFound { throw scrub(error) }
            throw record(error)
        }
        let madeAt: Instant
        switch parsed {
        case .board(let b): madeAt = b.generatedAt
        case .serviceDetails(let s): madeAt = s.generatedAt
        case .departures(let d): madeAt = d.generatedAt
        }
        health.withLock { $0 = .succeeded(dataMadeAt: madeAt) }
        return parsed
    }

    private func record(_ error: SourceError) -> SourceError {
        let safe = scrub(error)
        health.withLock { $0 = .failed(safe) }
        return safe
    }

    /// The error with every mention of the token and the endpoint removed (a
    /// transport error names its URL; a server might echo a request).
    private func scrub(_ error: SourceError) -> SourceError {
        var safe = error
        var secrets = [endpoint.absoluteString, endpoint.host ?? ""]
        // A token too short to be real (a misconfigured " ") would mangle every message.
        if token.trimmingCharacters(in: .whitespaces).count >= 4 { secrets.append(token) }
        for secret in secrets where !secret.isEmpty {
            safe.message = safe.message.replacingOccurrences(of: secret, with: "national-rail")
        }
        return safe
    }
}
