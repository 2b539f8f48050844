import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OnwardCore
import HummingbirdTesting
import Testing

/// The served OpenAPI document stays true: real answers of every operation,
/// good and bad, match the schemas it gives for their status.
@Suite("OpenAPI conformance")
struct OpenAPIConformanceTests {
    /// One request per documented operation and error, as (document path, request).
    static let requests: [(path: String, uri: String)] = [
        ("/api/v1/stops", "/api/v1/stops?q=blok&limit=5"),
        ("/api/v1/stops", "/api/v1/stops?q="),
        ("/api/v1/stops/nearby", "/api/v1/stops/nearby?lat=-6.2445&lon=106.7981&radius=1500"),
        ("/api/v1/stops/nearby", "/api/v1/stops/nearby?lat=x&lon=1"),
        ("/api/v1/stops/{stopId}", "/api/v1/stops/SLBB"),
        ("/api/v1/stops/{stopId}", "/api/v1/stops/NOPE"),
        ("/api/v1/stops/{stopId}/departures", "/api/v1/stops/SLBB/departures?limit=20"),
        ("/api/v1/stops/{stopId}/departures", "/api/v1/stops/SLBB/departures?to=SBHI&window=60"),
        ("/api/v1/stops/{stopId}/departures", "/api/v1/stops/NOPE/departures"),
        ("/api/v1/stops/{stopId}/departures", "/api/v1/stops/SLBB/departures?window=9999"),
        ("/api/v1/stops/{stopId}/arrivals", "/api/v1/stops/SBHI/arrivals?from=SLBB&limit=10"),
        ("/api/v1/services/{tripId}", "/api/v1/services/NOPE"),
        ("/api/v1/alerts", "/api/v1/alerts"),
        ("/api/v1/alerts", "/api/v1/alerts?stop=SLBB&lang=id"),
        ("/api/v1/alerts", "/api/v1/alerts?stop=NOPE"),
        ("/api/v1/journeys", "/api/v1/journeys?from=SLBB&to=SBHI&date=2026-11-23&time=08:00&window=15"),
        ("/api/v1/journeys", "/api/v1/journeys?from=SLBB&to=NOPE"),
        ("/api/v1/journeys", "/api/v1/journeys?from=SLBB&to=SBHI&maxWalk=99999"),
        ("/api/v1/vehicles", "/api/v1/vehicles"),
        ("/api/v1/stops/{stopId}/history", "/api/v1/stops/SLBB/history"),
        ("/api/v1/stops/{stopId}/history", "/api/v1/stops/SLBB/history?days=0"),
        ("/api/v1/routes/{routeId}/history", "/api/v1/routes/MRTJ_NS/history?days=7"),
        ("/api/v1/routes/{routeId}/history", "/api/v1/routes/NOPE/history"),
        ("/api/v1/routes/{routeId}/map", "/api/v1/routes/MRTJ_NS/map"),
        ("/api/v1/routes/{routeId}/map", "/api/v1/routes/NOPE/map"),
        ("/api/v1/routes/{routeId}/vehicles", "/api/v1/routes/MRTJ_NS/vehicles"),
        ("/api/v1/routes/{routeId}/vehicles", "/api/v1/routes/NOPE/vehicles"),
        ("/api/v1/sources", "/api/v1/sources"),
        ("/api/v1/sources/{source}/routes", "/api/v1/sources/nope/routes"),
        ("/api/v1/routes/{routeId}", "/api/v1/routes/nope:1"),
        ("/api/v1/routes/{routeId}/directions/{direction}/stops", "/api/v1/routes/nope:1/directions/North/stops"),
        // From the top of la Caubella to the town of La Massana, as a novice; a bad level; a start far from the area.
        ("/api/v1/ski/route", "/api/v1/ski/route?from=42.5350919,1.488898&to=42.5471289,1.5137913&level=novice"),
        ("/api/v1/ski/route", "/api/v1/ski/route?from=42.5350919,1.488898&to=42.5471289,1.5137913&level=black"),
        ("/api/v1/ski/route", "/api/v1/ski/route?from=42.0,1.0&to=42.5471289,1.5137913&level=expert"),
    ]

    /// In process, and over a real socket (a live server on a free port): the same answers both ways.
    @Test("every documented operation answers as documented", arguments: [TestingSetup.router, .live])
    func conformance(mode: TestingSetup) async throws {
        let app = TestServer.app(TestServer.deps(try TestServer.store()))
        try await app.test(mode) { client in
            let document = try await client.execute(uri: "/api/v1/openapi.json", method: .get) { r in
                #expect(r.status == .ok)
                return try #require(try JSONSerialization.jsonObject(with: Data(r.body.readableBytesView)) as? [String: Any])
            }
            #expect(document["openapi"] as? String == "3.1.0")
            let validator = SchemaValidator(document: document)
            // A service found on a real board, so the service operation is checked on a real answer too.
            let tripID = try await client.execute(uri: "/api/v1/stops/SLBB/departures?limit=1", method: .get) { r -> String in
                let body = try JSONSerialization.jsonObject(with: Data(r.body.readableBytesView)) as? [String: Any]
                return try #require(((body?["departures"] as? [[String: Any]])?.first?["tripId"]) as? String)
            }
            var covered = Set<String>()
            for (path, uri) in Self.requests + [("/api/v1/services/{tripId}", "/api/v1/services/\(tripID)?date=2026-11-23")] {
                try await client.execute(uri: uri, method: .get) { r in
                    let schema = try #require(validator.responseSchema(path: path, status: Int(r.status.code)),
                                              "\(uri): status \(r.status.code) is not documented for \(path)")
                    let body = try JSONSerialization.jsonObject(with: Data(r.body.readableBytesView))
                    let problems = validator.validate(body, against: schema)
                    #expect(problems.isEmpty, "\(uri): \(problems.prefix(5).joined(separator: "; "))")
                }
                covered.insert(path)
            }
            // Commuting: the operations that write, with bodies, good and bad.
            let started = try await client.execute(uri: "/api/v1/commutes", method: .post, headers: [.contentType: "application/json"],
                                                   body: ByteBuffer(string: #"{"from": "SLBB", "to": "SBHI", "date": "2026-11-23", "time": "08:00"}"#)) { r in
                try #require((try JSONSerialization.jsonObject(with: Data(r.body.readableBytesView)) as? [String: Any])?["id"] as? String)
            }
            let commute = "/api/v1/commutes/\(started)"
            let writes: [(path: String, method: HTTPRequest.Method, uri: String, body: String?)] = [
                ("/api/v1/commutes", .post, "/api/v1/commutes", #"{"from": "SLBB", "to": "SBHI", "simulate": true, "speed": 60, "nearStation": true}"#),
                ("/api/v1/commutes", .post, "/api/v1/commutes", #"{"from": "SLBB"}"#),
                ("/api/v1/commutes/{commuteId}", .get, commute, nil),
                ("/api/v1/commutes/{commuteId}", .get, "/api/v1/commutes/nope", nil),
                ("/api/v1/commutes/{commuteId}/sightings", .post, commute + "/sightings", #"{"lat": -6.2892744, "lon": 106.7749355, "accuracy": 20}"#),
                ("/api/v1/commutes/{commuteId}/sightings", .post, commute + "/sightings", #"{"lat": 100, "lon": 0}"#),
                ("/api/v1/commutes/{commuteId}/push", .put, commute + "/push", #"{"endpoint": "https://push.example/1", "keys": {"p256dh": "x", "auth": "y"}}"#),
                ("/api/v1/commutes/{commuteId}/push", .delete, commute + "/push", nil),
                ("/api/v1/push/key", .get, "/api/v1/push/key", nil),
                ("/api/v1/commutes/{commuteId}", .delete, commute, nil),
                ("/api/v1/commutes/{commuteId}", .delete, commute, nil),
            ]
            /// Sends one write and checks its answer against what the document says for its status.
            func check(_ path: String, _ method: HTTPRequest.Method, _ uri: String, _ body: String?, token: String? = nil) async throws {
                var headers: HTTPFields = body == nil ? [:] : [.contentType: "application/json"]
                if let token { headers[.authorization] = "Bearer \(token)" }
                try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }) { r in
                    let schema = try #require(validator.responseSchema(path: path, method: method.rawValue.lowercased(), status: Int(r.status.code)),
                                              "\(method) \(uri): status \(r.status.code) is not documented")
                    if !schema.isEmpty {
                        let problems = validator.validate(try JSONSerialization.jsonObject(with: Data(r.body.readableBytesView)), against: schema)
                        #expect(problems.isEmpty, "\(method) \(uri): \(problems.prefix(5).joined(separator: "; "))")
                    }
                }
                covered.insert(path)
            }
            for w in writes { try await check(w.path, w.method, w.uri, w.body) }
            // People: sign-up and sign-in, then each saved-routes operation with a bearer token, good and bad.
            let token = try await client.execute(uri: "/api/v1/accounts", method: .post, headers: [.contentType: "application/json"],
                                                 body: ByteBuffer(string: #"{"username": "conform", "password": "a long enough one"}"#)) { r in
                try #require((try JSONSerialization.jsonObject(with: Data(r.body.readableBytesView)) as? [String: Any])?["token"] as? String)
            }
            let routeID = try await client.execute(uri: "/api/v1/me/routes", method: .post,
                                                   headers: [.contentType: "application/json", .authorization: "Bearer \(token)"],
                                                   body: ByteBuffer(string: #"{"version": 0, "route": {"kind": "journey", "from": "SLBB", "to": "SBHI"}}"#)) { r in
                let state = try JSONSerialization.jsonObject(with: Data(r.body.readableBytesView)) as? [String: Any]
                return try #require(state?["currentRouteId"] as? String)
            }
            let route = "/api/v1/me/routes/\(routeID)"
            let people: [(path: String, method: HTTPRequest.Method, uri: String, body: String?, signedIn: Bool)] = [
                ("/api/v1/accounts", .post, "/api/v1/accounts", #"{"username": "conform", "password": "a long enough one"}"#, false),
                ("/api/v1/accounts", .post, "/api/v1/accounts", #"{"username": "x", "password": "short"}"#, false),
                ("/api/v1/sessions", .post, "/api/v1/sessions", #"{"username": "conform", "password": "a long enough one"}"#, false),
                ("/api/v1/sessions", .post, "/api/v1/sessions", #"{"username": "conform", "password": "not the password"}"#, false),
                ("/api/v1/sessions/telegram", .post, "/api/v1/sessions/telegram", #"{"id": 1, "auth_date": 1, "hash": "00"}"#, false),
                ("/api/v1/me", .get, "/api/v1/me", nil, true),
                ("/api/v1/me", .get, "/api/v1/me", nil, false),
                ("/api/v1/me/export", .get, "/api/v1/me/export", nil, true),
                ("/api/v1/me/glance", .get, "/api/v1/me/glance", nil, true),
                ("/api/v1/me/routes", .get, "/api/v1/me/routes", nil, true),
                ("/api/v1/me/routes", .post, "/api/v1/me/routes", #"{"version": 0, "route": {"kind": "board", "stopId": "SLBB"}}"#, true),
                ("/api/v1/me/routes", .post, "/api/v1/me/routes", #"{"version": 1, "route": {"kind": "board", "stopId": "NOPE"}}"#, true),
                ("/api/v1/me/offline", .get, "/api/v1/me/offline", nil, true),
                ("/api/v1/me/offline", .get, "/api/v1/me/offline", nil, false),
                ("/api/v1/me/routes/{routeId}/stack", .post, route + "/stack",
                 #"{"version": 1, "route": {"kind": "service", "tripId": "\#(tripID)", "serviceDate": "2026-11-23"}}"#, true),
                ("/api/v1/me/routes/{routeId}/stack/pop", .post, route + "/stack/pop", #"{"version": 2}"#, true),
                ("/api/v1/me/routes/{routeId}/stack/pop", .post, route + "/stack/pop", #"{"version": 3}"#, true),
                ("/api/v1/me/routes/{routeId}", .patch, route, #"{"version": 3, "name": "Home"}"#, true),
                ("/api/v1/me/routes/{routeId}", .patch, "/api/v1/me/routes/nope", #"{"version": 4, "name": "Home"}"#, true),
                ("/api/v1/me/current", .put, "/api/v1/me/current", #"{"version": 4, "routeId": "\#(routeID)"}"#, true),
                ("/api/v1/me/routes/{routeId}", .delete, route, #"{"version": 5}"#, true),
                ("/api/v1/sessions/current", .delete, "/api/v1/sessions/current", nil, true),
                ("/api/v1/me", .delete, "/api/v1/me", nil, true),
            ]
            for w in people.dropLast(2) { try await check(w.path, w.method, w.uri, w.body, token: w.signedIn ? token : nil) }
            // Watched journeys: one option of the day's journeys, watched on weekdays, listed and dropped.
            let departure = try await client.execute(uri: "/api/v1/journeys?from=SLBB&to=SBHI", method: .get) { r in
                let answer = try JSONSerialization.jsonObject(with: Data(r.body.readableBytesView)) as? [String: Any]
                return try #require((answer?["journeys"] as? [[String: Any]])?.first?["departure"] as? String)
            }
            let watchID = try await client.execute(uri: "/api/v1/me/watches", method: .post,
                                                   headers: [.contentType: "application/json", .authorization: "Bearer \(token)"],
                                                   body: ByteBuffer(string: #"{"from": "SLBB", "to": "SBHI", "departure": "\#(departure)", "days": ["mon", "fri"]}"#)) { r in
                #expect(r.status == .created)
                return try #require((try JSONSerialization.jsonObject(with: Data(r.body.readableBytesView)) as? [String: Any])?["id"] as? String)
            }
            let watchWrites: [(path: String, method: HTTPRequest.Method, uri: String, body: String?)] = [
                ("/api/v1/me/watches", .get, "/api/v1/me/watches", nil),
                ("/api/v1/me/watches", .post, "/api/v1/me/watches", #"{"from": "SLBB", "to": "SBHI", "departure": "\#(departure)", "name": "to work"}"#),
                ("/api/v1/me/watches", .post, "/api/v1/me/watches", #"{"from": "SLBB", "to": "SBHI", "departure": "2026-11-23T03:01:00+07:00"}"#),
                ("/api/v1/me/watches", .post, "/api/v1/me/watches", #"{"from": "SLBB", "to": "SBHI", "departure": "\#(departure)", "days": ["someday"]}"#),
                ("/api/v1/me/watches/{watchId}", .delete, "/api/v1/me/watches/\(watchID)", nil),
                ("/api/v1/me/watches/{watchId}", .delete, "/api/v1/me/watches/\(watchID)", nil),
            ]
            for w in watchWrites { try await check(w.path, w.method, w.uri, w.body, token: token) }
            // Trips, signed in as the same person (before signing out and deleting the account, the last two above).
            let until = TestServer.now.adding(seconds: 3600).description
            let newTrip = try await client.execute(uri: "/api/v1/trips", method: .post, headers: [.contentType: "application/json", .authorization: "Bearer \(token)"],
                                                  body: ByteBuffer(string: #"{"name": "Ski week", "endsAt": "\#(until)"}"#)) { r in
                try #require((try JSONSerialization.jsonObject(with: Data(r.body.readableBytesView)) as? [String: Any])?["id"] as? String)
            }
            let trip = "/api/v1/trips/\(newTrip)"
            let me = try await client.execute(uri: "/api/v1/me", method: .get, headers: [.authorization: "Bearer \(token)"]) { r in
                try #require((try JSONSerialization.jsonObject(with: Data(r.body.readableBytesView)) as? [String: Any])?["id"] as? String)
            }
            let tripWrites: [(path: String, method: HTTPRequest.Method, uri: String, body: String?)] = [
                ("/api/v1/trips", .post, "/api/v1/trips", #"{"name": " ", "endsAt": "\#(until)"}"#),
                ("/api/v1/trips/join", .post, "/api/v1/trips/join", #"{"code": "NOTACODE"}"#),
                ("/api/v1/trips/{tripId}/members", .get, trip + "/members", nil),
                ("/api/v1/trips/{tripId}/members", .get, "/api/v1/trips/nope/members", nil),
                ("/api/v1/trips/{tripId}/position", .put, trip + "/position", #"{"latitude": 42.57, "longitude": 1.48, "accuracy": 10, "sharingUntil": "\#(until)"}"#),
                ("/api/v1/trips/{tripId}/position", .put, trip + "/position", #"{"latitude": 91, "longitude": 1.48, "accuracy": 10, "sharingUntil": "\#(until)"}"#),
                ("/api/v1/trips/{tripId}/position/pause", .post, trip + "/position/pause", #"{"paused": true}"#),
                ("/api/v1/trips/{tripId}/positions", .get, trip + "/positions?radius=500", nil),
                ("/api/v1/trips/{tripId}/positions", .get, trip + "/positions?radius=0", nil),
                ("/api/v1/trips/{tripId}/events", .post, trip + "/events",
                 #"{"title": "Fondue", "at": "\#(until)", "latitude": 42.57, "longitude": 1.48, "audience": "friends", "details": "At the hut"}"#),
                ("/api/v1/trips/{tripId}/events", .post, trip + "/events", #"{"title": "Fondue", "at": "\#(until)", "latitude": 42.57, "longitude": 1.48, "audience": "all"}"#),
                ("/api/v1/trips/{tripId}/events", .get, trip + "/events", nil),
                ("/api/v1/trips/{tripId}/events/{eventId}/rsvp", .put, trip + "/events/nope/rsvp", #"{"answer": "going"}"#),
                ("/api/v1/trips/{tripId}/events/{eventId}/rsvp", .put, trip + "/events/nope/rsvp", #"{"answer": "yes"}"#),
                ("/api/v1/trips", .get, "/api/v1/trips", nil),
                ("/api/v1/trips/{tripId}/broadcasts", .post, trip + "/broadcasts", #"{"text": "Lifts close at 16:30"}"#),
                ("/api/v1/trips/{tripId}/broadcasts", .post, trip + "/broadcasts", #"{"text": ""}"#),
                ("/api/v1/trips/{tripId}/broadcasts", .get, trip + "/broadcasts", nil),
                ("/api/v1/chat", .get, "/api/v1/chat", nil),
                ("/api/v1/chat/{conversation}", .post, "/api/v1/chat/trip:\(newTrip)", #"{"text": "Hello <b>all</b>"}"#),
                ("/api/v1/chat/{conversation}", .post, "/api/v1/chat/trip:nope", #"{"text": "Hello"}"#),
                ("/api/v1/chat/{conversation}", .get, "/api/v1/chat/trip:\(newTrip)?limit=10", nil),
                ("/api/v1/chat/{conversation}", .get, "/api/v1/chat/trip:\(newTrip)?limit=0", nil),
                ("/api/v1/chat/{conversation}/read", .put, "/api/v1/chat/trip:\(newTrip)/read", #"{"upTo": 1}"#),
                ("/api/v1/chat/{conversation}/read", .put, "/api/v1/chat/person:nope/read", #"{"upTo": 1}"#),
                ("/api/v1/friends", .get, "/api/v1/friends", nil),
                ("/api/v1/friends/requests", .post, "/api/v1/friends/requests", #"{"person": "nope"}"#),
                ("/api/v1/friends/requests/{personId}/accept", .post, "/api/v1/friends/requests/nope/accept", nil),
                ("/api/v1/me/profile", .put, "/api/v1/me/profile", #"{"bio": "Skis", "photo": "iVBORw0KGgoAAAA="}"#),
                ("/api/v1/me/profile", .put, "/api/v1/me/profile", #"{"photo": "R0lGODlh"}"#),
                ("/api/v1/people/{personId}", .get, "/api/v1/people/\(me)", nil),
                ("/api/v1/people/{personId}", .get, "/api/v1/people/nope", nil),
                ("/api/v1/people/{personId}/photo", .get, "/api/v1/people/\(me)/photo", nil),
                ("/api/v1/people/{personId}/photo", .get, "/api/v1/people/nope/photo", nil),
                ("/api/v1/me/push", .put, "/api/v1/me/push", #"{"subscription": null}"#),
                ("/api/v1/me/push", .put, "/api/v1/me/push", #"{"subscription": {"endpoint": "https://push.example/1", "keys": {"p256dh": "x", "auth": "y"}}}"#),
                ("/api/v1/telegram/webhook", .post, "/api/v1/telegram/webhook", #"{"update_id": 1}"#),
                ("/api/v1/trips/{tripId}/members/me", .delete, trip + "/members/me", nil),
                // This server has no operator token: 401 for everyone (its answers with one are FeedKeepingTests').
                ("/api/v1/feeds/refresh", .post, "/api/v1/feeds/refresh", nil),
            ]
            for w in tripWrites { try await check(w.path, w.method, w.uri, w.body, token: token) }
            for w in people.suffix(2) { try await check(w.path, w.method, w.uri, w.body, token: w.signedIn ? token : nil) }
            let documented = Set((document["paths"] as? [String: Any] ?? [:]).keys)
            #expect(documented == covered, "operations not exercised: \(documented.subtracting(covered))")
        }
    }

    @Test("the validator itself catches a wrong type, a missing field and an undocumented one")
    func validatorCatches() throws {
        let document: [String: Any] = ["components": ["schemas": ["S": [
            "type": "object", "required": ["a"], "additionalProperties": false,
            "properties": ["a": ["type": "integer"], "b": ["type": "boolean"]],
        ]]]]
        let v = SchemaValidator(document: document)
        let schema: [String: Any] = ["$ref": "#/components/schemas/S"]
        func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }
        #expect(v.validate(try json(#"{"a":1,"b":true}"#), against: schema).isEmpty)
        #expect(v.validate(try json(#"{"a":"1"}"#), against: schema).count == 1)
        #expect(v.validate(try json(#"{"b":1}"#), against: schema).count == 2)
        #expect(v.validate(try json(#"{"a":1,"c":2}"#), against: schema).count == 1)
    }
}
