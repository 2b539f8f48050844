import API
import App
import Commute
import Foundation
import OnwardCore
import OnwardTesting
import Services
import Storage
import Transit

/// `onward-bench commute`: what commuting mode costs the server with `count` commutes in progress on the
/// bundled network (Lebak Bulus → Bundaran HI, 10:00 on a Monday): the engine's work per fix and per
/// live update (each commute's session, a value), then a fix through `CommuteService` (table, storage
/// in memory, live clients) and a live refresh of a commute's journey through the query layer.
enum CommuteBenchmark {
    static func run(count: Int, report: Report) async throws {
        let network = try GTFSNetwork.open(try Network.load([]), options: .init(simulate: true), fetcher: Fetchers.live())
        let registry = SourceRegistry([network.source])
        let start = Instant(epochSeconds: 1_795_402_800)  // Monday 2026-11-23 10:00 in Jakarta
        let query = Queries.JourneyQuery(from: "mrt-jakarta:SLBB", to: "mrt-jakarta:SBHI", at: start)
        let begun = try await CommuteDriver(sources: registry).begin(query, option: 1, settings: CommuteSettings(), now: start)
        guard let ride = begun.journey.rides.first, ride.calls.count > 4 else { throw BenchError("no ride with calls from Lebak Bulus") }
        let stops = [ride.from] + ride.calls.map(\.stop) + [ride.to]
        let times = [ride.departure] + ride.calls.map(\.departure) + [ride.arrival]
        var random = SplitMix64(seed: 24)

        // A fix on the line between two calls at the moment the timetable puts the train there, up to 300 m off.
        func fix(_ k: Int, part: Double) -> CommuteEvent {
            let a = stops[k], b = stops[k + 1]
            let at = times[k].adding(seconds: Int64(Double(times[k + 1].epochSeconds - times[k].epochSeconds) * part))
            let jitter = Double.random(in: -0.0027...0.0027, using: &random)
            return .position(at: at, latitude: a.latitude + (b.latitude - a.latitude) * part + jitter,
                             longitude: a.longitude + (b.longitude - a.longitude) * part, accuracy: Double.random(in: 10...80, using: &random))
        }

        // The engine: `count` sessions, each handed fixes along the ride in time order, round-robin.
        var sessions = Array(repeating: begun.session, count: count)
        var perFix: [Double] = []
        let rounds = 20
        for r in 0..<rounds {
            let k = r * (stops.count - 1) / rounds, part = Double(r % 4) / 4
            for i in 0..<count {
                let event = fix(k, part: part)
                let t = Stopwatch.nanos()
                _ = sessions[i].handle(event)
                perFix.append(Double(Stopwatch.nanos() - t))
            }
        }
        // A live update: the journey 3 minutes late, then back on time, to every session.
        var late = begun.journey
        if case .transit(var first) = late.legs[0] {
            first.expectedDeparture = first.departure.adding(seconds: 180); first.expectedArrival = first.arrival.adding(seconds: 180)
            first.calls = first.calls.map { var c = $0; c.expectedDeparture = c.departure.adding(seconds: 180); return c }
            late.legs[0] = .transit(first)
        }
        var perUpdate: [Double] = []
        for (n, journey) in [late, begun.journey, late].enumerated() {
            let at = ride.departure.adding(seconds: 600 + Int64(n) * 30)
            for i in 0..<count {
                let t = Stopwatch.nanos()
                _ = sessions[i].handle(.journey(journey, at: at))
                perUpdate.append(Double(Stopwatch.nanos() - t))
            }
        }
        let fixes = Samples(perFix), updates = Samples(perUpdate)
        report.add("commute engine per fix p50 / p99 (\(count) sessions, \(perFix.count) fixes)", "\(Format.micros(fixes.median)) / \(Format.micros(fixes.percentile(99)))")
        report.add("commute engine per live update p50 / p99 (\(count) sessions, \(perUpdate.count) updates)",
                   "\(Format.micros(updates.median)) / \(Format.micros(updates.percentile(99)))")

        // The server's service: `count` commutes in its table, fixes arriving through `sighting`.
        let clock = TestNow(ride.departure.adding(seconds: -300))
        let service = CommuteService(repository: InMemoryCommuteRepository(), sources: registry, now: { clock.now })
        var ids: [String] = []
        let startedAt = Stopwatch.nanos()
        for _ in 0..<count { ids.append(try await service.start(begun, simulationSpeed: nil).0) }
        let startSeconds = Double(Stopwatch.nanos() - startedAt) / 1e9
        var perSighting: [Double] = []
        let zone = TimeZone(identifier: "Asia/Jakarta")!
        for r in 0..<5 {
            let k = 1 + r, at = times[k]
            clock.set(at)
            for id in ids {
                let s = CommuteSightingDTO(at: LocalTime(at, in: zone).iso8601, lat: stops[k].latitude, lon: stops[k].longitude, accuracy: 20)
                let t = Stopwatch.nanos()
                _ = try await service.sighting(id, s)
                perSighting.append(Double(Stopwatch.nanos() - t))
            }
        }
        // A live refresh of one commute's journey (what the clock does for each commute every 30 s).
        var perRefresh: [Double] = []
        let queries = Queries(registry, now: ride.departure.adding(seconds: 600))
        for _ in 0..<min(count, 2_000) {
            let t = Stopwatch.nanos()
            _ = await queries.refreshed(begun.journey)
            perRefresh.append(Double(Stopwatch.nanos() - t))
        }
        let sightings = Samples(perSighting), refreshes = Samples(perRefresh)
        report.add("commute service: \(count) commutes started", Format.seconds(startSeconds))
        report.add("commute service per fix (sighting) p50 / p99 (\(count) commutes, \(perSighting.count) fixes)",
                   "\(Format.micros(sightings.median)) / \(Format.micros(sightings.percentile(99)))")
        report.add("commute live refresh of a journey (query layer) p50 / p99 (\(perRefresh.count) refreshes)",
                   "\(Format.micros(refreshes.median)) / \(Format.micros(refreshes.percentile(99)))")
        report.note("commute: bundled MRT Jakarta NS line, \(ride.calls.count + 2) calls, simulated live data; fixes up to 300 m off the line with 10–80 m accuracy")
    }
}
