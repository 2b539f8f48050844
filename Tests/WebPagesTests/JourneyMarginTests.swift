import API
import Foundation
import OnwardCore
import Testing
import WebPages

/// A journey in UTC: ride 1 arrives at X1 at 08:15, a 2-minute walk to X2, ride 2 leaves X2 at 08:19.
func changeJourney(arrivingLate: Int64? = nil, leavingLate: Int64? = nil) -> Journey {
    func stop(_ id: String) -> JourneyStop { JourneyStop(stopID: id, name: "Stop \(id)", platform: nil, timeZone: "UTC", latitude: 0, longitude: 0) }
    let day: Int64 = 20_415 * 86_400
    func at(_ h: Int64, _ m: Int64) -> Instant { Instant(epochSeconds: day + h * 3600 + m * 60) }
    var first = TransitLeg(tripID: "T1", routeID: "R", routeShortName: "R", routeLongName: "", routeColor: nil, headsign: "X",
                           serviceDate: ServiceDate(dayNumber: 20_415), startTime: nil, from: stop("A"), to: stop("X1"),
                           departure: at(8, 0), arrival: at(8, 15))
    var second = TransitLeg(tripID: "T2", routeID: "S", routeShortName: "S", routeLongName: "", routeColor: nil, headsign: "D",
                            serviceDate: ServiceDate(dayNumber: 20_415), startTime: nil, from: stop("X2"), to: stop("D"),
                            departure: at(8, 19), arrival: at(8, 30))
    if let late = arrivingLate { first.expectedArrival = at(8, 15).adding(seconds: late); first.expectedDeparture = at(8, 0).adding(seconds: late) }
    if let late = leavingLate { second.expectedDeparture = at(8, 19).adding(seconds: late) }
    return Journey(legs: [.transit(first), .walk(WalkLeg(from: stop("X1"), to: stop("X2"), departure: at(8, 15), seconds: 120)), .transit(second)])
}


@Suite("a change's margin: the rule, the API and the journey page")
struct JourneyMarginTests {
    func journey(arrivingLate: Int64? = nil) -> JourneyDTO { JourneyDTO(changeJourney(arrivingLate: arrivingLate)) }

    func margin(_ html: String) -> String? {
        html.components(separatedBy: "<li class=\"leg leg-margin\"").dropFirst().first.map { "<li class=\"leg leg-margin\"" + ($0.components(separatedBy: "</li>").first ?? "") }
    }

    @Test("by the timetable: from the arrival to the next departure, the walk part of it")
    func scheduled() throws {
        let c = try #require(changeJourney().changes.first)
        #expect(changeJourney().changes.count == 1)
        #expect(c.arrivingAt.stopID == "X1" && c.leavingFrom.stopID == "X2")
        #expect(c.marginSeconds == 240 && c.walkSeconds == 120 && c.liveMarginSeconds == nil)
        #expect(JourneyChange.canBeMade(margin: c.currentMarginSeconds, walk: c.walkSeconds))
        #expect(!JourneyChange.isTight(margin: c.currentMarginSeconds, walk: c.walkSeconds))
    }

    @Test("live: a late arrival eats the margin; a late next train adds to it; past the walk it cannot be made")
    func live() throws {
        let late = try #require(changeJourney(arrivingLate: 120).changes.first)
        #expect(late.marginSeconds == 240 && late.liveMarginSeconds == 120 && late.arrivingLateSeconds == 120 && late.leavingLateSeconds == nil)
        #expect(JourneyChange.canBeMade(margin: late.currentMarginSeconds, walk: late.walkSeconds))
        #expect(JourneyChange.isTight(margin: late.currentMarginSeconds, walk: late.walkSeconds))
        let both = try #require(changeJourney(arrivingLate: 120, leavingLate: 60).changes.first)
        #expect(both.liveMarginSeconds == 180 && both.leavingLateSeconds == 60)
        let missed = try #require(changeJourney(arrivingLate: 150).changes.first)
        #expect(missed.liveMarginSeconds == 90 && !JourneyChange.canBeMade(margin: missed.currentMarginSeconds, walk: missed.walkSeconds))
    }
    @Test("the API gives each change's margin, by the timetable and live")
    func api() throws {
        let c = try #require(journey(arrivingLate: 120).changes?.first)
        #expect(c.stopId == "X1" && c.walkSeconds == 120 && c.marginSeconds == 240 && c.liveMarginSeconds == 120 && c.arrivingLateSeconds == 120)
        #expect(c.change == .arrivingLate(2) && c.canBeMade && c.isTight)
        #expect(journey().changes?.first?.change == nil)
    }

    @Test("the page says it before the next ride, after the walk; late and tight, in the traveller's language")
    func page() throws {
        let planned = JourneyPage.journey(journey(), strings: Strings(.en)).description
        #expect(margin(planned) == "<li class=\"leg leg-margin\">4 min to change")
        // The margin comes after the walk and before the second ride.
        let walk = try #require(planned.range(of: "leg-walk")), shown = try #require(planned.range(of: "leg-margin"))
        let secondRide = try #require(planned.range(of: "Stop X2</a>"))
        #expect(walk.lowerBound < shown.lowerBound && shown.lowerBound < secondRide.lowerBound)
        let late = JourneyPage.journey(journey(arrivingLate: 120), strings: Strings(.en)).description
        #expect(margin(late) == "<li class=\"leg leg-margin\" data-tight>4 min to change; your train is 2 min late: 2 min")
        let missed = JourneyPage.journey(journey(arrivingLate: 180), strings: Strings(.id)).description
        #expect(margin(missed) == "<li class=\"leg leg-margin\" data-tight>4 mnt untuk pindah; kereta Anda terlambat 3 mnt: perpindahan tidak terkejar")
    }

    @Test("staying on board is no change: the journey counts none, the API says so, and the page says to stay on")
    func staysSeated() throws {
        var j = changeJourney()
        j.legs = [j.legs[0], j.legs[2]]
        if case .transit(var second) = j.legs[1] { second.staysSeated = true; j.legs[1] = .transit(second) }
        #expect(j.transfers == 0 && j.changes.map(\.staysSeated) == [true])
        let dto = JourneyDTO(j)
        #expect(dto.transfers == 0 && dto.changes?.first?.staysSeated == true && dto.legs[1].staysSeated == true && dto.legs[0].staysSeated == nil)
        let page = JourneyPage.journey(dto, strings: Strings(.en)).description
        #expect(page.contains("<li class=\"leg leg-margin leg-seated\">Stay on board: it goes on as the S to D</li>") && page.contains("No change"))
        // However late the first trip, the vehicle goes on: nothing to miss.
        var late = changeJourney(arrivingLate: 600)
        late.legs = [late.legs[0], late.legs[2]]
        if case .transit(var second) = late.legs[1] { second.staysSeated = true; late.legs[1] = .transit(second) }
        #expect(late.changes.first?.canBeMade == true && JourneyDTO(late).changes?.first?.canBeMade == true)
        #expect(changeJourney(arrivingLate: 600).changes.first?.canBeMade == false)
    }
}
