import OnwardCore
import TransitSources

/// Darwin values in the domain's terms: board rows, calling points, service details
/// and alerts, with National Rail's canonical IDs.
extension DarwinStationBoard {
    /// The rows for a departures board (services with a departure here: `std`) or an
    /// arrivals board (`sta`), in Darwin's order. A combined board's rows that only
    /// arrive (or only depart) are left out of the other kind.
    ///
    /// - Parameter via: for a filtered departures board, the CRS the rows call at
    ///   later: each row then gets `destinationArrival` there.
    public func entries(kind: SourceBoardRequest.Kind, via: String? = nil) -> [BoardEntry] {
        var clock = DarwinClock()
        return services.compactMap { $0.boardEntry(kind: kind, stationCRS: crs, stationName: locationName, via: via, clock: &clock) }
    }

    /// The board's NRCC messages as alerts about its station.
    public var stationAlerts: [Alert] { DarwinAlerts.station(nrccMessages, crs: crs) }

    /// Every row's service alerts (cancel and delay reasons).
    public var serviceAlerts: [Alert] { services.flatMap(\.alerts) }
}

extension DarwinService {
    /// The service's cancel, part-cancellation and delay reasons as alerts about it.
    public var alerts: [Alert] {
        DarwinAlerts.service(serviceID: serviceID, isCancelled: isCancelled, cancelReason: cancelReason,
                             delayReason: delayReason, callingPoints: previousCallingPoints + subsequentCallingPoints)
    }

    /// This service as a row of a board at `stationCRS`; nil when it has no time of
    /// that kind here (a departures board has no row for a train that ends here).
    public func boardEntry(kind: SourceBoardRequest.Kind, stationCRS: String, stationName: String,
                           via: String? = nil) -> BoardEntry? {
        var clock = DarwinClock()
        return boardEntry(kind: kind, stationCRS: stationCRS, stationName: stationName, via: via, clock: &clock)
    }

    func boardEntry(kind: SourceBoardRequest.Kind, stationCRS: String, stationName: String, via: String?,
                    clock: inout DarwinClock) -> BoardEntry? {
        guard let event = kind == .departures ? departure : arrival else { return nil }
        let code = operatorCode ?? ""
        var entry = BoardEntry(
            tripID: NationalRailIDs.service(serviceID), routeID: NationalRailIDs.route(code.isEmpty ? "unknown" : code),
            routeShortName: code, routeLongName: operatorName ?? code, routeColor: nil,
            // Darwin always names both ends; the calls stand in if a row ever lacks them.
            headsign: destinations.isEmpty ? (subsequentCallingPoints.first?.last?.location.name ?? "")
                : DarwinMapping.names(destinations, withVia: true),
            stopID: NationalRailIDs.station(stationCRS), stopName: stationName, platform: platform,
            serviceDate: clock.date(of: event.scheduled), scheduled: event.scheduled, timeZone: DarwinClock.zoneIdentifier,
            origin: origins.isEmpty ? (previousCallingPoints.first?.first?.location.name ?? "")
                : DarwinMapping.names(origins, withVia: false))
        entry.expected = event.expected
        entry.status = isCancelled ? .cancelled : event.status
        entry.delaySeconds = isCancelled ? nil : event.delaySeconds
        entry.operatorName = operatorName
        entry.reason = cancelReason ?? delayReason
        let lists = kind == .departures ? subsequentCallingPoints : previousCallingPoints
        let calls = DarwinMapping.merged(lists)
        entry.callingAt = calls
        if kind == .departures, let via, let call = calls.first(where: { $0.stopID == NationalRailIDs.station(via) }) {
            entry.destinationArrival = call.scheduledArrival
            entry.destinationStopID = call.stopID
        }
        return entry
    }
}

extension DarwinServiceDetails {
    /// The whole service as `ServiceDetails`: the calls before this station, this
    /// station, and the calls after it along the main portion.
    ///
    /// A train that divides (several subsequent lists) gets one `ServiceBranch` per
    /// other portion: `afterStopID` is the dividing station (each portion's list starts
    /// there; that shared call is not repeated in the branch), `calls` the portion's
    /// own calls after it. A portion that joins (several previous lists) also becomes
    /// a branch, whose `calls` come *before* `afterStopID`, the station where it joins;
    /// its times tell the two apart.
    public func serviceDetails(serviceID: String) -> ServiceDetails {
        var calls: [CallingPoint] = []
        calls += DarwinMapping.callingPoints(previousCallingPoints.first ?? [], startingAt: 0)
        if let here = hereCall(sequence: calls.count) { calls.append(here) }
        calls += DarwinMapping.callingPoints(subsequentCallingPoints.first ?? [], startingAt: calls.count)
        if !calls.isEmpty {
            calls[0].dropOff = .none
            calls[calls.count - 1].pickup = .none
        }
        let mainIDs = Set(calls.map(\.stopID))
        var branches: [ServiceBranch] = []
        for list in subsequentCallingPoints.dropFirst() {
            guard let first = list.first else { continue }
            let shared = DarwinMapping.stopID(first.location)
            let own = mainIDs.contains(shared) ? Array(list.dropFirst()) : list
            let start = (calls.firstIndex { $0.stopID == shared } ?? calls.count - 1) + 1
            var branchCalls = DarwinMapping.callingPoints(own, startingAt: start)
            if !branchCalls.isEmpty { branchCalls[branchCalls.count - 1].pickup = .none }
            branches.append(ServiceBranch(afterStopID: shared, headsign: own.last?.location.name ?? first.location.name,
                                          calls: branchCalls))
        }
        let headsign = ([calls.last?.stopName].compactMap { $0 } + branches.map(\.headsign)).joined(separator: " & ")
        for list in previousCallingPoints.dropFirst() {
            guard let last = list.last else { continue }
            let shared = DarwinMapping.stopID(last.location)
            let own = mainIDs.contains(shared) ? Array(list.dropLast()) : list
            var branchCalls = DarwinMapping.callingPoints(own, startingAt: 0)
            if !branchCalls.isEmpty { branchCalls[0].dropOff = .none }
            branches.append(ServiceBranch(afterStopID: shared, headsign: headsign, calls: branchCalls))
        }
        let code = operatorCode ?? ""
        let clock = DarwinClock()
        var details = ServiceDetails(
            tripID: NationalRailIDs.service(serviceID), routeID: NationalRailIDs.route(code.isEmpty ? "unknown" : code),
            routeShortName: code, routeLongName: operatorName ?? code, headsign: headsign,
            // The day the service starts, as a timetable would date it.
            serviceDate: clock.date(of: calls.first?.scheduledDeparture ?? generatedAt), calls: calls)
        details.isCancelled = isCancelled
        details.operatorName = operatorName
        details.reason = cancelReason ?? delayReason
        details.branches = branches
        return details
    }

    /// The service's cancel and delay reasons as alerts about it.
    public func alerts(serviceID: String) -> [Alert] {
        DarwinAlerts.service(serviceID: serviceID, isCancelled: isCancelled, cancelReason: cancelReason,
                             delayReason: delayReason, callingPoints: previousCallingPoints + subsequentCallingPoints)
    }

    private func hereCall(sequence: Int) -> CallingPoint? {
        guard let main = departure ?? arrival else { return nil }
        var call = CallingPoint(
            stopID: DarwinMapping.stopID(location), stopName: location.name, platform: platform, stopSequence: sequence,
            scheduledArrival: arrival?.scheduled ?? main.scheduled, scheduledDeparture: departure?.scheduled ?? main.scheduled,
            timeZone: DarwinClock.zoneIdentifier, pickup: .regular, dropOff: .regular, isTimepoint: true, stopHeadsign: nil)
        call.expectedArrival = (arrival ?? main).expected
        call.expectedDeparture = (departure ?? main).expected
        call.status = isCancelled ? .cancelled : main.status
        call.delaySeconds = isCancelled ? nil : main.delaySeconds
        return call
    }
}

enum DarwinMapping {
    /// "Caterham & Tattenham Corner"; with `withVia`, "Crewe via Stockport", and a via
    /// shared by every place said once ("Chichester & Bognor Regis via Horsham").
    static func names(_ locations: [DarwinLocation], withVia: Bool) -> String {
        let names = locations.map(\.name)
        guard withVia else { return names.joined(separator: " & ") }
        let vias = locations.map { $0.via?.trimmingSpaces ?? "" }
        if locations.count > 1, let via = vias.first, !via.isEmpty, vias.allSatisfy({ $0 == via }) {
            return names.joined(separator: " & ") + " " + via
        }
        return zip(names, vias).map { $1.isEmpty ? $0 : $0 + " " + $1 }.joined(separator: " & ")
    }

    static func stopID(_ location: DarwinLocation) -> String { NationalRailIDs.station(location.crs ?? location.name) }

    /// Calling points with a time, numbered from `startingAt`.
    static func callingPoints(_ points: [DarwinCallingPoint], startingAt first: Int) -> [CallingPoint] {
        var out: [CallingPoint] = []
        for p in points {
            guard let time = p.time else { continue }
            var call = CallingPoint(
                stopID: stopID(p.location), stopName: p.location.name, platform: nil, stopSequence: first + out.count,
                scheduledArrival: time.scheduled, scheduledDeparture: time.scheduled, timeZone: DarwinClock.zoneIdentifier,
                pickup: .regular, dropOff: .regular, isTimepoint: true, stopHeadsign: nil)
            call.expectedArrival = time.expected
            call.expectedDeparture = time.expected
            call.status = time.status
            call.delaySeconds = time.delaySeconds
            out.append(call)
        }
        return out
    }

    /// One list of every place a board row calls at: the main portion's calls, then
    /// each other portion's calls that are not already listed (its shared dividing or
    /// joining station is).
    static func merged(_ lists: [[DarwinCallingPoint]]) -> [CallingPoint] {
        var calls = callingPoints(lists.first ?? [], startingAt: 0)
        var seen = Set(calls.map(\.stopID))
        for list in lists.dropFirst() {
            let extra = list.filter { !seen.contains(stopID($0.location)) }
            let more = callingPoints(extra, startingAt: calls.count)
            for call in more { seen.insert(call.stopID) }
            calls += more
        }
        return calls
    }
}
