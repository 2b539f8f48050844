import Foundation
import App
import GTFS
import GTFSRealtime
import GTFSSource
import OnwardCore
import OnwardTesting
import Storage
import SwiftProtobuf
import Testing
import Timetable

/// Delay history from real and simulated trip updates, through the server's path (the network's writer hands each
/// message's observations on), against what the test works out from the same messages' fields.
@Suite("delay history from trip updates", .enabled(if: Fixtures.hasSharedData, "needs ../shared/data"))
struct DelayHistoryTests {
    static let halifax = Result { try GTFSImporter.load(paths: [Fixtures.gtfs("halifax-transit-2025-08")]).timetable }
    static let capture = Fixtures.sharedData.appendingPathComponent("gtfs-rt/halifax/TripUpdates-2025-11-06T2104Z.pb")
    static let captured = Instant(epochSeconds: 1_762_463_054)

    /// What one key of the history should hold, worked out here.
    struct Expected: Equatable {
        var observed = 0, cancelled = 0
        var departures: [Int: Int] = [:], arrivals: [Int: Int] = [:]
    }

    static func minute(_ seconds: Int64) -> Int { Int((Double(seconds) / 60).rounded()) }

    @Test("the Halifax capture replayed gives, per route, stop and hour, the delays its stop time updates give")
    func halifaxCapture() async throws {
        let tt = try Self.halifax.get()
        let message = try TransitRealtime_FeedMessage(serializedBytes: try Data(contentsOf: Self.capture))
        let repository = InMemoryDelayHistoryRepository()
        let writer = RealtimeWriter(store: LiveStore(NetworkState(timetable: tt)))
        await writer.observeDelays { try? await repository.record($0) }
        await writer.apply(RealtimeMessage(message), source: "halifax-rt", now: Self.captured)
        let day = ServiceDate(year: 2025, month: 11, day: 6)!
        #expect(try await repository.fold(through: day) == [day])
        let folded = try await repository.aggregates(day...day, routeID: nil, stopID: nil)

        // The same worked out from the message: each stop time update of a trip in the timetable on 2025-11-06, found by
        // its stop_sequence; the arrival from its time, the departure from its time or else the arrival's delay (a vehicle
        // leaves no earlier than it arrives); a SKIPPED update or a CANCELED trip counts as cancelled; the hour is the
        // scheduled time's on Halifax's clock.
        let zone = TimeZone(identifier: "America/Halifax")!
        struct Key: Hashable { var route: String; var stop: String; var hour: Int }
        var calls: [String: (key: Key, cancelled: Bool, departure: Int?, arrival: Int?)] = [:]
        var cancelledTrips = 0, skipped = 0
        for entity in message.entity where entity.hasTripUpdate {
            let update = entity.tripUpdate
            guard let trip = tt.trip(id: update.trip.tripID), update.trip.startDate == "20251106" else { continue }
            let run = TripInstance(trip: trip, serviceDay: day.dayNumber)
            let n = tt.callCount(of: trip)
            let route = tt.routeInfo(tt.route(of: trip)).id
            func key(_ k: Int) -> Key {
                let stop = tt.place(tt.patternStopAt(trip: trip, call: k)).id
                let at = k == n - 1 ? tt.scheduledArrival(run, k) : tt.scheduledDeparture(run, k)
                return Key(route: route, stop: stop, hour: HourOfWeek(Instant(epochSeconds: at), in: zone).raw)
            }
            if update.trip.scheduleRelationship == .canceled {
                cancelledTrips += 1
                for k in 0..<n { calls["\(tt.tripIdentifier(trip))/\(k)"] = (key(k), true, nil, nil) }
                continue
            }
            for stu in update.stopTimeUpdate {
                // By stop_sequence; where the producer's numbers disagree with the static feed (the call there is at
                // another stop), by stop_id.
                var found = stu.hasStopSequence ? tt.callIndex(of: trip, sequence: stu.stopSequence) : nil
                if stu.hasStopID, let stop = tt.stop(id: stu.stopID), found.map({ tt.patternStopAt(trip: trip, call: $0) != stop }) ?? true {
                    found = tt.callIndex(of: trip, stop: stop) ?? found
                }
                guard let k = found else { continue }
                if stu.scheduleRelationship == .skipped {
                    skipped += 1
                    calls["\(tt.tripIdentifier(trip))/\(k)"] = (key(k), true, nil, nil)
                    continue
                }
                guard stu.scheduleRelationship == .scheduled, stu.hasArrival || stu.hasDeparture else { continue }
                let schedArr = tt.scheduledArrival(run, k), schedDep = tt.scheduledDeparture(run, k)
                let arrivalDelay = stu.hasArrival && stu.arrival.hasTime ? stu.arrival.time - schedArr : nil
                let departureDelay = stu.hasDeparture && stu.departure.hasTime ? stu.departure.time - schedDep : arrivalDelay
                guard let a = arrivalDelay ?? departureDelay, let d = departureDelay else { continue }
                let leaves = max(schedDep + d, schedArr + a)
                calls["\(tt.tripIdentifier(trip))/\(k)"] = (key(k), false, k < n - 1 ? Int(leaves - schedDep) : nil, k > 0 ? Int(a) : nil)
            }
        }
        var expected: [Key: Expected] = [:]
        for c in calls.values {
            if c.cancelled { expected[c.key, default: Expected()].cancelled += 1; continue }
            expected[c.key, default: Expected()].observed += 1
            if let d = c.departure { expected[c.key, default: Expected()].departures[Self.minute(Int64(d)), default: 0] += 1 }
            if let a = c.arrival { expected[c.key, default: Expected()].arrivals[Self.minute(Int64(a)), default: 0] += 1 }
        }
        var got: [Key: Expected] = [:]
        for a in folded {
            got[Key(route: a.routeID, stop: a.stopID, hour: a.hourOfWeek.raw)] =
                Expected(observed: a.observed, cancelled: a.cancelled, departures: a.departures.counts, arrivals: a.arrivals.counts)
        }
        #expect(cancelledTrips == 4 && skipped > 0)
        #expect(calls.count > 15_000)
        #expect(got.count == expected.count)
        #expect(got == expected)
        let raw = try await repository.observations(on: day)
        #expect(raw.count == calls.count)
        let extra = raw.filter { calls["\($0.tripID)/\($0.call)"] == nil }.prefix(8)
        #expect(extra.isEmpty, "\(extra.map { "\($0.tripID) call \($0.call) dep \($0.departureDelay ?? -1) cancelled \($0.cancelled)" })")
        // Thursday: every key is in weekday 3's hours.
        #expect(folded.allSatisfy { $0.hourOfWeek.weekday == 3 })
    }

    @Test("a day of the simulation replayed: each call's last word is kept and the simulation's cancelled run is counted")
    func simulatedDay() async throws {
        let tt = try Network.load([]).timetable
        let repository = InMemoryDelayHistoryRepository()
        var state = NetworkState(timetable: tt)
        state.simulated = true
        let writer = RealtimeWriter(store: LiveStore(state))
        await writer.observeDelays { try? await repository.record($0) }
        let ticker = SimulationTicker(writer: writer, interval: .seconds(600))
        let start = Instant(epochSeconds: Int64(ServiceDate(year: 2026, month: 11, day: 23)!.dayNumber) * 86_400)
        // What the last message that spoke of each call said, worked out from the messages themselves: a run cancelled
        // in one tick may run in the next (the simulation cancels the next run to leave), and the latest word stands.
        var last: [String: [UInt32: Int]] = [:]
        var cancelled: [String: Bool] = [:]
        var skipped: [String: Bool] = [:]
        for i in 0..<144 {
            let now = start.adding(seconds: Int64(i * 600))
            await ticker.tick(now: now)
            let tripUpdates = SimulatedFeed(timetable: tt, idPrefix: state.idPrefix).messages(at: now).tripUpdates
            for e in tripUpdates.entity {
                let u = e.tripUpdate
                let run = u.trip.tripID + "/" + u.trip.startDate
                cancelled[run] = u.trip.scheduleRelationship == .canceled
                if cancelled[run]! { last[run] = nil; continue }
                for stu in u.stopTimeUpdate {
                    // A skipped call is one the traveller there misses: cancelled at that stop.
                    skipped[run + "/\(stu.stopSequence)"] = stu.scheduleRelationship == .skipped
                    if stu.scheduleRelationship == .skipped { last[run]?[stu.stopSequence] = nil }
                    if stu.hasDeparture { last[run, default: [:]][stu.stopSequence] = Int(stu.departure.delay) }
                }
            }
        }
        let days = ServiceDate(year: 2026, month: 11, day: 22)!...ServiceDate(year: 2026, month: 11, day: 24)!
        var raw: [DelayObservation] = []
        for d in stride(from: days.lowerBound.dayNumber, through: days.upperBound.dayNumber, by: 1) {
            raw += try await repository.observations(on: ServiceDate(dayNumber: d))
        }
        let departures = raw.filter { !$0.cancelled && $0.departureDelay != nil }
        #expect(departures.count == last.values.reduce(0) { $0 + $1.count })
        for o in departures {
            let sequence = tt.stopSequence(trip: try #require(tt.trip(id: o.tripID)), call: o.call)
            #expect(o.departureDelay == last[CanonicalID.split(o.tripID)!.local + "/" + o.serviceDate.gtfsString]?[sequence])
        }
        let cancelledRuns = Set(cancelled.filter(\.value).keys).union(skipped.filter(\.value).keys.map { String($0[..<$0.lastIndex(of: "/")!]) })
        #expect(!cancelledRuns.isEmpty)
        #expect(Set(raw.filter(\.cancelled).map { CanonicalID.split($0.tripID)!.local + "/" + $0.serviceDate.gtfsString }) == cancelledRuns)
    }
}
