import API
import Commute
import Foundation
import OnwardCore
import WebPush

/// What the server keeps of one commute, stored whole as JSON (`CommuteRecord.state`), so a
/// restarted server carries on where it was: the engine's state, the journey, what was said.
public struct CommuteState: Codable, Sendable, Equatable {
    var session: CommuteSession
    var plan: Plan
    var alerts: [CommuteAlert] = []
    var simulation: Simulation?
    var push: PushSubscription?
    /// Counts changes (see `CommuteRecord.revision`).
    var revision = 0
    /// When the live times were last asked for.
    var refreshedAt: Instant?

    /// The journey being made (after a missed change, the new plan), as shown: the session's, kept once.
    var journey: Journey { session.journey.whole }

    init(session: CommuteSession, plan: Plan) { self.session = session; self.plan = plan }

    private enum CodingKeys: String, CodingKey { case session, plan, alerts, simulation, push, revision, refreshedAt }
    /// Where a state stored before the session kept the whole journey has it.
    private enum EarlierKeys: String, CodingKey { case journey }

    /// Reads a state as stored, also one stored when the journey was kept beside the session (then taken up by it).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        session = try c.decode(CommuteSession.self, forKey: .session)
        if let kept = try decoder.container(keyedBy: EarlierKeys.self).decodeIfPresent(Journey.self, forKey: .journey) { session.restoreJourney(kept) }
        plan = try c.decode(Plan.self, forKey: .plan)
        alerts = try c.decodeIfPresent([CommuteAlert].self, forKey: .alerts) ?? []
        simulation = try c.decodeIfPresent(Simulation.self, forKey: .simulation)
        push = try c.decodeIfPresent(PushSubscription.self, forKey: .push)
        revision = try c.decodeIfPresent(Int.self, forKey: .revision) ?? 0
        refreshedAt = try c.decodeIfPresent(Instant.self, forKey: .refreshedAt)
    }

    /// How to plan again after a missed change: to the same destination with the same options.
    public struct Plan: Codable, Sendable, Hashable {
        public var destination: String
        public var maxWalkMetres: Int
        public var transferSlackSeconds: Int
        public var maxTransfers: Int
        public var wheelchair: Bool

        public init(destination: String, maxWalkMetres: Int, transferSlackSeconds: Int, maxTransfers: Int, wheelchair: Bool) {
            self.destination = destination; self.maxWalkMetres = maxWalkMetres; self.transferSlackSeconds = transferSlackSeconds
            self.maxTransfers = maxTransfers; self.wheelchair = wheelchair
        }
    }

    /// A traveller who follows the journey on time, on a clock `speed` times faster than real time
    /// from `realStart`, when the simulated clock read `start`.
    struct Simulation: Codable, Sendable, Hashable {
        var journey: Journey
        var realStart: Instant
        var start: Instant
        var speed: Int
        /// How many of the track's positions were handed to the engine.
        var handled = 0

        func clock(at real: Instant) -> Instant {
            start.adding(seconds: max(real.epochSeconds - realStart.epochSeconds, 0) * Int64(speed))
        }

        /// When, in real time, the simulated clock reads `simulated`.
        func realTime(of simulated: Instant) -> Instant {
            let ahead = max(simulated.epochSeconds - start.epochSeconds, 0)
            return realStart.adding(seconds: (ahead + Int64(speed) - 1) / Int64(speed))
        }

        /// Sets out six minutes before the first departure.
        var track: [CommuteEvent] { CommuteDriver.simulatedTrack(journey) }
    }

    /// The commute's clock: real time, or the simulation's.
    func clock(at real: Instant) -> Instant { simulation?.clock(at: real) ?? real }

    /// Over a quarter of an hour after the journey's arrival (by the commute's clock).
    func isOver(at real: Instant) -> Bool { clock(at: real) > journey.arrival.adding(seconds: 900) }

    /// When the record may be forgotten: an hour after the journey is over, in real time.
    var expiresAt: Instant {
        let over = journey.arrival.adding(seconds: 900)
        return (simulation?.realTime(of: over) ?? over).adding(seconds: 3600)
    }

    func dto(id: String?, at real: Instant) -> CommuteDTO {
        let over = isOver(at: real)
        return CommuteDTO(id: id, status: over ? "ended" : "active", simulated: simulation != nil, speed: simulation?.speed,
                          journey: journey, alerts: alerts, ahead: over ? [] : session.ahead(from: clock(at: real), until: journey.arrival.adding(seconds: 900)),
                          now: clock(at: real), push: push != nil)
    }
}
