import CTABusTracker
import DataSources
import Foundation
import OnwardCore
import OnwardTesting
import Testing
import TransitSources

/// The adapter over a fake bus tracker answering with the recordings.
@Suite(.needsRecordings) struct CTABusTrackerSourceTests {
    static let key = "TEST-KEY-0123456789abcdef"
    /// 2015-02-14 12:22 in Chicago, between the rt22 recording's timestamps and predictions.
    static let clarkNow = utc(2015, 2, 14, 18, 22)

    func make(now: Instant, key: String = Self.key, dailyLimit: Int? = 10_000) -> (CTABusTrackerSource, FakeBusTracker, TestNow) {
        let fake = FakeBusTracker(key: key)
        let clock = TestNow(now)
        let source = CTABusTrackerSource(key: key, fetcher: fake, now: clock.closure, dailyLimit: dailyLimit, retry: .none)
        return (source, fake, clock)
    }

    func stubClarkAndHarrison(_ fake: FakeBusTracker) async throws {
        try await fake.stub(.predictions, ["stpid": "15895"], file: "v2xml_getpredictions_rt22_stpid15895.xml")
        try await fake.stub(.serviceBulletins, ["stpid": "15895"], file: "v2xml_getservicebulletins_rt8.xml")
        try await fake.stub(.stops, ["rt": "22", "dir": "Northbound"], file: "v2xml_getstops_rt22_northbound.xml")
    }

    @Test func declaresWhatItCanAnswer() {
        let (source, _, _) = make(now: Self.clarkNow)
        #expect(source.sourceNames == ["cta"])
        #expect(source.displayName == "CTA Bus Tracker")
        #expect(source.capabilities == [.departures, .alerts, .browse, .vehicles])
        #expect(!source.capabilities.contains(.stopSearch) && !source.capabilities.contains(.anyTime))
        #expect(source.status(now: Self.clarkNow) == [SourceStatus(name: "cta", state: .idle, budgetRemaining: nil)])
    }

    @Test func aBoardFromPredictionsAndBulletins() async throws {
        let (source, fake, _) = make(now: Self.clarkNow)
        try await stubClarkAndHarrison(fake)
        let board = try await source.board(SourceBoardRequest(stopID: "cta:15895", now: Self.clarkNow))

        #expect(board.place == StopPlace(id: "cta:15895", name: "Clark & Harrison", code: "15895", kind: .stop,
                                         latitude: 41.874054707633, longitude: -87.630702853203, parentID: nil, platform: nil,
                                         timeZone: "America/Chicago"))
        #expect(board.kind == .departures)
        #expect(board.entries.map(\.tripID) == ["cta:204510", "cta:204511"])
        #expect(board.entries.map(\.expected) == [utc(2015, 2, 14, 18, 25), utc(2015, 2, 14, 18, 35)])
        #expect(board.entries.allSatisfy { !$0.hasScheduledTime && $0.scheduled == $0.expected && $0.status == .onTime })
        #expect(board.entries.allSatisfy { $0.routeID == "cta:22" && $0.headsign == "Howard" && $0.stopName == "Clark & Harrison" })
        #expect(board.alerts?.highPriority.isEmpty == true)
        #expect(board.alerts?.other.count == 6)
        // Route 8's bulletins say nothing of route 22's rows.
        #expect(board.entryAlertIDs == [[], []])
        #expect(board.live == LiveInfo(updatedAt: utc(2015, 2, 14, 18, 21)))
        #expect(board.emptyReason == nil)
        #expect(await fake.received.count == 3)

        // Within the predictions' 30 s the board is answered from the cache, and the stop is known.
        _ = try await source.board(SourceBoardRequest(stopID: "cta:15895", now: Self.clarkNow))
        #expect(try await source.place("cta:15895").name == "Clark & Harrison")
        #expect(await fake.received.count == 3)
        #expect(source.recognizes(localID: "15895", as: .stop))
        #expect(source.recognizes(localID: "1926", as: .stop))
        #expect(!source.recognizes(localID: "4727", as: .stop))
        #expect(source.status(now: Self.clarkNow).first?.state == .fresh)
    }

    @Test func aBoardLimitedByRowsOrMinutes() async throws {
        let (source, fake, _) = make(now: Self.clarkNow)
        try await stubClarkAndHarrison(fake)
        let one = try await source.board(SourceBoardRequest(stopID: "cta:15895", limit: 1, now: Self.clarkNow))
        #expect(one.entries.map(\.tripID) == ["cta:204510"])
        let fiveMinutes = try await source.board(SourceBoardRequest(stopID: "15895", windowMinutes: 5, now: Self.clarkNow))
        #expect(fiveMinutes.entries.map(\.tripID) == ["cta:204510"])
    }

    @Test func routeNamesAndColoursOnceRoutesAreRead() async throws {
        let (source, fake, _) = make(now: Self.clarkNow)
        try await stubClarkAndHarrison(fake)
        try await fake.stub(.routes, file: "v2xml_getroutes.xml")
        #expect(try await source.routes().count == 127)
        #expect(source.recognizes(localID: "22", as: .route))
        let board = try await source.board(SourceBoardRequest(stopID: "cta:15895", now: Self.clarkNow))
        #expect(board.entries.map(\.routeLongName) == ["Clark", "Clark"])
        #expect(board.entries.map(\.routeColor) == ["CC3300", "CC3300"])
    }

    @Test func aHighPriorityBulletinGoesAboveTheRows() async throws {
        let now = utc(2018, 4, 5, 1, 25)
        let (source, fake, _) = make(now: now)
        try await fake.stub(.predictions, ["stpid": "4727"], file: "v2json_getpredictions_rt20_stpid4727.json")
        try await fake.stub(.stops, ["rt": "20", "dir": "Eastbound"], file: "v2json_getstops_rt20.json")
        await fake.stub(.serviceBulletins, ["stpid": "4727"], body: Data(#"""
        {"bustime-response": {"sb": [
          {"nm": "Madison detour", "sbj": "#20 Madison reroute", "dtl": "Buses detour via Washington.<br/>", "prty": "High",
           "srvc": [{"rt": "20", "rtdir": "", "stpid": "", "stpnm": ""}]},
          {"nm": "Stop relocation", "sbj": "Stop relocation", "dtl": "A stop moves.", "prty": "Low",
           "srvc": [{"rt": "", "rtdir": "", "stpid": "4727", "stpnm": "1633 W Madison"}]}]}}
        """#.utf8))
        let board = try await source.board(SourceBoardRequest(stopID: "cta:4727", now: now))
        #expect(board.entries.count == 3)
        #expect(board.entries.map { $0.expected } == [utc(2018, 4, 5, 1, 27), utc(2018, 4, 5, 1, 38), utc(2018, 4, 5, 1, 53)])
        #expect(board.entries.allSatisfy { $0.serviceDate == ServiceDate(year: 2018, month: 4, day: 4) })
        let high = try #require(board.alerts?.highPriority.first)
        #expect(high.header == LocalizedText("Madison detour") && high.severity == .severe)
        #expect(board.alerts?.other.map(\.header) == [LocalizedText("Stop relocation")])
        // The route's bulletin belongs to every row; the stop's is a station alert.
        #expect(board.entryAlertIDs == [[high.id], [high.id], [high.id]])
        #expect(board.place.name == "1633 W Madison" && board.place.latitude == 41.881383249235)
        #expect(board.live?.updatedAt == utc(2018, 4, 5, 1, 24))
    }

    @Test func noArrivalTimesIsAnEmptyBoardWithItsReason() async throws {
        let now = utc(2018, 4, 5, 1, 25)
        let (source, fake, _) = make(now: now)
        // Stop 70 listed by its route, then asked for its board.
        await fake.stub(.stops, ["rt": "1", "dir": "Northbound"], body: Data(#"""
        {"bustime-response": {"stops": [{"stpid": "70", "stpnm": "Test stop seventy", "lat": 41.8, "lon": -87.6}]}}
        """#.utf8))
        try await fake.stub(.predictions, ["stpid": "70"], file: "v2json_getpredictions_error_no_arrival_times_rt1.json")
        await fake.stub(.serviceBulletins, ["stpid": "70"], body: Data(#"{"bustime-response": {}}"#.utf8))
        #expect(try await source.stops(routeID: "cta:1", directionID: "Northbound").map(\.name) == ["Test stop seventy"])
        let board = try await source.board(SourceBoardRequest(stopID: "cta:70", now: now))
        #expect(board.entries.isEmpty)
        #expect(board.emptyReason == "No arrival times")
        #expect(board.place.name == "Test stop seventy")
        #expect(board.alerts == BoardAlerts())
        #expect(board.live?.updatedAt == now)
    }

    @Test func aStopWhoseNameIsUnknownIsNotFound() async throws {
        let now = utc(2018, 4, 5, 1, 25)
        let (source, fake, _) = make(now: now)
        try await fake.stub(.predictions, ["stpid": "70"], file: "v2json_getpredictions_error_no_arrival_times_rt1.json")
        await fake.stub(.serviceBulletins, ["stpid": "70"], body: Data(#"{"bustime-response": {}}"#.utf8))
        await #expect(throws: SourceError.self) { try await source.place("cta:70") }
        do {
            _ = try await source.board(SourceBoardRequest(stopID: "cta:70", now: now))
            Issue.record("a board for a stop with no name")
        } catch {
            #expect(error.code == .notFound)
            #expect(error.message.contains("stop 70") && error.message.contains("No arrival times"))
        }
    }

    @Test func aPlaceNamedByItsPredictions() async throws {
        let (source, fake, _) = make(now: Self.clarkNow)
        try await fake.stub(.predictions, ["stpid": "15895"], file: "v2xml_getpredictions_rt22_stpid15895.xml")
        await fake.stub(.stops, ["rt": "22", "dir": "Northbound"], error: SourceError(.timeout, "slow"))
        // The stop list for coordinates could not be read: the name stands, at 0, 0.
        let place = try await source.place("cta:15895")
        #expect(place.name == "Clark & Harrison" && place.id == "cta:15895" && place.code == "15895")
        #expect(place.latitude == 0 && place.longitude == 0)
        #expect(!source.recognizes(localID: "15895", as: .stop))
    }

    @Test func aBoardOnlyForNowAndWithoutACallingAtStop() async throws {
        let (source, fake, _) = make(now: Self.clarkNow)
        let later = SourceBoardRequest(stopID: "cta:15895", at: Self.clarkNow.adding(seconds: 3600), now: Self.clarkNow)
        await #expect(throws: SourceError(.invalidRequest, "The CTA bus tracker shows predictions for now only: it has no "
                                          + "timetable for another date or time.", parameter: "time")) {
            try await source.board(later)
        }
        do {
            _ = try await source.board(SourceBoardRequest(stopID: "cta:15895", via: "cta:1926", now: Self.clarkNow))
            Issue.record("via accepted")
        } catch {
            #expect(error.code == .unsupported && error.parameter == "via")
        }
        await #expect(throws: SourceError.self) {
            try await source.board(SourceBoardRequest(kind: .arrivals, stopID: "cta:15895", now: Self.clarkNow))
        }
        for id in ["halifax:15895", "cta:15895,1926", "cta:", "cta:../x"] {
            do {
                _ = try await source.board(SourceBoardRequest(stopID: id, now: Self.clarkNow))
                Issue.record("\(id) accepted")
            } catch {
                #expect(error.code == .notFound)
            }
        }
        #expect(await fake.received.isEmpty)
    }

    @Test func twentyThreeStopsAreThreeRequests() async throws {
        let (source, fake, _) = make(now: Self.clarkNow)
        let firstTen: [String] = ["4727"] + (101...109).map(String.init)
        let secondTen: [String] = ["15895"] + (201...209).map(String.init)
        let stops: [String] = firstTen + secondTen + ["70", "301", "302"]
        #expect(stops.count == 23)
        try await fake.stub(.predictions, ["stpid": stops[0..<10].joined(separator: ",")], file: "v2json_getpredictions_rt20_stpid4727.json")
        try await fake.stub(.predictions, ["stpid": stops[10..<20].joined(separator: ",")], file: "v2xml_getpredictions_rt22_stpid15895.xml")
        try await fake.stub(.predictions, ["stpid": stops[20..<23].joined(separator: ",")],
                            file: "v2json_getpredictions_error_no_arrival_times_rt1.json")
        let answer = try await source.predictions(stopIDs: stops.map { "cta:" + $0 })
        let sent = await fake.requests(to: .predictions).map { $0.parameters["stpid"]?.split(separator: ",").count }
        #expect(sent.sorted { ($0 ?? 0) > ($1 ?? 0) } == [10, 10, 3])
        #expect(await fake.received.count == 3)
        // Merged earliest first: the 2015 recording before the 2018 one; the countdowns kept.
        #expect(answer.items.map(\.stopID) == ["15895", "15895", "4727", "4727", "4727"])
        #expect(answer.items.map(\.countdown) == [.minutes(3), .minutes(14), .minutes(3), .minutes(14), .minutes(29)])
        #expect(answer.emptyReason == nil)
        #expect(answer.messages.map(\.kind) == [.noData])
    }

    @Test func browsingRoutesDirectionsStops() async throws {
        let (source, fake, _) = make(now: Self.clarkNow)
        try await fake.stub(.routes, file: "v2xml_getroutes.xml")
        try await fake.stub(.directions, ["rt": "22"], file: "v2xml_getdirections_rt22.xml")
        try await fake.stub(.stops, ["rt": "22", "dir": "Northbound"], file: "v2xml_getstops_rt22_northbound.xml")
        let routes = try await source.routes()
        #expect(routes.count == 127 && routes[0] == RouteSummary(id: "cta:1", shortName: "1", longName: "Bronzeville/Union Station", color: "336633"))
        #expect(try await source.directions(routeID: "cta:22").map(\.id) == ["Northbound", "Southbound"])
        let stops = try await source.stops(routeID: "cta:22", directionID: "Northbound")
        #expect(stops.count == 86 && stops[0].id == "cta:1926" && stops[0].name == "Clark & Addison")
        #expect(source.recognizes(localID: "1926", as: .stop) && !source.recognizes(localID: "99999", as: .stop))
        #expect(!source.recognizes(localID: "204510", as: .service))
        await #expect(throws: SourceError.self) { try await source.stops(routeID: "cta:22", directionID: "North&bound") }
        #expect(await fake.received.count == 3)
    }

    @Test func vehiclesOnARoute() async throws {
        let (source, fake, _) = make(now: Self.clarkNow)
        try await fake.stub(.vehicles, ["rt": "22"], file: "v2xml_getvehicles_rt22.xml")
        let answer = try await source.vehicles(routeID: "cta:22", now: Self.clarkNow)
        #expect(answer.vehicles.count == 13)
        #expect(answer.vehicles[0].tripID == "cta:204506" && answer.vehicles[0].vehicle.bearing == 178)
        #expect(answer.live?.updatedAt == utc(2015, 2, 14, 17, 41))
        let buses = try await source.buses(routeID: "22")
        #expect(buses.value.items.map(\.patternDistance).first == 115)
        do {
            _ = try await source.vehicles(routeID: nil, now: Self.clarkNow)
            Issue.record("vehicles without a route")
        } catch {
            #expect(error.code == .invalidRequest && error.parameter == "route")
        }
    }

    @Test func alertsForARouteOrAStop() async throws {
        let (source, fake, _) = make(now: Self.clarkNow)
        try await fake.stub(.serviceBulletins, ["rt": "8"], file: "v2xml_getservicebulletins_rt8.xml")
        let alerts = try await source.alerts(.route("cta:8"), now: Self.clarkNow)
        #expect(alerts.alerts.count == 6 && alerts.total == 6 && alerts.inactiveCount == 0)
        #expect(alerts.alerts.map(\.severity) == [.warning, .warning, .info, .info, .info, .info])
        #expect(alerts.timeZone == "America/Chicago" && alerts.place == nil)
        for scope in [AlertScope.all, .service("cta:204510")] {
            do {
                _ = try await source.alerts(scope, now: Self.clarkNow)
                Issue.record("\(scope) accepted")
            } catch {
                #expect(error.code == .unsupported)
            }
        }
    }

    /// Predictions in the hour repeated when clocks go back are read against the answer's
    /// own timestamp, itself read against the adapter's clock.
    @Test func predictionsAcrossTheFallBack() async throws {
        let now = utc(2019, 11, 3, 6, 59) // 01:59 CDT
        let (source, fake, _) = make(now: now)
        await fake.stub(.predictions, ["stpid": "1926"], body: Data(#"""
        {"bustime-response": {"prd": [
          {"tmstmp": "20191103 01:58", "typ": "A", "stpnm": "Clark & Addison", "stpid": "1926", "vid": "1", "rt": "22",
           "rtdir": "Northbound", "des": "Howard", "prdtm": "20191103 01:05", "tatripid": "9", "dly": false, "prdctdn": "6"}]}}
        """#.utf8))
        let answer = try await source.predictions(stopIDs: ["cta:1926"])
        #expect(answer.items.map(\.madeAt) == [utc(2019, 11, 3, 6, 58)])
        #expect(answer.items.map(\.predicted) == [utc(2019, 11, 3, 7, 5)])
    }
}

/// Answers from the cache: current while a refresh runs, stale when the bus tracker fails.
@Suite(.needsRecordings) struct CTACachedBoardTests {
    let start = CTABusTrackerSourceTests.clarkNow

    func make() async throws -> (CTABusTrackerSource, FakeBusTracker, TestNow) {
        let fake = FakeBusTracker(key: CTABusTrackerSourceTests.key)
        let clock = TestNow(start)
        let source = CTABusTrackerSource(key: CTABusTrackerSourceTests.key, fetcher: fake, now: clock.closure, retry: .none)
        try await fake.stub(.predictions, ["stpid": "15895"], file: "v2xml_getpredictions_rt22_stpid15895.xml")
        try await fake.stub(.serviceBulletins, ["stpid": "15895"], file: "v2xml_getservicebulletins_rt8.xml")
        try await fake.stub(.stops, ["rt": "22", "dir": "Northbound"], file: "v2xml_getstops_rt22_northbound.xml")
        #expect(try await source.board(SourceBoardRequest(stopID: "cta:15895", now: start)).live?.stale == false)
        return (source, fake, clock)
    }

    @Test func anAnswerServedWhileARefreshRunsIsCurrent() async throws {
        let (source, _, clock) = try await make()
        // 45 s on: past the predictions' 30 s, answered at once while a refresh runs.
        clock.set(start.adding(seconds: 45))
        let board = try await source.board(SourceBoardRequest(stopID: "cta:15895", now: start.adding(seconds: 45)))
        #expect(board.live?.stale == false && board.entries.count == 2)
    }

    @Test func anAnswerServedBecauseTheBusTrackerFailsIsStale() async throws {
        let (source, fake, clock) = try await make()
        // 100 s on, the bus tracker is down: the last answer, marked stale, not an error.
        clock.set(start.adding(seconds: 100))
        await fake.stub(.predictions, ["stpid": "15895"], error: SourceError(.network, "down"))
        let board = try await source.board(SourceBoardRequest(stopID: "cta:15895", now: start.adding(seconds: 100)))
        #expect(board.live?.stale == true)
        #expect(board.entries.map(\.tripID) == ["cta:204510", "cta:204511"])
    }
}
