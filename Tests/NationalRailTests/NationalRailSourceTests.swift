import DataSources
import Foundation
import NationalRail
import OnwardCore
import Testing
import TransitSources

/// A fake Darwin: each expected request (recognised by strings its SOAP body must
/// contain) gets a recorded answer; anything else is a test failure, loudly.
actor FakeDarwin: HTTPFetching {
    struct Route {
        var mustContain: [String]
        var reply: Result<HTTPResponse, SourceError>
    }

    private var routes: [Route] = []
    private(set) var requests: [HTTPRequest] = []

    func on(_ mustContain: [String], file: String) throws {
        routes.append(Route(mustContain: mustContain, reply: .success(HTTPResponse(status: 200, body: try DarwinFixtures.darwin(file)))))
    }

    func on(_ mustContain: [String], status: Int, body: Data) {
        routes.append(Route(mustContain: mustContain, reply: .success(HTTPResponse(status: status, body: body))))
    }

    func on(_ mustContain: [String], error: SourceError) {
        routes.append(Route(mustContain: mustContain, reply: .failure(error)))
    }

    func fetch(_ request: HTTPRequest) async throws(SourceError) -> HTTPResponse {
        requests.append(request)
        let body = String(decoding: request.body ?? Data(), as: UTF8.self)
        guard let route = routes.first(where: { $0.mustContain.allSatisfy(body.contains) }) else {
            Issue.record("FakeDarwin: unexpected request \(request.headers["SOAPAction"] ?? "?"): \(body)")
            throw SourceError(.rejected, "FakeDarwin has no answer for this request")
        }
        return try route.reply.get()
    }
}

@Suite(.enabled(if: DarwinFixtures.available, DarwinFixtures.skipMessage))
struct NationalRailSourceTests {
    static let token = "0123-secret-token"
    static let endpoint = URL(string: "https://ldb.example.invalid/OpenLDBWS/ldb12.asmx")!

    func source(_ fake: FakeDarwin, now: String) -> NationalRailSource {
        let instant = DarwinFixtures.utc(now)
        return NationalRailSource(token: Self.token, endpoint: Self.endpoint, fetcher: fake, now: { instant })
    }

    @Test func describesItself() {
        let s = source(FakeDarwin(), now: "2025-02-14T16:52:00Z")
        #expect(s.sourceNames == ["national-rail"] && s.displayName == "National Rail")
        #expect(s.capabilities.isSuperset(of: [.stopSearch, .nearby, .departures, .arrivals, .callingAtFilter, .serviceDetails, .alerts]))
        #expect(!s.capabilities.contains(.anyTime) && !s.capabilities.contains(.browse))
        #expect(s.recognizes(localID: "ECR", as: .stop) && s.recognizes(localID: "ecr", as: .stop))
        #expect(!s.recognizes(localID: "XYZ", as: .stop) && !s.recognizes(localID: "ECR", as: .service))
        #expect(s.status(now: DarwinFixtures.utc("2025-02-14T16:52:00Z")) == [SourceStatus(name: "national-rail", state: .idle)])
        #expect(NationalRailSource.defaultEndpoint.absoluteString == "https://lite.realtime.nationalrail.co.uk/OpenLDBWS/ldb12.asmx")
    }

    @Test func stationsWithoutRequests() async throws {
        let s = source(FakeDarwin(), now: "2025-02-14T16:52:00Z")
        #expect(try await s.place("national-rail:ECR").name == "East Croydon")
        #expect(try await s.place("KGX").id == "national-rail:KGX")
        await #expect(throws: SourceError.self) { try await s.place("national-rail:ZZZ") }
        await #expect(throws: SourceError.self) { try await s.place("halifax:ECR") }
        #expect(try await s.searchStops("croydon", limit: 2).map(\.id) == ["national-rail:ECR", "national-rail:WCY"])
        let near = try await s.nearbyStops(latitude: 51.375679, longitude: -0.093335, radius: 1000, limit: 5)
        #expect(near.map(\.id) == ["national-rail:ECR", "national-rail:WCY"] && near[1].distance! > 600)
    }

    @Test func departureBoard() async throws {
        let fake = FakeDarwin()
        try await fake.on(["<ldb:GetDepBoardWithDetailsRequest>", "<ldb:crs>ECR</ldb:crs>"], file: "departure-board-with-details.xml")
        let s = source(fake, now: "2025-02-14T16:52:27Z")
        let board = try await s.board(SourceBoardRequest(stopID: "national-rail:ECR", now: DarwinFixtures.utc("2025-02-14T16:52:27Z")))
        #expect(board.place.id == "national-rail:ECR" && board.kind == .departures && board.via == nil)
        #expect(board.entries.count == 10 && board.emptyReason == nil)
        #expect(board.live == LiveInfo(updatedAt: DarwinFixtures.utc("2025-02-14T16:52:27Z"), stale: false))
        // Two station notices, both high priority (disruption, cancellations), and the rows' own notices.
        let alerts = try #require(board.alerts)
        #expect(alerts.highPriority.filter { $0.id.hasPrefix("national-rail:nrcc:") }.count == 2)
        #expect(alerts.highPriority.contains { $0.id == "national-rail:cancel:4123777ECROYDN_" })
        let ids = try #require(board.entryAlertIDs)
        #expect(ids.count == 10 && ids[0] == ["national-rail:delay:4125791ECROYDN_"])
        let cancelledRow = try #require(board.entries.firstIndex { $0.status == .cancelled })
        #expect(ids[cancelledRow] == ["national-rail:cancel:4123777ECROYDN_"])

        let request = try #require(await fake.requests.first)
        let body = String(decoding: request.body ?? Data(), as: UTF8.self)
        #expect(body.contains("<typ:TokenValue>\(Self.token)</typ:TokenValue>"))
        #expect(body.contains("<ldb:numRows>10</ldb:numRows><ldb:crs>ECR</ldb:crs><ldb:timeOffset>0</ldb:timeOffset><ldb:timeWindow>120</ldb:timeWindow>"))
        #expect(request.url == Self.endpoint && request.method == .post && request.isIdempotentRead)
        #expect(s.status(now: DarwinFixtures.utc("2025-02-14T16:53:27Z")) == [SourceStatus(name: "national-rail", state: .fresh, ageSeconds: 60)])
    }

    @Test func callingAtBoardAnHourAhead() async throws {
        let fake = FakeDarwin()
        try await fake.on(["<ldb:numRows>5</ldb:numRows><ldb:crs>ECR</ldb:crs><ldb:filterCrs>KND</ldb:filterCrs><ldb:filterType>to</ldb:filterType>"
                           + "<ldb:timeOffset>30</ldb:timeOffset><ldb:timeWindow>60</ldb:timeWindow>"],
                          file: "soap_depboardwithdetails_ECR_nrcc_cancelled_2019-2.xml")
        let now = "2020-02-24T17:01:54Z"
        let s = source(fake, now: now)
        let board = try await s.board(SourceBoardRequest(stopID: "national-rail:ECR", via: "national-rail:KND",
                                                         at: DarwinFixtures.utc("2020-02-24T17:31:54Z"), windowMinutes: 60, limit: 5,
                                                         now: DarwinFixtures.utc(now)))
        #expect(board.via?.name == "Kingswood")
        #expect(board.entries.count == 7 && board.entries[0].destinationArrival == DarwinFixtures.utc("2020-02-24T18:05:00Z"))
        // Three distinct notices (one was sent twice); the closed line is above the rows.
        #expect(board.alerts?.highPriority.contains { $0.header.best(for: ["en"])?.hasPrefix("Line closed") == true } == true)
        #expect((board.alerts.map { $0.highPriority + $0.other } ?? []).filter { $0.id.contains(":nrcc:") }.count == 3)
    }

    @Test func arrivalsFromAStation() async throws {
        let fake = FakeDarwin()
        try await fake.on(["<ldb:GetArrBoardWithDetailsRequest>", "<ldb:filterCrs>BTN</ldb:filterCrs><ldb:filterType>from</ldb:filterType>"],
                          file: "arrival-board-with-details.xml")
        let s = source(fake, now: "2025-02-14T16:51:00Z")
        let board = try await s.board(SourceBoardRequest(kind: .arrivals, stopID: "ECR", via: "BTN", now: DarwinFixtures.utc("2025-02-14T16:51:00Z")))
        #expect(board.kind == .arrivals && board.entries.count == 10 && board.entries[0].origin == "Littlehampton")
    }

    @Test func refusesATimeDarwinCannotSee() async throws {
        let fake = FakeDarwin()
        let now = DarwinFixtures.utc("2025-02-14T16:52:00Z")
        let s = source(fake, now: "2025-02-14T16:52:00Z")
        for at in [now.adding(seconds: 4 * 3600), now.adding(seconds: -3 * 3600), now.adding(seconds: 120 * 60)] {
            do {
                _ = try await s.board(SourceBoardRequest(stopID: "national-rail:ECR", at: at, now: now))
                Issue.record("a board at \(at) should be refused")
            } catch {
                #expect(error.code == .invalidRequest && error.parameter == "time")
                #expect(error.message.hasPrefix("National Rail boards show the next two hours only; "))
            }
        }
        #expect(await fake.requests.isEmpty)
        #expect(s.status(now: now).first?.state == .idle)
    }

    @Test func emptyBoardSaysWhy() async throws {
        let fake = FakeDarwin()
        let xml = """
            <soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>
            <GetDepBoardWithDetailsResponse xmlns="http://thalesgroup.com/RTTI/2021-11-01/ldb/"><GetStationBoardResult>
            <lt4:generatedAt>2025-02-14T23:52:27.1+00:00</lt4:generatedAt><lt4:locationName>Kingswood</lt4:locationName>
            <lt4:crs>KND</lt4:crs></GetStationBoardResult></GetDepBoardWithDetailsResponse></soap:Body></soap:Envelope>
            """
        await fake.on(["<ldb:crs>KND</ldb:crs>"], status: 200, body: Data(xml.utf8))
        let s = source(fake, now: "2025-02-14T23:52:27Z")
        let board = try await s.board(SourceBoardRequest(stopID: "national-rail:KND", windowMinutes: 45, now: DarwinFixtures.utc("2025-02-14T23:52:27Z")))
        #expect(board.entries.isEmpty && board.emptyReason == "No departures in the next 45 minutes")
    }

    @Test func serviceDetails() async throws {
        let fake = FakeDarwin()
        try await fake.on(["<ldb:GetServiceDetailsRequest><ldb:serviceID>abc/def+gh==</ldb:serviceID>"],
                          file: "soap_servicedetails_CRW_splits_2015.xml")
        let s = source(fake, now: "2015-03-21T17:12:10Z")
        let service = try await s.service(SourceServiceRequest(serviceID: "national-rail:abc/def+gh==", now: DarwinFixtures.utc("2015-03-21T17:12:10Z")))
        #expect(service.timeZone == "Europe/London" && service.live?.updatedAt == DarwinFixtures.utc("2015-03-21T17:12:10Z"))
        #expect(service.details.tripID == "national-rail:abc/def+gh==" && service.details.calls.count == 22)
        #expect(service.details.branches.map(\.headsign) == ["Bognor Regis"])
        #expect(service.alerts == [])
        let request = try #require(await fake.requests.first)
        #expect(request.headers["SOAPAction"] == "\"http://thalesgroup.com/RTTI/2012-01-13/ldb/GetServiceDetails\"")

        // A service ID names one run: a link's date does not change which (the answer says its day).
        let dated = try await s.service(SourceServiceRequest(serviceID: "national-rail:abc/def+gh==", date: ServiceDate(year: 2015, month: 3, day: 25),
                                                             now: DarwinFixtures.utc("2015-03-21T17:12:10Z")))
        #expect(dated.details.serviceDate == ServiceDate(year: 2015, month: 3, day: 21))
    }

    @Test func serviceAlertsAndStationAlerts() async throws {
        let fake = FakeDarwin()
        try await fake.on(["<ldb:numRows>1</ldb:numRows><ldb:crs>MAN</ldb:crs>"], file: "soap_departureboard_MAN_nrccmessages_2014.xml")
        let s = source(fake, now: "2014-12-29T11:57:42Z")
        let station = try await s.alerts(.stop("national-rail:MAN"), now: DarwinFixtures.utc("2014-12-29T11:57:42Z"))
        #expect(station.place?.id == "national-rail:MAN" && station.alerts.count == 1 && station.total == 1)
        #expect(station.alerts[0].url.best(for: []) == "http://nationalrail.co.uk/service_disruptions/88961.aspx")
        #expect(station.alerts[0].header.best(for: [])?.contains("Wembley Central are being delayed") == true)
        await #expect(throws: SourceError.self) { try await s.alerts(.all, now: DarwinFixtures.utc("2014-12-29T11:57:42Z")) }
    }

    @Test func nextDepartures() async throws {
        let fake = FakeDarwin()
        try await fake.on(["<ldb:GetNextDeparturesWithDetailsRequest><ldb:crs>ECR</ldb:crs><ldb:filterList><ldb:crs>CLJ</ldb:crs><ldb:crs>LBG</ldb:crs>"],
                          file: "next-departures-with-details.xml")
        let s = source(fake, now: "2022-11-07T22:12:06Z")
        let next = try await s.nextDepartures(from: "national-rail:ECR", to: ["national-rail:CLJ", "national-rail:LBG"])
        #expect(next.map(\.destination.id) == ["national-rail:CLJ", "national-rail:LBG"])
        #expect(next[0].entry?.tripID == "national-rail:AjQqemx5vaZC87JCOBdU7A==")
        #expect(next[0].entry?.destinationArrival == DarwinFixtures.utc("2022-11-07T22:25:00Z"))
        #expect(next[1].entry?.status == .late && next[1].entry?.delaySeconds == 360)
    }

    @Test func badTokenIsConfigurationAndStaysSecret() async throws {
        let fake = FakeDarwin()
        await fake.on(["<ldb:crs>ECR</ldb:crs>"], status: 500, body: DarwinFaultTests.soap11Fault("Unauthorized"))
        let s = source(fake, now: "2025-02-14T16:52:00Z")
        do {
            _ = try await s.board(SourceBoardRequest(stopID: "national-rail:ECR", now: DarwinFixtures.utc("2025-02-14T16:52:00Z")))
            Issue.record("a refused token should fail the board")
        } catch {
            #expect(error.code == .configuration)
            #expect(!error.message.contains(Self.token) && !error.message.contains("example.invalid"))
        }
        let status = try #require(s.status(now: DarwinFixtures.utc("2025-02-14T16:52:00Z")).first)
        #expect(status.name == "national-rail" && status.state == .failing && status.detail?.hasPrefix("configuration") == true)
        #expect(status.detail?.contains(Self.token) == false)
    }

    @Test func missingTokenIsConfigurationWithoutARequest() async throws {
        let fake = FakeDarwin()
        let s = NationalRailSource(token: " ", endpoint: Self.endpoint, fetcher: fake, now: { DarwinFixtures.utc("2025-02-14T16:52:00Z") })
        await #expect(throws: SourceError(.configuration, "no National Rail access token is configured")) {
            try await s.board(SourceBoardRequest(stopID: "national-rail:ECR", now: DarwinFixtures.utc("2025-02-14T16:52:00Z")))
        }
        #expect(await fake.requests.isEmpty)
        #expect(s.status(now: DarwinFixtures.utc("2025-02-14T16:52:00Z")).first?.detail?.hasPrefix("configuration") == true)
    }

    @Test func networkErrorsAreScrubbed() async throws {
        let fake = FakeDarwin()
        await fake.on(["<ldb:crs>ECR</ldb:crs>"],
                      error: SourceError(.network, "fetching \(Self.endpoint.absoluteString) failed; token \(Self.token) (URLError -1004)"))
        let s = source(fake, now: "2025-02-14T16:52:00Z")
        do {
            _ = try await s.board(SourceBoardRequest(stopID: "national-rail:ECR", now: DarwinFixtures.utc("2025-02-14T16:52:00Z")))
            Issue.record("the board should fail")
        } catch {
            #expect(error.code == .network)
            #expect(!error.message.contains(Self.token) && !error.message.contains("example.invalid"))
        }
        let status = try #require(s.status(now: DarwinFixtures.utc("2025-02-14T16:52:00Z")).first)
        #expect(status.state == .failing && status.detail?.contains("example.invalid") == false)
        #expect(status.detail?.contains(Self.token) == false)
    }
}
