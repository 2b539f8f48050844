import API
import App
import Commute
import Foundation
import OnwardCore
import OnwardTesting
@testable import Services
import Storage
import Testing
import Transit

/// `onward commute --track` promises to say what the server would say. Both run `CommuteDriver`: the same
/// track, replayed by the CLI and fed to the server's `CommuteService` second by second, gives the same
/// alerts, kind by kind and second by second.
@Suite("one commute driver: the CLI replays what the server does")
struct OneCommuteDriverTests {
    struct Said: Equatable, CustomStringConvertible {
        var at: String, kind: String, stop: String
        var description: String { "\(at) \(kind) \(stop)" }
    }

    @Test("a track with a fix a kilometre off, ten minutes without signal and fixes with no accuracy: the same alerts from both")
    func sameAlerts() async throws {
        let network = try GTFSNetwork.open(try Network.load([]), options: .init(), fetcher: FakeHTTPFetcher())
        let registry = SourceRegistry([network.source])
        let start = Instant(epochSeconds: 1_795_395_480)  // Monday 2026-11-23 07:58 in Jakarta
        let zone = try #require(TimeZone(identifier: "Asia/Jakarta"))
        let query = Queries.JourneyQuery(from: "mrt-jakarta:SLBB", to: "mrt-jakarta:SBHI", at: start)
        // "Near the station" on, so where a fix with no accuracy is counted matters from the first one.
        var settings = CommuteSettings()
        settings.nearStation = true
        let begun = try await CommuteDriver(sources: registry).begin(query, option: 1, settings: settings, now: start)
        let ride = try #require(begun.journey.rides.first)
        let calls = ride.calls
        #expect(calls.count >= 8)
        // The traveller's phone: 185 m north of the station's point with no accuracy given (near it with the default
        // accuracy of 50 m, not with 20 m), then at the platform, waiting; on board; one fix a kilometre
        // ahead (north) of the train at the third call; nothing for ten minutes underground; then at the stop
        // before the destination as the train leaves it, and at Bundaran HI.
        func line(_ at: Instant, _ lat: Double, _ lon: Double, accuracy: Int? = nil) -> String {
            #"{"at": "\#(LocalTime(at, in: zone).iso8601)", "lat": \#(lat), "lon": \#(lon)\#(accuracy.map { ", \"accuracy\": \($0)" } ?? "")}"#
        }
        let leaves = ride.departure
        let third = calls[2], beforeLast = calls[calls.count - 1]
        let lines = [
            line(start, begun.from.latitude + 0.00166, begun.from.longitude),
            line(leaves.adding(seconds: -60), ride.from.latitude, ride.from.longitude, accuracy: 15),
            line(leaves.adding(seconds: 30), ride.from.latitude, ride.from.longitude, accuracy: 25),
            line(calls[1].departure.adding(seconds: -20), calls[1].stop.latitude, calls[1].stop.longitude, accuracy: 30),
            line(third.departure, third.stop.latitude + 0.009, third.stop.longitude),
            line(beforeLast.departure, beforeLast.stop.latitude, beforeLast.stop.longitude),
            line(ride.arrival, ride.to.latitude, ride.to.longitude, accuracy: 20),
        ]
        #expect(beforeLast.departure.epochSeconds - third.departure.epochSeconds >= 600, "ten minutes without a fix")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let track = URL(fileURLWithPath: folder.path).appendingPathComponent("track.jsonl")
        try lines.joined(separator: "\n").write(to: track, atomically: true, encoding: .utf8)

        // The CLI.
        let out = try OnwardExecutable.run(["commute", "SLBB", "SBHI", "--date", "2026-11-23", "--time", "07:58", "--track", track.path, "--near-station", "--json"])
        #expect(out.status == 0, "\(out.stderr)")
        let cli = try out.stdout.split(separator: "\n").map { try JSONDecoder().decode(CommuteAlertDTO.self, from: Data($0.utf8)) }
            .map { Said(at: $0.at, kind: $0.kind, stop: $0.stopId) }

        // The server: its clock moves a second at a time, each sighting arrives when it was taken.
        let clock = TestNow(start)
        let service = CommuteService(repository: InMemoryCommuteRepository(), sources: registry, now: { clock.now })
        let (id, _) = try await service.start(begun, simulationSpeed: nil)
        let sightings = try lines.map { try JSONDecoder().decode(CommuteSightingDTO.self, from: Data($0.utf8)) }
        var second = start
        while second <= ride.arrival.adding(seconds: 1_800) {
            clock.set(second)
            for s in sightings where s.at.flatMap(Instant.init(iso8601:)) == second { _ = try await service.sighting(id, s) }
            await service.step(id)
            second = second.adding(seconds: 1)
        }
        let server = try #require(await service.view(id)).alerts.map { Said(at: $0.at, kind: $0.kind, stop: $0.stopId) }

        #expect(cli == server, "\(cli)")
        #expect(server.map(\.kind) == ["vehicleArriving", "nearStation", "arrivingAtDestination"], "\(server)")
        // Near the station from the first fix: 185 m off with no accuracy given is near with the default 50 m.
        #expect(server.first { $0.kind == "nearStation" }?.at == LocalTime(start, in: zone).iso8601)
    }
}
