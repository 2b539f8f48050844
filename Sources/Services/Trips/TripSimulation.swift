import Foundation
import OnwardCore
import SkiMap
import Storage
import Synchronization
import Trips

/// Simulated travellers for a trip on the ski area, so a host can see the app work without a group:
/// five accounts (named "… (simulated)") join the trip and ski, each at their own level, from a lift's
/// foot up the lift and down runs no harder than their level, sharing their position every two seconds
/// (each share lasting a minute) until the trip ends; they answer the events they are invited to and
/// say hello in the chat. They go through `TripService` like anyone else, so every privacy rule
/// applies to them too.
public enum TripSimulation {
    static let travellers: [(name: String, level: SkiDifficulty)] = [
        ("Ana", .novice), ("Bruno", .easy), ("Chloé", .intermediate), ("Dai", .advanced), ("Eva", .expert),
    ]
    /// Metres a simulated skier moves per tick (two seconds): a brisk pace, so the map visibly moves.
    static let metresPerTick = 30.0
    static let tick: Duration = .seconds(2)
    /// Trips with a simulation running (one each).
    static let running = Mutex<Set<String>>([])

    public static func start(on tripID: String, by host: String, trips: TripService, ski: SkiRouter?) async throws {
        let trip = try await trips.trip(tripID, for: host)
        guard trip.isHost(host) else {
            throw ServiceError(.hostsOnly, "Only a host can add simulated travellers.")
        }
        guard let router = ski else {
            throw ServiceError(.noSkiArea, "Simulated travellers ski: this server has no ski area.")
        }
        guard running.withLock({ $0.insert(tripID).inserted }) else { return }
        var people: [(id: String, level: SkiDifficulty)] = []
        for t in travellers {
            let account = Account(id: Secrets.id(), displayName: "\(t.name) (simulated)", createdAt: trips.now())
            try await trips.people.repository.createAccount(account)
            _ = try await trips.join(account.id, code: trip.inviteCode)
            people.append((account.id, t.level))
        }
        if let first = people.first { _ = try? await trips.post("trip:\(tripID)", by: first.id, text: "Hi all! Heading up the mountain ⛷") }
        Task {
            await withTaskGroup(of: Void.self) { group in
                for (i, p) in people.enumerated() {
                    group.addTask { await Self.ski(p.id, level: p.level, seed: i, trip: trip, router: router, trips: trips) }
                }
            }
            _ = running.withLock { $0.remove(tripID) }
        }
    }

    /// One skier's loop: lift up, ski down, again, until the trip ends or they are no longer on it.
    static func ski(_ person: String, level: SkiDifficulty, seed: Int, trip: Trip, router: SkiRouter, trips: TripService) async {
        var random = SystemRandomNumberGenerator()
        let lifts = router.area.lifts.filter { !$0.points.isEmpty }
        guard !lifts.isEmpty else { return }
        var lift = lifts[seed % lifts.count]
        while trips.now() < trip.endsAt, !Task.isCancelled {
            // Up the lift, then down to the foot of another lift, by runs no harder than the level.
            var path = lift.points
            let next = lifts.randomElement(using: &random)!
            if let top = lift.points.last, let foot = next.points.first,
               let down = try? router.route(from: top, to: foot, level: level) {
                path += down.legs.flatMap(\.points)
                lift = next
            } else {
                lift = lifts.randomElement(using: &random)!
            }
            for point in resample(path, every: metresPerTick) {
                // Shared a minute at a time: if the server stops, the simulated skiers leave the map within a minute.
                guard (try? await trips.share(trip.id, person: person, latitude: point.latitude, longitude: point.longitude, accuracy: 8,
                                              until: min(trip.endsAt, trips.now().adding(seconds: 60)))) != nil else { return }
                await answerInvitations(person, trip: trip.id, trips: trips, random: &random)
                do { try await Task.sleep(for: tick) } catch { return }
            }
        }
    }

    /// Answers each event the skier was invited to and has not answered.
    static func answerInvitations(_ person: String, trip: String, trips: TripService, random: inout SystemRandomNumberGenerator) async {
        guard let events = try? await trips.events(trip, for: person) else { return }
        for e in events where e.invitees.contains(person) && e.answers[person] == nil {
            let answer: TripEvent.Answer = [.going, .going, .maybe, .notGoing].randomElement(using: &random)!
            _ = try? await trips.answer(trip, event: e.id, by: person, answer)
        }
    }

    /// Points along a path every `step` metres.
    static func resample(_ points: [SkiPoint], every step: Double) -> [SkiPoint] {
        guard var last = points.first else { return [] }
        var out = [last], carried = 0.0
        for p in points.dropFirst() {
            let d = GreatCircle.metres(last.latitude, last.longitude, p.latitude, p.longitude)
            var along = step - carried
            while along <= d {
                let f = along / d
                out.append(SkiPoint(latitude: last.latitude + (p.latitude - last.latitude) * f, longitude: last.longitude + (p.longitude - last.longitude) * f))
                along += step
            }
            carried = d - (along - step)
            last = p
        }
        return out
    }
}
