import Commute
import Foundation
import OnwardCore
import Testing

// The watch's rules on a journey built by hand, in UTC: ride T1 from A (platform 1) 07:40 to X 07:55, a
// 2-minute walk to X2, ride T2 08:00 to D 08:15.

private func at(_ hhmm: String) -> Instant {
    let p = hhmm.split(separator: ":").map { Int64($0)! }
    return Instant(epochSeconds: 20_415 * 86_400 + p[0] * 3600 + p[1] * 60)  // Sunday 2025-11-23
}

private func stop(_ id: String, platform: String? = nil) -> JourneyStop {
    JourneyStop(stopID: id, name: "Stop \(id)", platform: platform, timeZone: "UTC", latitude: 0, longitude: 0)
}

private func ride(_ trip: String, _ from: JourneyStop, _ leaves: String, _ to: JourneyStop, _ arrives: String,
                  late: Int64 = 0, status: LiveStatus? = nil) -> TransitLeg {
    var leg = TransitLeg(tripID: trip, routeID: "R", routeShortName: trip, routeLongName: "", routeColor: nil, headsign: "D",
                         serviceDate: ServiceDate(dayNumber: 20_415), startTime: nil, from: from, to: to, departure: at(leaves), arrival: at(arrives))
    if late != 0 || status != nil {
        leg.expectedDeparture = at(leaves).adding(seconds: late)
        leg.expectedArrival = at(arrives).adding(seconds: late)
        leg.status = status ?? .late
    }
    return leg
}

private func journey(firstLate: Int64 = 0, secondLate: Int64 = 0, firstStatus: LiveStatus? = nil, platform: String = "1") -> Journey {
    Journey(legs: [
        .transit(ride("T1", stop("A", platform: platform), "07:40", stop("X"), "07:55", late: firstLate, status: firstStatus)),
        .walk(WalkLeg(from: stop("X"), to: stop("X2"), departure: at("07:55").adding(seconds: firstLate), seconds: 120)),
        .transit(ride("T2", stop("X2"), "08:00", stop("D"), "08:15", late: secondLate)),
    ])
}

private let option = journey()
private let utc = TimeZone(identifier: "UTC")!

@Suite("watched journey rules")
struct WatchRulesTests {
    @Test("findings: late by the later of departure and arrival, cancelled, a moved platform, a change the live times make impossible")
    func findings() {
        #expect(WatchFindings(option: option, live: option).delayMinutes == 0)
        #expect(WatchFindings(option: option, live: journey(firstLate: 240)).delayMinutes == 4)
        // Only the second ride late: the arrival is what is late.
        #expect(WatchFindings(option: option, live: journey(secondLate: 420)).delayMinutes == 7)
        // Early is not late.
        #expect(WatchFindings(option: option, live: journey(firstLate: -120)).delayMinutes == 0)
        let cancelled = WatchFindings(option: option, live: journey(firstStatus: .cancelled))
        #expect(cancelled.cancelled && cancelled.cancelledRide == "T1")
        #expect(WatchFindings(option: option, live: journey(firstStatus: .skipped)).cancelled)
        #expect(WatchFindings(option: option, live: journey(platform: "4")).platform == "4")
        #expect(WatchFindings(option: option, live: option).platform == nil)
        // 5 minutes to change with a 2-minute walk: 3 minutes late leaves 2 (made), 4 minutes late leaves 1 (lost).
        #expect(WatchFindings(option: option, live: journey(firstLate: 180)).lostChangeAt == nil)
        #expect(WatchFindings(option: option, live: journey(firstLate: 240)).lostChangeAt == "Stop X")
    }

    @Test("news: each change once, the most important first; a delay again only when it moves by the threshold; nothing for nothing")
    func news() {
        func f(_ live: Journey) -> WatchFindings { WatchFindings(option: option, live: live) }
        #expect(f(option).news(since: nil, thresholdMinutes: 3) == nil)
        #expect(f(journey(firstLate: 120)).news(since: nil, thresholdMinutes: 3) == nil)
        // A train drifting a minute per poll, the watcher told only at 3 and 6 (and the change lost at 4 comes first).
        var told: WatchFindings? = nil
        var said: [WatchNotice.Kind] = []
        for minutes in [1, 2, 3, 4, 5, 6, 7] as [Int64] {
            let now = f(journey(firstLate: minutes * 60))
            if let kind = now.news(since: told, thresholdMinutes: 3) { said.append(kind); told = now }
        }
        #expect(said == [.delayed, .connectionLost, .delayed])
        // A cancellation outranks a delay; once told, the same cancellation says nothing; running again is news.
        let cancelled = f(journey(firstLate: 600, firstStatus: .cancelled))
        #expect(cancelled.news(since: told, thresholdMinutes: 3) == .cancelled)
        #expect(cancelled.news(since: cancelled, thresholdMinutes: 3) == nil)
        #expect(f(option).news(since: cancelled, thresholdMinutes: 3) == .reinstated)
        // Back under the threshold after a delay was said.
        #expect(f(journey(firstLate: 60)).news(since: f(journey(firstLate: 300)), thresholdMinutes: 3) == .backOnTime)
        // A platform moved, once.
        #expect(f(journey(platform: "4")).news(since: nil, thresholdMinutes: 3) == .platformChanged)
        #expect(f(journey(platform: "4")).news(since: f(journey(platform: "4")), thresholdMinutes: 3) == nil)
    }

    @Test("messages name the watched departure, the reason and the alternative, in words")
    func messages() {
        let lost = WatchFindings(option: option, live: journey(firstLate: 240))
        let alternative = WatchNotice.Alternative(departure: at("07:48"), arrival: at("08:31"), route: "T9", laterMinutes: 16)
        #expect(WatchNotice(kind: .connectionLost, at: at("07:20"), departure: at("07:40"), findings: lost, alternative: alternative,
                            destination: "Stop D", zone: utc).message
                == "The 07:40 to Stop D: the change at Stop X can no longer be made: take the 07:48, arriving 08:31, 16 min later.")
        let cancelled = WatchFindings(option: option, live: journey(firstStatus: .cancelled))
        #expect(WatchNotice(kind: .cancelled, at: at("07:20"), departure: at("07:40"), findings: cancelled, alternative: nil,
                            destination: "Stop D", zone: utc).message == "The 07:40 to Stop D is cancelled (the T1), and no other way was found.")
        // A late train's alternative is named only when it arrives sooner than the late train.
        let late = WatchFindings(option: option, live: journey(secondLate: 300))
        #expect(WatchNotice(kind: .delayed, at: at("07:20"), departure: at("07:40"), findings: late, alternative: alternative,
                            destination: "Stop D", zone: utc).message == "The 07:40 to Stop D is 5 min late: it leaves at 07:40 and arrives at 08:20.")
        #expect(WatchNotice(kind: .platformChanged, at: at("07:20"), departure: at("07:40"), findings: WatchFindings(option: option, live: journey(platform: "4")),
                            alternative: nil, destination: "Stop D", zone: utc).message == "The 07:40 to Stop D now leaves from platform 4.")
    }

    @Test("the best alternative: not the watched rides, none cancelled, every change possible, the earliest arrival")
    func alternatives() {
        let other = Journey(legs: [.transit(ride("T3", stop("A"), "07:45", stop("D"), "08:20"))])
        let faster = Journey(legs: [.transit(ride("T4", stop("A"), "07:50", stop("D"), "08:18"))])
        let cancelled = Journey(legs: [.transit(ride("T5", stop("A"), "07:42", stop("D"), "08:05", status: .cancelled))])
        let best = WatchNotice.Alternative.best(of: [option, other, cancelled, faster, journey(firstLate: 240)], besides: option)
        #expect(best == WatchNotice.Alternative(departure: at("07:50"), arrival: at("08:18"), route: "T4", laterMinutes: 3))
        #expect(WatchNotice.Alternative.best(of: [option], besides: option) == nil)
        #expect(WatchNotice.Alternative.best(of: [other], besides: nil)?.laterMinutes == nil)
    }

    @Test("the window: from the lead time before each watched day's departure, by the wall clock across a change of clocks")
    func window() throws {
        // London, weekdays at 07:40; clocks went back on Sunday 2026-10-25.
        let zone = try #require(TimeZone(identifier: "Europe/London"))
        let watch = JourneyWatch(from: "a", to: "b", departureSeconds: 7 * 3600 + 40 * 60, timeZone: "Europe/London", days: [0, 1, 2, 3, 4])
        let friday = try #require(ServiceDate(iso: "2026-10-23")), monday = try #require(ServiceDate(iso: "2026-10-26"))
        #expect(LocalTime(watch.departure(on: friday), in: zone).hhmm == "07:40" && LocalTime(watch.departure(on: monday), in: zone).hhmm == "07:40")
        #expect(watch.departure(on: monday).epochSeconds - watch.departure(on: friday).epochSeconds == 3 * 86_400 + 3600)
        let dep = watch.departure(on: monday)
        #expect(watch.watched(at: dep.adding(seconds: -30 * 60 - 1), graceSeconds: 3600) == nil)
        #expect(watch.watched(at: dep.adding(seconds: -30 * 60), graceSeconds: 3600)?.date == monday)
        #expect(watch.watched(at: dep.adding(seconds: 3600), graceSeconds: 3600)?.departure == dep)
        // Not on the weekend; the next departure after Friday's is Monday's.
        let sunday = try #require(ServiceDate(iso: "2026-10-25"))
        #expect(watch.watched(at: watch.departure(on: sunday), graceSeconds: 3600) == nil)
        #expect(watch.nextDeparture(after: watch.departure(on: friday).adding(seconds: 1)) == dep)
        #expect(JourneyWatch(from: "a", to: "b", departureSeconds: 0, timeZone: "UTC").problem()?.field == "days")
        #expect(JourneyWatch(from: "a", to: "b", departureSeconds: 0, timeZone: "UTC", days: [7]).problem()?.field == "days")
        #expect(JourneyWatch(from: "a", to: "b", departureSeconds: 0, timeZone: "UTC", days: [1], leadMinutes: 1).problem()?.field == "leadMinutes")
    }
}
