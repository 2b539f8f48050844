import DataSources
import OnwardCore
import Synchronization
import TransitSources

extension CTABusTrackerSource {
    /// How far a board's `at` may be from its `now` and still mean "now", in seconds.
    static let nowTolerance: Int64 = 120

    /// The stop's predictions as a departures board, with its bulletins: High priority
    /// above the rows, the rest below (`BoardAlerts`), as the bus tracker shows them.
    ///
    /// Only now: the bus tracker has predictions, not a timetable, so a board for another
    /// time is refused, and so is a board of buses calling at a second stop.
    public func board(_ request: SourceBoardRequest) async throws(SourceError) -> SourceBoard {
        if let at = request.at, abs(at.epochSeconds - request.now.epochSeconds) > Self.nowTolerance {
            throw SourceError(.invalidRequest, "The CTA bus tracker shows predictions for now only: it has no timetable "
                              + "for another date or time.", parameter: "time")
        }
        if request.via != nil {
            throw SourceError(.unsupported, "The CTA bus tracker cannot show only the buses that call at a second stop.",
                              parameter: "via")
        }
        guard request.kind == .departures else { throw unsupported("arrivals boards") }
        let stop = try localID(request.stopID, kind: "stop")

        // Both at once: a traveller waits for the slower of the two, not their sum.
        async let predictionsOutcome = outcome { () async throws(SourceError) in
            try await self.loadPredictions(CTARequest.predictions(stopIDs: [stop])[0])
        }
        async let bulletinsOutcome = outcome { () async throws(SourceError) in
            try await self.loadBulletins(.serviceBulletins(stopID: stop))
        }
        let loaded = try await predictionsOutcome.get()
        let bulletins = await bulletinsOutcome

        let answer = loaded.value
        let atStop = answer.items.filter { $0.stopID == stop }
        guard let place = await resolvePlace(stop, seenIn: atStop.first) else {
            throw Self.unknownStop(stop, reason: answer.emptyReason)
        }

        // The bus tracker's own now (its `tmstmp`, plus how long a cached answer has been kept):
        // a board is what the upstream answered for its own now, so a clock that differs
        // from ours (or a replayed recording) still shows the buses it predicted.
        // A stale answer (served while the budget is spent or the bus tracker is down)
        // may hold buses already gone.
        let upstreamNow = atStop.map(\.madeAt).max().map { made in
            made.adding(seconds: max(0, min(request.now.epochSeconds - made.epochSeconds, loaded.ageSeconds)))
        } ?? request.now
        var rows = atStop.filter { $0.predicted.epochSeconds >= upstreamNow.epochSeconds - 60 }
        if let window = request.windowMinutes {
            rows = rows.filter { $0.predicted.epochSeconds <= upstreamNow.epochSeconds + Int64(window) * 60 }
        }
        if let limit = request.limit { rows = Array(rows.prefix(max(0, limit))) }
        let routes = state.withLock { $0.routes }
        let entries = rows.map { $0.boardEntry(route: routes[$0.route]) }

        var board = SourceBoard(place: place, kind: .departures, entries: entries)
        var unavailable: [String] = []
        switch bulletins {
        case .success(let b):
            let alerts = b.value.items.map { $0.alert() }
            board.alerts = BoardAlerts(alerts)
            board.entryAlertIDs = entries.map { entry in
                alerts.filter { alert in
                    alert.informedEntities.contains { $0.routeID == entry.routeID && ($0.stopID == nil || $0.stopID == entry.stopID) }
                }.map(\.id)
            }
        case .failure(let error):
            // The rows still stand; the board says what it could not read.
            unavailable.append(error.message)
        }
        board.live = LiveInfo(updatedAt: atStop.map(\.madeAt).max() ?? request.now, stale: loaded.isStale,
                              unavailable: unavailable)
        if entries.isEmpty, let reason = answer.emptyReason { board.emptyReason = Self.travellerReason(reason) }
        return board
    }

    /// The stop as a place, with its name from the bus tracker: from a `getstops` answer,
    /// else from its predictions (`stpnm`). Never a place named by its ID.
    public func place(_ stopID: String) async throws(SourceError) -> StopPlace {
        let stop = try localID(stopID, kind: "stop")
        if let known = state.withLock({ $0.stops[stop] }) { return known.place }
        let loaded = try await loadPredictions(CTARequest.predictions(stopIDs: [stop])[0])
        if let place = await resolvePlace(stop, seenIn: loaded.value.items.first { $0.stopID == stop }) { return place }
        throw Self.unknownStop(stop, reason: loaded.value.emptyReason)
    }

    /// Predictions at many stops, in as few requests as the bus tracker allows (ten stops
    /// each, sent at once), merged earliest first. The countdowns are on the predictions.
    /// - Parameters:
    ///   - stopIDs: canonical (`cta:1926`) or the bus tracker's own (`1926`).
    ///   - routeID: only this route's predictions.
    /// - Throws: the first failed request's error (a refused key or a spent allowance fails them all).
    public func predictions(stopIDs: [String], routeID: String? = nil) async throws(SourceError) -> CTAAnswer<CTAPrediction> {
        var stops: [String] = []
        for id in stopIDs { stops.append(try localID(id, kind: "stop")) }
        let route = try routeID.map { id throws(SourceError) in try localID(id, kind: "route") }
        let requests = CTARequest.predictions(stopIDs: stops, route: route)
        guard !requests.isEmpty else { return CTAAnswer(items: []) }

        let outcomes = await withTaskGroup(of: (Int, Result<CTALoaded<CTAAnswer<CTAPrediction>>, SourceError>).self) { group in
            for (index, request) in requests.enumerated() {
                group.addTask {
                    (index, await self.outcome { () async throws(SourceError) in try await self.loadPredictions(request) })
                }
            }
            var results: [(Int, Result<CTALoaded<CTAAnswer<CTAPrediction>>, SourceError>)] = []
            for await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }

        var merged = CTAAnswer<CTAPrediction>(items: [])
        for outcome in outcomes {
            let answer = try outcome.get().value
            merged.items += answer.items
            merged.messages += answer.messages
            if merged.emptyReason == nil { merged.emptyReason = answer.emptyReason }
        }
        merged.items.sort { ($0.predicted, $0.route, $0.vehicleID) < ($1.predicted, $1.route, $1.vehicleID) }
        if !merged.items.isEmpty { merged.emptyReason = nil }
        return merged
    }

    // MARK: - Inside

    func loadPredictions(_ request: CTARequest) async throws(SourceError) -> CTALoaded<CTAAnswer<CTAPrediction>> {
        let loaded = try await load(request) { (data, now) throws(SourceError) in try CTAParser.predictions(data, now: now) }
        state.withLock { $0.remember(loaded.value.items) }
        return loaded
    }

    func loadBulletins(_ request: CTARequest) async throws(SourceError) -> CTALoaded<CTAAnswer<CTABulletin>> {
        try await load(request) { (data, _) throws(SourceError) in try CTAParser.bulletins(data) }
    }

    /// A place for `stop` when its name is known: a `getstops` answer, or a prediction.
    ///
    /// Predictions carry no coordinates, so the stop list of the prediction's route and
    /// direction is read for them (cached for hours, so once a day per direction at most).
    /// When that list cannot be read, the place keeps its name with coordinates 0, 0.
    func resolvePlace(_ stop: String, seenIn prediction: CTAPrediction?) async -> StopPlace? {
        let (known, rememberedName) = state.withLock { ($0.stops[stop], $0.stopName(stop)) }
        if let known { return known.place }
        let name = prediction.map(\.stopName).flatMap { $0.isEmpty ? nil : $0 } ?? rememberedName
        guard let name else { return nil }
        if let prediction, CTAIDs.local(prediction.route) != nil, CTAIDs.isValidDirection(prediction.routeDirection),
           let listed = try? await loadStops(route: prediction.route, direction: prediction.routeDirection),
           let stopPlace = listed.first(where: { $0.id == stop }) {
            return stopPlace.place
        }
        return StopPlace(id: CTAIDs.canonical(stop), name: name, code: stop, kind: .stop, latitude: 0, longitude: 0,
                         parentID: nil, platform: nil, timeZone: CTATime.timeZoneIdentifier)
    }

    func loadStops(route: String, direction: String) async throws(SourceError) -> [CTAStop] {
        let loaded = try await load(.stops(route: route, direction: direction)) { (data, _) throws(SourceError) in
            try CTAParser.stops(data)
        }
        state.withLock { $0.remember(loaded.value.items) }
        return loaded.value.items
    }

    /// The bus tracker's own ID inside a canonical one, or `.notFound` without a request.
    func localID(_ id: String, kind: String) throws(SourceError) -> String {
        guard let local = CTAIDs.local(id) else {
            // The ID is not echoed: it is the caller's text, not the bus tracker's.
            throw SourceError(.notFound, "cta: that is not a CTA bus tracker \(kind) ID")
        }
        return local
    }

    static func unknownStop(_ stop: String, reason: String?) -> SourceError {
        SourceError(.notFound, "cta: stop \(stop) has no predictions now\(reason.map { " (\($0))" } ?? "") and is not in "
                    + "any stop list read so far, so its name is unknown; browse its route to find it")
    }

    /// The bus tracker's "nothing now" text as a board shows it.
    static func travellerReason(_ reason: String) -> String {
        reason.lowercased().contains("no data found") ? "No arrival times" : reason
    }

    /// Runs `body`, catching its error as a value: for `async let` and task groups,
    /// which do not carry a typed error through.
    func outcome<T: Sendable>(_ body: () async throws(SourceError) -> T) async -> Result<T, SourceError> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }
}
