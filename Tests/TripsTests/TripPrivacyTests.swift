import OnwardCore
import Testing
import Trips

/// Every privacy rule of group trips, on values: who is on the map, who an event reaches, who may answer.
@Suite("trip privacy rules")
struct TripPrivacyTests {
    static let now = Instant(epochSeconds: 1_790_000_000)
    /// Arinsal's base (1,550 m) and points near and far from it.
    static let base = (42.5768, 1.4799)
    static func at(_ person: String, _ lat: Double, _ lon: Double, until: Int64 = 3600, paused: Bool = false, age: Int64 = 10) -> SharedPosition {
        SharedPosition(person: person, latitude: lat, longitude: lon, accuracyMetres: 15, at: now.adding(seconds: -age),
                       sharingUntil: now.adding(seconds: until), paused: paused)
    }

    /// Hana hosts; Tom, Uma and Vic travel; Wes is on another trip.
    static func trip() throws -> Trip {
        var t = Trip(id: "t1", name: "Ski week", endsAt: now.adding(seconds: 7 * 86_400), host: "hana", inviteCode: "SNOW-42")
        for p in ["tom", "uma", "vic"] { t = try t.joining(p, code: "SNOW-42") }
        return t
    }

    static let positions = [
        at("hana", 42.60, 1.50),                     // the host, far away
        at("tom", 42.5768, 1.4799),                  // at the base
        at("uma", 42.5800, 1.4799),                  // 356 m north of Tom
        at("vic", 42.6100, 1.4799),                  // 3.7 km north: beyond 2 km
        at("wes", 42.5769, 1.4800),                  // next to Tom, but not on the trip
    ]

    @Test("a host sees every sharing member at any distance, never a non-member")
    func host() throws {
        let seen = MapVisibility.visible(to: "hana", on: try Self.trip(), positions: Self.positions, now: Self.now)
        #expect(seen.map(\.person) == ["tom", "uma", "vic"])
    }

    @Test("a traveller sees sharing members within their radius of themselves, whatever friendship says")
    func traveller() throws {
        let trip = try Self.trip()
        #expect(MapVisibility.visible(to: "tom", on: trip, positions: Self.positions, now: Self.now).map(\.person) == ["uma"])
        #expect(MapVisibility.visible(to: "tom", on: trip, positions: Self.positions, now: Self.now, radiusMetres: 300).isEmpty)
        #expect(MapVisibility.visible(to: "tom", on: trip, positions: Self.positions, now: Self.now, radiusMetres: 10_000).map(\.person)
                == ["hana", "uma", "vic"])
        // Without a shown position of their own, a traveller sees nobody (there is no "within" without a "where").
        let withoutTom = Self.positions.filter { $0.person != "tom" }
        #expect(MapVisibility.visible(to: "tom", on: trip, positions: withoutTom, now: Self.now).isEmpty)
    }

    @Test("paused, ended, not yet taken, or left: never shown")
    func hidden() throws {
        var trip = try Self.trip()
        let paused = [Self.at("tom", 42.5768, 1.4799), Self.at("uma", 42.58, 1.4799, paused: true)]
        #expect(MapVisibility.visible(to: "tom", on: trip, positions: paused, now: Self.now).isEmpty)
        #expect(MapVisibility.visible(to: "hana", on: trip, positions: paused, now: Self.now).map(\.person) == ["tom"])
        let ended = [Self.at("tom", 42.5768, 1.4799), Self.at("uma", 42.58, 1.4799, until: 0)]
        #expect(MapVisibility.visible(to: "hana", on: trip, positions: ended, now: Self.now).map(\.person) == ["tom"])
        let future = [Self.at("uma", 42.58, 1.4799, age: -60)]
        #expect(MapVisibility.visible(to: "hana", on: trip, positions: future, now: Self.now).isEmpty)
        trip = try trip.leaving("uma")
        #expect(!MapVisibility.visible(to: "hana", on: trip, positions: Self.positions, now: Self.now).map(\.person).contains("uma"))
        // And the one who left sees nothing of the trip.
        #expect(MapVisibility.visible(to: "uma", on: trip, positions: Self.positions, now: Self.now).isEmpty)
    }

    @Test("someone who is not on the trip sees nothing, and cannot join without the code")
    func outsider() throws {
        let trip = try Self.trip()
        #expect(MapVisibility.visible(to: "wes", on: trip, positions: Self.positions, now: Self.now).isEmpty)
        #expect(throws: Trip.Failure.wrongCode) { try trip.joining("wes", code: "snow-41") }
        #expect(throws: Trip.Failure.lastHost) { try trip.leaving("hana") }
    }

    @Test("sharing offers: 15 minutes, an hour, 8 hours, until the trip ends")
    func offers() throws {
        let trip = try Self.trip()
        #expect(SharedPosition.Offer.allCases.map { $0.end(from: Self.now, trip: trip).epochSeconds - Self.now.epochSeconds }
                == [900, 3600, 28_800, 7 * 86_400])
    }

    @Test("trip-mates are friends; friends across trips by request and acceptance")
    func friends() throws {
        let trip = try Self.trip()
        var f = Friendships()
        #expect(f.areFriends("tom", "uma", trips: [trip]))
        #expect(!f.areFriends("tom", "wes", trips: [trip]))
        f.request(from: "tom", to: "wes")
        #expect(!f.areFriends("tom", "wes", trips: [trip]))
        let wrongWay = f.accept(by: "tom", from: "wes")
        let rightWay = f.accept(by: "wes", from: "tom")
        #expect(!wrongWay && rightWay)
        #expect(f.areFriends("wes", "tom", trips: [trip]))
        // Leaving the trip ends the trip-mate friendship, not an accepted one.
        let left = try trip.leaving("uma")
        #expect(!f.areFriends("tom", "uma", trips: [left]))
    }

    @Test("an event reaches only the audience it names, inside the trip; an answer from anyone else is as if it did not exist")
    func events() throws {
        let trip = try Self.trip()
        func event(_ audience: TripEvent.Audience) throws -> TripEvent {
            try TripEvent(id: "e1", trip: trip, creator: "tom", title: "Fondue", at: Self.now.adding(seconds: 7200), latitude: 42.5768, longitude: 1.4799,
                          details: "At the hut", audience: audience, positions: Self.positions, friendships: Friendships(), trips: [trip], now: Self.now)
        }
        #expect(try event(.nearby(radiusMetres: 1_000)).invitees == ["uma"])
        #expect(try event(.friends).invitees == ["hana", "uma", "vic"])
        #expect(try event(.chosen(["vic", "wes"])).invitees == ["vic"])
        let chosen = try event(.chosen(["vic"]))
        #expect(try chosen.answering("vic", .going, trip: trip).answers == ["vic": .going])
        #expect(throws: Trip.Failure.notFound) { try chosen.answering("uma", .going, trip: trip) }
        #expect(throws: Trip.Failure.notFound) { try chosen.answering("wes", .maybe, trip: trip) }
        #expect(chosen.isVisible(to: "tom", trip: trip) && chosen.isVisible(to: "vic", trip: trip) && !chosen.isVisible(to: "uma", trip: trip))
        // An invitee who leaves the trip can neither see nor answer it.
        let left = try trip.leaving("vic")
        #expect(!chosen.isVisible(to: "vic", trip: left))
        #expect(throws: Trip.Failure.notFound) { try chosen.answering("vic", .going, trip: left) }
        // Someone outside the trip cannot create one.
        #expect(throws: Trip.Failure.notFound) {
            try TripEvent(id: "e2", trip: trip, creator: "wes", title: "x", at: Self.now, latitude: 0, longitude: 0, details: "",
                          audience: .friends, positions: [], friendships: Friendships(), trips: [trip], now: Self.now)
        }
    }
}
