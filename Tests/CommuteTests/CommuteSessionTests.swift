import Commute
import Foundation
import OnwardCore
import Testing

// A journey built by hand, in UTC, on a line of stops 0.01° of longitude apart at the equator
// (1,112 m): ride 1 A 08:00 → B 08:05 → C 08:10 → X 08:15; change to platform X2 (11 m away);
// ride 2 X2 08:20 → Y 08:25 → D 08:30.

private func at(_ hhmm: String) -> Instant {
    let p = hhmm.split(separator: ":").map { Int64($0)! }
    return Instant(epochSeconds: 20_415 * 86_400 + p[0] * 3600 + p[1] * 60 + (p.count > 2 ? p[2] : 0))  // 2025-11-23
}

private func stop(_ id: String, _ lon: Double, station: String? = nil, platform: String? = nil) -> JourneyStop {
    JourneyStop(stopID: id, name: "Stop \(id)", platform: platform, timeZone: "UTC", latitude: 0, longitude: lon, stationID: station)
}

private let A = stop("A", 0, platform: "1"), B = stop("B", 0.01), C = stop("C", 0.02)
private let X = stop("X1", 0.03, station: "X", platform: "1"), X2 = stop("X2", 0.0301, station: "X", platform: "2")
private let Y = stop("Y", 0.04), D = stop("D", 0.05)

private func ride(_ trip: String, _ from: JourneyStop, _ leaves: String, _ calls: [(JourneyStop, String)], _ to: JourneyStop, _ arrives: String,
                  late: Int64 = 0) -> TransitLeg {
    var leg = TransitLeg(tripID: trip, routeID: "R", routeShortName: trip, routeLongName: "", routeColor: nil, headsign: "Terminus",
                         serviceDate: ServiceDate(dayNumber: 20_415), startTime: nil, from: from, to: to,
                         departure: at(leaves), arrival: at(arrives))
    leg.calls = calls.map { JourneyCall(stop: $0.0, departure: at($0.1), expectedDeparture: late == 0 ? nil : at($0.1).adding(seconds: late)) }
    if late != 0 {
        leg.expectedDeparture = at(leaves).adding(seconds: late)
        leg.expectedArrival = at(arrives).adding(seconds: late)
        leg.status = .late
    }
    return leg
}

private func journey(firstLate: Int64 = 0) -> Journey {
    Journey(legs: [
        .transit(ride("T1", A, "08:00", [(B, "08:05"), (C, "08:10")], X, "08:15", late: firstLate)),
        .walk(WalkLeg(from: X, to: X2, departure: at("08:15").adding(seconds: firstLate), seconds: 9)),
        .transit(ride("T2", X2, "08:20", [(Y, "08:25")], D, "08:30")),
    ])
}

/// Runs events through a session, waking it at each deadline before the next event (as a driver does),
/// and on until `until`; returns "HH:MM:SS kind stop" per alert (with " by BASIS" when `basis`).
private func replay(_ session: inout CommuteSession, _ events: [CommuteEvent], until end: Instant = at("08:45"), basis: Bool = false) -> [String] {
    replayAlerts(&session, events, until: end).map { a in
        let s = ((a.at.epochSeconds % 86_400) + 86_400) % 86_400
        let line = String(format: "%02d:%02d:%02d %@ %@", s / 3600, s / 60 % 60, s % 60, a.kind.rawValue, a.stopID)
        return basis ? line + " by " + (a.basis?.rawValue ?? "?") : line
    }
}

/// `replay`, with the alerts whole.
private func replayAlerts(_ session: inout CommuteSession, _ events: [CommuteEvent], until end: Instant = at("08:45")) -> [CommuteAlert] {
    var out: [CommuteAlert] = []
    var now = events.first?.at ?? at("07:00")
    func wake(before limit: Instant) {
        while let d = session.nextDeadline(after: now), d <= limit {
            now = d
            out += session.handle(.tick(d))
        }
    }
    for e in events {
        wake(before: e.at)
        now = e.at
        out += session.handle(e)
    }
    wake(before: end)
    return out
}

private func fix(_ time: String, _ stop: JourneyStop, accuracy: Double = 10, east: Double = 0) -> CommuteEvent {
    .position(at: at(time), latitude: stop.latitude, longitude: stop.longitude + east, accuracy: accuracy)
}

@Suite("Commuting mode: alerts from positions, beacons and times")
struct CommuteSessionTests {
    @Test("on time, with no position at all: the vehicle arriving two minutes before, then each arrival as the stop before is left")
    func onTimeByTheClock() {
        var s = CommuteSession(journey: journey())
        #expect(replay(&s, [.tick(at("07:50"))]) == [
            "07:58:00 vehicleArriving A",
            "08:10:00 arrivingAtTransfer X1",
            "08:25:00 arrivingAtDestination D",
        ])
    }

    @Test("what the times alone would say from now on, for a page in a tunnel: the alerts the session then gives, at the same moments")
    func aheadOnTheTimetable() {
        // Heard from at 08:03, on ride 1: the arrival at the change and at the end are ahead; the vehicle's arrival is past.
        var s = CommuteSession(journey: journey())
        _ = replay(&s, [.tick(at("07:50"))], until: at("08:03"))
        let ahead = s.ahead(from: at("08:03"), until: at("08:45"))
        #expect(ahead.map { "\($0.kind.rawValue) \($0.stopID)" } == ["arrivingAtTransfer X1", "arrivingAtDestination D"])
        #expect(ahead.map(\.at) == [at("08:10"), at("08:25")] && ahead.allSatisfy { $0.basis == .timetable })
        // The same as the session then says itself when those moments come.
        #expect(replay(&s, [], until: at("08:45")) == ["08:10:00 arrivingAtTransfer X1", "08:25:00 arrivingAtDestination D"])
        // Nothing heard yet: from the moment asked, not from the end.
        let fresh = CommuteSession(journey: journey()).ahead(from: at("07:50"), until: at("08:45"))
        #expect(fresh.map(\.at) == [at("07:58"), at("08:10"), at("08:25")])
    }

    @Test("a position at the change before the vehicle leaves the stop before does not say it early: it is said as the vehicle leaves, once per station")
    func arrivingByPosition() {
        // Issue 24: an arrival is never said before the vehicle has left the stop before (C, 08:10) unless a beacon says so.
        var s = CommuteSession(journey: journey())
        let alerts = replay(&s, [.tick(at("07:50")), fix("08:00:30", A), fix("08:09", X), fix("08:09:30", X2), fix("08:10:30", X)], basis: true)
        #expect(alerts == ["07:58:00 vehicleArriving A by timetable", "08:10:00 arrivingAtTransfer X1 by position", "08:25:00 arrivingAtDestination D by timetable"])
    }

    @Test("a GPS jump of kilometres in five seconds is not believed; a second position that agrees with it is; a coarse one is ignored")
    func gpsJump() {
        // On the train near B (ride 1 has left), then a fix 2.2 km on at the change, five seconds later.
        var jump = CommuteSession(journey: journey())
        #expect(replay(&jump, [fix("08:05", B), fix("08:05:05", X)], until: at("08:05:06")).isEmpty)
        // The next fix agrees with the jump: believed (the traveller is at the change), yet the arrival is said
        // only when the vehicle leaves the stop before (C, 08:10), and then as seen from the position.
        var agreed = CommuteSession(journey: journey())
        #expect(replay(&agreed, [fix("08:05", B), fix("08:05:05", X), fix("08:05:10", X)], until: at("08:05:11")).isEmpty)
        #expect(replay(&agreed, [fix("08:09:50", X)], until: at("08:10:01"), basis: true) == ["08:10:00 arrivingAtTransfer X1 by position"])
        // Within one second (times are whole seconds): the jump alone is not believed, the next fix there is.
        var sameSecond = CommuteSession(journey: journey())
        #expect(replay(&sameSecond, [fix("08:05", B), fix("08:05", X)], until: at("08:05:01")).isEmpty)
        var sameSecondAgreed = CommuteSession(journey: journey())
        #expect(replay(&sameSecondAgreed, [fix("08:05", B), fix("08:05:01", X), fix("08:05:01", X)], until: at("08:05:02")).isEmpty)
        #expect(replay(&sameSecondAgreed, [fix("08:09:59", X)], until: at("08:10:01"), basis: true) == ["08:10:00 arrivingAtTransfer X1 by position"])
        // A fix 2 km wide at the change is ignored.
        var coarse = CommuteSession(journey: journey())
        #expect(replay(&coarse, [fix("08:05", B), fix("08:06", X, accuracy: 2_000)], until: at("08:06:30")).isEmpty)
    }

    @Test("a late train: new live times move every alert")
    func lateTrain() {
        var s = CommuteSession(journey: journey())
        let alerts = replay(&s, [.tick(at("07:50")), .journey(journey(firstLate: 300), at: at("07:55"))])
        // 5 minutes late: arriving at 08:03, leaving C at 08:15. The connection is unchanged.
        #expect(alerts == ["08:03:00 vehicleArriving A", "08:15:00 arrivingAtTransfer X1", "08:25:00 arrivingAtDestination D"])
    }

    @Test("a missed change: still at the station after the connection left, it says so and asks for a new plan from there")
    func missedChange() {
        var s = CommuteSession(journey: journey())
        var alerts = replay(&s, [.tick(at("07:50")), fix("08:15", X), fix("08:22", X2)], until: at("08:22"))
        #expect(alerts == ["07:58:00 vehicleArriving A", "08:10:00 arrivingAtTransfer X1", "08:22:00 missedConnection X2"])
        #expect(s.replanFrom?.stopID == "X2")
        // The new plan: the next T2 at 08:35. Its vehicle arriving is said (at X2, first time), the change is not said again.
        let replanned = Journey(legs: [.transit(ride("T2b", X2, "08:35", [(Y, "08:40")], D, "08:45"))])
        alerts = replay(&s, [.journey(replanned, at: at("08:22:30"))], until: at("09:00"))
        #expect(alerts == ["08:33:00 vehicleArriving X2", "08:40:00 arrivingAtDestination D"])
        #expect(s.replanFrom == nil)
    }

    @Test("a traveller who made the change is not told it was missed")
    func madeTheChange() {
        var s = CommuteSession(journey: journey())
        let alerts = replay(&s, [.tick(at("07:50")), fix("08:15", X), fix("08:22", Y, east: -0.005)])
        #expect(!alerts.contains { $0.contains("missed") })
    }

    @Test("a beacon sighting at the destination's station says arriving at once")
    func beacon() {
        var s = CommuteSession(journey: journey())
        let alerts = replay(&s, [.tick(at("08:16")), .beacon(at: at("08:23"), stopID: "D")])
        #expect(alerts.suffix(1) == ["08:23:00 arrivingAtDestination D"])
    }

    @Test("near a station before the journey starts, when asked for")
    func nearStation() {
        let stations = [StopPlace(id: "A", name: "Stop A", code: nil, kind: .station, latitude: 0, longitude: 0, parentID: nil, platform: nil, timeZone: "UTC")]
        var off = CommuteSession(journey: journey(), stations: stations)
        #expect(replay(&off, [fix("07:40", A)], until: at("07:41")).isEmpty)
        var settings = CommuteSettings()
        settings.nearStation = true
        var on = CommuteSession(journey: journey(), settings: settings, stations: stations)
        #expect(replay(&on, [fix("07:40", A), fix("07:41", A)], until: at("07:42")) == ["07:40:00 nearStation A"])
    }

    @Test("a session stored mid-journey and read back after a restart says nothing twice")
    func restart() throws {
        var s = CommuteSession(journey: journey())
        let before = replay(&s, [.tick(at("07:50"))], until: at("08:12"))
        #expect(before == ["07:58:00 vehicleArriving A", "08:10:00 arrivingAtTransfer X1"])
        var restored = try JSONDecoder().decode(CommuteSession.self, from: try JSONEncoder().encode(s))
        #expect(replay(&restored, [.tick(at("08:12"))]) == ["08:25:00 arrivingAtDestination D"])
    }

    // MARK: A real phone (issue 24): each alert in its window, from the right evidence

    @Test("a lying fix 2.2 km ahead of the train, 60 m from the change, and then no signal: nothing early, the arrival when the train leaves C")
    func lyingFixAhead() {
        // On T1 between B (08:05) and C (08:10); at 08:06 one fix lands at the change, then the phone is silent.
        var s = CommuteSession(journey: journey())
        let alerts = replay(&s, [.tick(at("07:50")), fix("08:05:30", B, east: 0.002), fix("08:06", X, accuracy: 20, east: -0.0005)], basis: true)
        #expect(alerts == ["07:58:00 vehicleArriving A by timetable", "08:10:00 arrivingAtTransfer X1 by timetable",
                           "08:25:00 arrivingAtDestination D by timetable"])
    }

    @Test("a train 6 minutes late by its live times, and 8 minutes with no fix underground: each arrival as the train really leaves the stop before")
    func lateTrainInATunnel() {
        var s = CommuteSession(journey: journey())
        let alerts = replay(&s, [.tick(at("07:50")), .journey(journey(firstLate: 360), at: at("07:55")), fix("08:06:10", A),
                                 fix("08:14:30", C, east: 0.002)], basis: true)
        // Leaves A at 08:06 (arriving said 08:04), leaves C at 08:16: the fix past C at 08:14:30 says nothing early.
        #expect(alerts == ["08:04:00 vehicleArriving A by liveTimes", "08:16:00 arrivingAtTransfer X1 by liveTimes",
                           "08:25:00 arrivingAtDestination D by timetable"])
    }

    @Test("a train 6 minutes late with no live data, seen by the positions, then silent: the arrival 6 minutes after the timetable's")
    func lateByPositionsThenSilent() {
        var s = CommuteSession(journey: journey())
        // Still at A at 08:06 (the timetable left at 08:00), at B at 08:11 (08:05 in the timetable), then nothing.
        let alerts = replay(&s, [.tick(at("07:50")), fix("08:06", A), fix("08:11", B)], basis: true)
        #expect(alerts == ["07:58:00 vehicleArriving A by timetable", "08:16:00 arrivingAtTransfer X1 by position",
                           "08:25:00 arrivingAtDestination D by timetable"])
    }

    @Test("the positions said late, then the train made up time: a fix past the stop before says the arrival then, not at the late estimate")
    func madeUpTime() {
        var s = CommuteSession(journey: journey())
        let alerts = replay(&s, [.tick(at("07:50")), fix("08:06", A), fix("08:12", C, east: 0.004), fix("08:12:05", C, east: 0.004)], basis: true)
        #expect(alerts == ["07:58:00 vehicleArriving A by timetable", "08:12:00 arrivingAtTransfer X1 by position",
                           "08:25:00 arrivingAtDestination D by timetable"])
    }

    @Test("a 300 m drift along a parallel street beside the line is not taken for arriving, nor for a late train")
    func sidewaysDrift() {
        var s = CommuteSession(journey: journey())
        // 0.0027° of latitude is 300 m north of the line, level with C and then with the change.
        let north = { (time: String, stop: JourneyStop) in CommuteEvent.position(at: at(time), latitude: 0.0027, longitude: stop.longitude, accuracy: 20) }
        let alerts = replay(&s, [.tick(at("07:50")), fix("08:04", B), north("08:06", C), north("08:07", C), north("08:09", X), north("08:09:30", X)],
                            basis: true)
        #expect(alerts == ["07:58:00 vehicleArriving A by timetable", "08:10:00 arrivingAtTransfer X1 by timetable",
                           "08:25:00 arrivingAtDestination D by timetable"])
    }

    @Test("an early train by its live times: the alerts come earlier, and a fix at the change is still not said before the train leaves C")
    func earlyTrain() {
        var s = CommuteSession(journey: journey())
        let alerts = replay(&s, [.tick(at("07:50")), .journey(journey(firstLate: -120), at: at("07:55")), fix("08:07:30", X), fix("08:07:40", X)],
                            basis: true)
        #expect(alerts == ["07:56:00 vehicleArriving A by liveTimes", "08:08:00 arrivingAtTransfer X1 by position",
                           "08:25:00 arrivingAtDestination D by timetable"])
    }

    @Test("a beacon at the change inside a tunnel says the arrival at once, even before the timetable's moment")
    func beaconInATunnel() {
        var s = CommuteSession(journey: journey())
        let alerts = replay(&s, [.tick(at("07:50")), .beacon(at: at("08:09:20"), stopID: "X")], basis: true)
        #expect(alerts == ["07:58:00 vehicleArriving A by timetable", "08:09:20 arrivingAtTransfer X1 by beacon",
                           "08:25:00 arrivingAtDestination D by timetable"])
    }

    @Test("a cancelled train is said at once, once, and the journey is planned again from where it would have been boarded")
    func cancelledTrain() {
        var s = CommuteSession(journey: journey())
        var cancelled = journey()
        if case .transit(var first) = cancelled.legs[0] { first.status = .cancelled; cancelled.legs[0] = .transit(first) }
        var alerts = replay(&s, [.tick(at("07:50")), .journey(cancelled, at: at("07:55")), .journey(cancelled, at: at("07:55:30"))],
                            until: at("07:56"), basis: true)
        #expect(alerts == ["07:55:00 tripCancelled A by liveTimes"])
        #expect(s.replanFrom?.stopID == "A")
        // The new plan: the next T1 at 08:05. Its vehicle is said arriving; the rest follows it.
        let replanned = Journey(legs: [
            .transit(ride("T1b", A, "08:05", [(B, "08:10"), (C, "08:15")], X, "08:20")),
            .walk(WalkLeg(from: X, to: X2, departure: at("08:20"), seconds: 9)),
            .transit(ride("T2b", X2, "08:25", [(Y, "08:30")], D, "08:35")),
        ])
        alerts = replay(&s, [.journey(replanned, at: at("07:56"))], until: at("09:00"))
        #expect(alerts == ["08:03:00 vehicleArriving A", "08:15:00 arrivingAtTransfer X1", "08:30:00 arrivingAtDestination D"])
        #expect(s.replanFrom == nil)
    }

    @Test("a skipped stop before the destination: the train passes it at the time its delay carries, and the arrival is said then")
    func skippedStop() {
        var s = CommuteSession(journey: journey())
        // 3 minutes late from A; the live data gives no time at C (skipped), so the delay carries on to it.
        var skipping = journey(firstLate: 180)
        if case .transit(var first) = skipping.legs[0] { first.calls[1].expectedDeparture = nil; skipping.legs[0] = .transit(first) }
        let alerts = replay(&s, [.tick(at("07:50")), .journey(skipping, at: at("07:55"))], basis: true)
        #expect(alerts == ["08:01:00 vehicleArriving A by liveTimes", "08:13:00 arrivingAtTransfer X1 by liveTimes",
                           "08:25:00 arrivingAtDestination D by timetable"])
    }

    @Test("a train late enough to miss its connection: a plan from the change as it arrives, and the alert before the change offers it")
    func connectionLost() {
        var s = CommuteSession(journey: journey())
        // 6 minutes late: arriving at X1 08:21, after the 08:20 T2 leaves X2.
        #expect(replay(&s, [.tick(at("07:50")), .journey(journey(firstLate: 360), at: at("07:55"))], until: at("07:56")).isEmpty)
        #expect(s.replanFrom?.stopID == "X1" && s.replan == CommuteSession.Replan(at: at("08:21"), keepRides: 1))
        // The driver plans from X1 at 08:21 and keeps the first ride: the 08:25 T2b.
        let rest = Journey(legs: [.walk(WalkLeg(from: X, to: X2, departure: at("08:21"), seconds: 9)),
                                  .transit(ride("T2b", X2, "08:25", [(Y, "08:30")], D, "08:35"))])
        let spliced = journey(firstLate: 360).keepingRides(1, then: rest)
        #expect(spliced.rides.map(\.tripID) == ["T1", "T2b"] && spliced.legs.count == 3)
        let alerts = replayAlerts(&s, [.journey(spliced, at: at("07:56"))], until: at("09:00"))
        #expect(s.replanFrom == nil && s.replan == nil)
        #expect(alerts.map(\.kind) == [.vehicleArriving, .arrivingAtTransfer, .arrivingAtDestination])
        #expect(alerts[1].at == at("08:16") && alerts[1].message
            == "Next stop Stop X1: the 08:20 T2 will have left: change to the T2b to Terminus, platform 2, leaving at 08:25.")
        #expect(alerts[2].at == at("08:30"))
        // Live times that keep the connection possible ask for nothing.
        var fine = CommuteSession(journey: journey())
        _ = replay(&fine, [.tick(at("07:50")), .journey(journey(firstLate: 240), at: at("07:55"))], until: at("07:56"))
        #expect(fine.replanFrom == nil)
    }

    @Test("staying on board: a late first trip loses no connection, and nothing is said where the vehicle goes on")
    func staysSeated() {
        func seated(_ late: Int64) -> Journey {
            var j = journey(firstLate: late)
            j.legs = [j.legs[0], j.legs[2]]
            if case .transit(var next) = j.legs[1] { next.staysSeated = true; j.legs[1] = .transit(next) }
            return j
        }
        var s = CommuteSession(journey: seated(0))
        // 10 minutes late: the first trip reaches X at 08:25, after the second's timetabled 08:20 (which has no live times).
        let alerts = replay(&s, [.tick(at("07:50")), .journey(seated(600), at: at("07:55"))], basis: true)
        #expect(s.replanFrom == nil && s.replan == nil)
        #expect(alerts == ["08:08:00 vehicleArriving A by liveTimes", "08:25:00 arrivingAtDestination D by timetable"])
    }

    @Test("speed limits come from the ride's mode: 60 m/s is a jump on a bus, not on a train")
    func speedByMode() {
        func session(routeType: Int) -> CommuteSession {
            var j = journey()
            if case .transit(var first) = j.legs[0] { first.routeType = routeType; j.legs[0] = .transit(first) }
            return CommuteSession(journey: j)
        }
        // On T1 at 08:05:00 at B, then at 08:05:10 400 m on (within a minute of the timetable's vehicle): 40 m/s.
        let events = [fix("08:05", B), fix("08:05:10", B, east: 0.0036), fix("08:05:11", B, east: 0.0036)]
        var bus = session(routeType: 3), rail = session(routeType: 2)
        _ = replay(&bus, Array(events.prefix(2)), until: at("08:05:10"))
        _ = replay(&rail, Array(events.prefix(2)), until: at("08:05:10"))
        let moved = 0.0136
        #expect(bus.believedPosition.map { abs($0.longitude - 0.01) < 1e-9 } == true)
        #expect(rail.believedPosition.map { abs($0.longitude - moved) < 1e-9 } == true)
        // The bus's second fix there agrees with the first: believed.
        _ = replay(&bus, [events[2]], until: at("08:05:11"))
        #expect(bus.believedPosition.map { abs($0.longitude - moved) < 1e-9 } == true)
    }

    @Test("beacons.csv: stops by uuid, major and minor; a bad line is named")
    func beaconMap() throws {
        let map = try BeaconMap(csv: "uuid,major,minor,stop_id\nF7826DA6-4FA2-4E98-8024-BC5B71E0893E,1,7,mrt-jakarta:SBHI\n")
        #expect(map.stop(uuid: "f7826da6-4fa2-4e98-8024-bc5b71e0893e", major: 1, minor: 7) == "mrt-jakarta:SBHI")
        #expect(map.stop(uuid: "f7826da6-4fa2-4e98-8024-bc5b71e0893e", major: 1, minor: 8) == nil)
        #expect(throws: BeaconMapError(line: 3, reason: "expected uuid,major,minor,stop_id with whole-number major and minor")) {
            try BeaconMap(csv: "uuid,major,minor,stop_id\nu,1,2,S\nu,one,2,S\n")
        }
    }
}
