import API
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OnwardCore
import Server
import Testing
import Transit

/// One reader of requests (`Transit`): dates and times, names or IDs, defaults and limits, the same
/// for the API, the pages and the CLI.
@Suite("Reading requests: one rule for the API, the pages and the CLI")
struct RequestReadingTests {
    static func decode<T: Decodable>(_ type: T.Type, _ r: TestResponse) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(r.body.readableBytesView))
    }

    @Test("dates and times: an impossible day or hour is refused, wherever it is typed; a real one is read in the right zone")
    func impossibleDates() throws {
        let jakarta = try #require(TimeZone(identifier: "Asia/Jakarta"))
        for text in ["2026-02-30T08:00:00+07:00", "2026-11-23T24:00:00+07:00", "2026-11-23T08:60:00Z", "2026-13-01T08:00:00Z"] {
            #expect(throws: QueryError.self) { try TimeText.instant(text, parameter: "at") }
            #expect(throws: QueryError.self) { try TimeText.instant(text, localZone: jakarta, parameter: "at") }
        }
        // Without an offset: refused where the server reads it, read in the zone where the CLI does; never rolled over.
        #expect(throws: QueryError.self) { try TimeText.instant("2026-11-23T08:00", parameter: "at") }
        #expect(try TimeText.instant("2026-11-23T08:00", localZone: jakarta, parameter: "at") == Instant(epochSeconds: 1_795_395_600))
        #expect(throws: QueryError.self) { try TimeText.instant("2026-02-29T08:00", localZone: jakarta, parameter: "at") }
        #expect(try TimeText.instant("2028-02-29T08:00:00.25+07:00", parameter: "at") == Instant(epochSeconds: 1_835_398_800))
        let error = try #require(throws: QueryError.self) { try TimeText.date("2026-02-30", parameter: "date") }
        #expect(error.parameter == "date" && error.message == "date '2026-02-30' is not a date; use YYYY-MM-DD")
    }

    @Test("the API takes a stop's name where it takes its ID: a board's calling point, a journey's ends, alerts; routes by name too")
    func namesInTheAPI() async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.router) { client in
            try await client.execute(uri: "/api/v1/stops/SLBB/departures?to=Bundaran%20HI&window=30", method: .get) { r in
                #expect(r.status == .ok)
                let board = try Self.decode(BoardDTO.self, r)
                #expect(board.via?.id == "mrt-jakarta:SBHI")
                #expect(!(board.departures ?? []).isEmpty)
            }
            try await client.execute(uri: "/api/v1/journeys?from=Lebak%20Bulus&to=Bundaran%20HI", method: .get) { r in
                #expect(r.status == .ok)
                let answer = try Self.decode(JourneysDTO.self, r)
                #expect(answer.from.id == "mrt-jakarta:SLBB" && answer.to.id == "mrt-jakarta:SBHI")
                #expect(!answer.journeys.isEmpty)
            }
            try await client.execute(uri: "/api/v1/alerts?stop=Lebak%20Bulus&route=NS", method: .get) { r in
                #expect(r.status == .ok)
                let alerts = try Self.decode(AlertsDTO.self, r)
                #expect(alerts.stop?.id == "mrt-jakarta:SLBB")
            }
        }
    }

    @Test("a name that matches several stops is refused naming its parameter, with every candidate; one that matches none, with the nearest")
    func ambiguousNames() async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.router) { client in
            for uri in ["/api/v1/journeys?from=blok&to=Bundaran%20HI", "/api/v1/stops/SLBB/departures?to=blok"] {
                try await client.execute(uri: uri, method: .get) { r in
                    #expect(r.status == .notFound, "\(uri)")
                    let p = try Self.decode(Problem.self, r)
                    #expect(p.code == "stop-not-found" && p.parameter == (uri.contains("journeys") ? "from" : "to"), "\(uri)")
                    #expect(p.candidates?.map(\.id) == ["mrt-jakarta:SBKA", "mrt-jakarta:SBKM"], "\(uri)")
                    #expect(p.candidates?.first?.detail == "station")
                }
            }
            try await client.execute(uri: "/api/v1/journeys?from=SLBB&to=Bundaran%20HIX", method: .get) { r in
                let p = try Self.decode(Problem.self, r)
                #expect(r.status == .notFound && p.parameter == "to")
                #expect(p.candidates?.map(\.id) == ["mrt-jakarta:SBHI"])
            }
            try await client.execute(uri: "/api/v1/alerts?route=XX9", method: .get) { r in
                let p = try Self.decode(Problem.self, r)
                #expect(r.status == .notFound && p.code == "route-not-found" && p.parameter == "route")
            }
        }
    }

    @Test("lessCrowded is read as a yes or no, named when it is neither, and orders the options by arrival")
    func lessCrowded() async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.router) { client in
            try await client.execute(uri: "/api/v1/journeys?from=SLBB&to=SBHI&window=120&lessCrowded=maybe", method: .get) { r in
                #expect(r.status == .badRequest)
                let problem = try Self.decode(Problem.self, r)
                #expect(problem.parameter == "lessCrowded")
            }
            try await client.execute(uri: "/api/v1/journeys?from=SLBB&to=SBHI&window=120&lessCrowded=true", method: .get) { r in
                #expect(r.status == .ok)
                let arrivals = try Self.decode(JourneysDTO.self, r).journeys.map(\.arrival)
                #expect(arrivals.count > 1 && arrivals == arrivals.sorted())
            }
        }
    }

    @Test("a journey window decides how many options: every one leaving in it, not the default five")
    func windowDecides() async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.router) { client in
            var inWindow = 0
            try await client.execute(uri: "/api/v1/journeys?from=SLBB&to=SBHI&window=120", method: .get) { r in
                inWindow = try Self.decode(JourneysDTO.self, r).journeys.count
            }
            #expect(inWindow > Queries.JourneyQuery.defaults.limit)
            try await client.execute(uri: "/api/v1/journeys?from=SLBB&to=SBHI&window=120&limit=3", method: .get) { r in
                let answer = try Self.decode(JourneysDTO.self, r)
                #expect(answer.journeys.count == 3)
            }
            try await client.execute(uri: "/api/v1/journeys?from=SLBB&to=SBHI", method: .get) { r in
                let answer = try Self.decode(JourneysDTO.self, r)
                #expect(answer.journeys.count <= Queries.JourneyQuery.defaults.limit)
            }
        }
    }

    @Test("the board page and the API show the same default number of rows")
    func oneBoardLength() async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.router) { client in
            var apiRows = 0
            try await client.execute(uri: "/api/v1/stops/SLBB/departures", method: .get) { r in
                apiRows = try Self.decode(BoardDTO.self, r).departures?.count ?? 0
            }
            #expect(apiRows == Queries.defaultLimit)
            try await client.execute(uri: "/stops/SLBB", method: .get) { r in
                let html = String(buffer: r.body)
                #expect(html.components(separatedBy: "data-status=").count - 1 == apiRows)
            }
        }
    }

    @Test("pages offer the places an ambiguous name may mean, each a link that picks it")
    func pagesOfferChoices() async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(.router) { client in
            try await client.execute(uri: "/journeys?from=blok&to=Bundaran%20HI", method: .get) { r in
                #expect(r.status == .ok)
                let html = String(buffer: r.body)
                #expect(html.contains("matches more than one stop or station"))
                #expect(html.contains("href=\"/journeys?to=Bundaran%20HI&amp;from=mrt-jakarta%3ASBKA\""))
                #expect(html.contains("href=\"/journeys?to=Bundaran%20HI&amp;from=mrt-jakarta%3ASBKM\""))
                #expect(!html.contains("onward stops --search"))
            }
            try await client.execute(uri: "/stops/SLBB?to=blok", method: .get) { r in
                #expect(r.status == .notFound)
                let html = String(buffer: r.body)
                #expect(html.contains("href=\"/stops/SLBB?to=mrt-jakarta%3ASBKA\""))
                #expect(html.contains("Stasiun MRT Blok M BCA"))
            }
            try await client.execute(uri: "/journeys?from=xyzzy&to=Bundaran%20HI", method: .get) { r in
                #expect(String(buffer: r.body).contains("No stop or station is called “xyzzy”. Try part of its name."))
            }
        }
    }
}
