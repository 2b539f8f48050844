import CTABusTracker
import Foundation
import OnwardCore
import Testing

/// The bus tracker reports problems inside a 200 answer, as `error` entries with a `msg`:
/// which are answers ("nothing now"), which are failures, and of what kind.
@Suite struct CTAParserErrorTests {
    /// Every endpoint the adapter reads, as a parse that throws or not.
    static let parsers: [(String, @Sendable (Data) throws(SourceError) -> Void)] = [
        ("getroutes", { data throws(SourceError) in _ = try CTAParser.routes(data) }),
        ("getdirections", { data throws(SourceError) in _ = try CTAParser.directions(data) }),
        ("getstops", { data throws(SourceError) in _ = try CTAParser.stops(data) }),
        ("getpredictions", { data throws(SourceError) in _ = try CTAParser.predictions(data) }),
        ("getservicebulletins", { data throws(SourceError) in _ = try CTAParser.bulletins(data) }),
        ("getvehicles", { data throws(SourceError) in _ = try CTAParser.vehicles(data) }),
        ("gettime", { data throws(SourceError) in _ = try CTAParser.time(data) }),
    ]

    func error(_ parse: (Data) throws(SourceError) -> Void, _ data: Data) -> SourceError? {
        do { try parse(data); return nil } catch { return error }
    }

    @Test func anInvalidKeyIsAConfigurationError() {
        for body in [CTAErrorBody.json(CTAErrorBody.invalidKey), CTAErrorBody.xml(CTAErrorBody.invalidKey),
                     CTAErrorBody.json("No API access key supplied"), CTAErrorBody.xml("No API access permitted")] {
            for (operation, parse) in Self.parsers {
                let e = error(parse, body)
                #expect(e?.code == .configuration, "\(operation)")
                #expect(e?.message.hasPrefix("cta \(operation):") == true, "\(e?.message ?? "")")
            }
        }
    }

    @Test func theDailyLimitIsABudgetError() {
        for body in [CTAErrorBody.json(CTAErrorBody.dailyLimit), CTAErrorBody.xml(CTAErrorBody.dailyLimit)] {
            for (operation, parse) in Self.parsers {
                let e = error(parse, body)
                #expect(e?.code == .budgetExhausted, "\(operation)")
                #expect(e?.message.hasPrefix("cta \(operation):") == true)
            }
        }
    }

    @Test func nothingNowIsAnEmptyAnswerWithItsReason() throws {
        for reason in ["No arrival times", "No service scheduled"] {
            for body in [CTAErrorBody.json(reason, stpid: "70", rt: "1"), CTAErrorBody.xml(reason, stpid: "70", rt: "1")] {
                let answer = try CTAParser.predictions(body)
                #expect(answer.items.isEmpty)
                #expect(answer.emptyReason == reason)
                #expect(answer.messages.first?.stopID == "70" && answer.messages.first?.route == "1")
            }
        }
        // No bus out on a route is not an error either.
        let none = try CTAParser.vehicles(CTAErrorBody.xml("No data found for parameter", rt: "22"))
        #expect(none.items.isEmpty && none.emptyReason == "No data found for parameter")
        // Nor is a route without bulletins.
        #expect(try CTAParser.bulletins(Data("<?xml version=\"1.0\"?><bustime-response></bustime-response>".utf8)).items.isEmpty)
    }

    @Test func anUnknownRouteOrStopIsNotFound() {
        let cases: [(CTAError, Data)] = [
            (.directions, CTAErrorBody.json("No data found for parameter", rt: "999")),
            (.stops, CTAErrorBody.xml("No data found for parameter", rt: "999")),
            (.predictions, CTAErrorBody.json("Invalid stop ID", stpid: "99999")),
            (.directions, CTAErrorBody.xml("Invalid RT parameter", rt: "Q")),
        ]
        for (which, body) in cases {
            let e = error(which.parse, body)
            #expect(e?.code == .notFound, "\(which)")
        }
        let stop = error(CTAError.predictions.parse, CTAErrorBody.json("Invalid stop ID", stpid: "99999"))
        #expect(stop?.message == "cta getpredictions: stop 99999 not found (Invalid stop ID)")
    }

    @Test func anyOtherMessageFailsWithItsText() {
        let e = error(CTAError.predictions.parse, CTAErrorBody.json("Internal server error - Unable to complete request at this time"))
        #expect(e?.code == .undecodable)
        #expect(e?.message == "cta getpredictions: the bus tracker answered with an error "
                + "(Internal server error - Unable to complete request at this time)")
    }

    /// In a request for several stops, one stop's "No arrival times" does not hide the others.
    @Test func itemsWinOverNothingNowMessages() throws {
        let body = Data(#"""
        {"bustime-response": {
          "prd": [{"tmstmp": "20180404 20:24", "typ": "A", "stpnm": "1633 W Madison", "stpid": 4727, "vid": 2013,
                   "dstp": "3365", "rt": "20", "rtdir": "Eastbound", "des": "Michigan", "prdtm": "20180404 20:27",
                   "tatripid": 1040611, "dly": "true", "prdctdn": "DUE"}],
          "error": [{"stpid": "70", "msg": "No arrival times"}]}}
        """#.utf8)
        let answer = try CTAParser.predictions(body)
        #expect(answer.items.count == 1)
        #expect(answer.emptyReason == nil)
        #expect(answer.messages.map(\.stopID) == ["70"])
        // Numbers where strings are usual, a string where a boolean is usual, and "DUE".
        let p = answer.items[0]
        #expect(p.stopID == "4727" && p.vehicleID == "2013" && p.tripID == "1040611" && p.distanceToStop == 3365)
        #expect(p.isDelayed && p.countdown == .due)
        #expect(p.boardEntry().status == .delayed)
    }

    /// v3 spellings: directions with an ID and a name, a single object where a list is usual,
    /// "DLY" countdowns, a bus without a trip ID, and a cancelled trip.
    @Test func v3Shapes() throws {
        let directions = try CTAParser.directions(Data(#"""
        {"bustime-response": {"directions": [{"id": "Northbound", "name": "Northbound"}, {"id": "Southbound", "name": "Hacia el sur"}]}}
        """#.utf8))
        #expect(directions.items == [CTADirection(id: "Northbound", name: "Northbound"), CTADirection(id: "Southbound", name: "Hacia el sur")])
        let v2JSON = try CTAParser.directions(Data(#"{"bustime-response": {"directions": [{"dir": "Eastbound"}, {"dir": "Westbound"}]}}"#.utf8))
        #expect(v2JSON.items.map(\.id) == ["Eastbound", "Westbound"])

        let predictions = try CTAParser.predictions(Data(#"""
        {"bustime-response": {"prd": {"tmstmp": "20240105 08:00", "typ": "A", "stpnm": "Clark & Addison", "stpid": "1926",
          "vid": "8001", "dstp": 100, "rt": "22", "rtdd": "22", "rtdir": "Northbound", "des": "Howard",
          "prdtm": "20240105 08:09", "tablockid": "22 -1", "tatripid": "", "origtatripno": "1", "dly": false, "dyn": 1,
          "prdctdn": "DLY", "zone": "", "psgld": "HALF_EMPTY"}}}
        """#.utf8))
        let p = try #require(predictions.items.first)
        #expect(p.countdown == .delayed)
        #expect(p.tripID == nil && p.serviceLocalID == "vid-8001")
        #expect(p.boardEntry().tripID == "cta:vid-8001")
        #expect(p.dynamicAction == 1 && p.status == .cancelled)
        #expect(p.passengerLoad == "HALF_EMPTY")
        #expect(p.predicted == utc(2024, 1, 5, 14, 9))

        let bulletins = try CTAParser.bulletins(Data(#"""
        {"bustime-response": {"sb": [{"nm": "Red Line shuttle", "sbj": "Shuttle buses replace trains",
          "dtl": "<p>Shuttle buses &amp; more.</p><script>alert(1)</script><p>Allow <b>extra</b> time.</p>",
          "brf": "", "prty": "High", "srvc": {"rt": "X9", "rtdir": "Northbound", "stpid": "1926", "stpnm": "Clark &amp; Addison"},
          "url": "javascript:alert(1)"}]}}
        """#.utf8))
        let b = try #require(bulletins.items.first)
        #expect(b.priority == .high)
        #expect(b.detail == "Shuttle buses & more.\n\nAllow extra time.")
        #expect(b.services == [CTABulletin.Service(route: "X9", routeDirection: "Northbound", stopID: "1926", stopName: "Clark & Addison")])
        #expect(b.url == nil)
        let alert = b.alert()
        #expect(alert.severity == .severe && alert.isHighPriority)
        #expect(alert.informedEntities == [Alert.InformedEntity(routeID: "cta:X9", stopID: "cta:1926")])
        #expect(alert.description.best(for: ["en"]) == "Shuttle buses replace trains\n\nShuttle buses & more.\n\nAllow extra time.")
    }

    @Test func malformedAnswersAreUndecodableAndSayWhichOperation() {
        let bodies: [String] = [
            #"{"bustime-response": {"prd": ["#,
            "<?xml version=\"1.0\"?><bustime-response><prd><rt>22</prd></bustime-response>",
            "<html><body>Service unavailable</body></html>",
            #"{"something-else": {}}"#,
            "",
            "   \n",
            "Service unavailable",
        ]
        for body in bodies {
            for (operation, parse) in Self.parsers {
                let e = error(parse, Data(body.utf8))
                #expect(e?.code == .undecodable, "\(operation) \(body)")
                #expect(e?.message.hasPrefix("cta \(operation): ") == true, "\(e?.message ?? "")")
            }
        }
        // Items the adapter cannot read at all (no prediction time) are not an empty board.
        let unreadable = error(CTAError.predictions.parse, Data(#"{"bustime-response": {"prd": [{"rt": "22", "stpid": "1"}]}}"#.utf8))
        #expect(unreadable?.code == .undecodable)
    }

    /// The parses named for the table above, without the endpoint string.
    enum CTAError: CustomStringConvertible {
        case directions, stops, predictions

        var parse: (Data) throws(SourceError) -> Void {
            switch self {
            case .directions: { data throws(SourceError) in _ = try CTAParser.directions(data) }
            case .stops: { data throws(SourceError) in _ = try CTAParser.stops(data) }
            case .predictions: { data throws(SourceError) in _ = try CTAParser.predictions(data) }
            }
        }

        var description: String {
            switch self {
            case .directions: "getdirections"
            case .stops: "getstops"
            case .predictions: "getpredictions"
            }
        }
    }
}
