import Foundation
import InMemoryLogging
import Logging
import OnwardCore
import Server
import Services
import Storage
import Synchronization
import Testing
import Trips

/// The relay between servers, on a transport that fails: changes are still taken in order, and the
/// failure is said at the 1st, 10th and 100th in a row, not once per change.
@Suite("live relay", .timeLimit(.minutes(1)))
struct LiveRelayTests {
    final class FailingTransport: RelayTransport {
        let sends = Mutex(0)
        let sent: AsyncStream<Int>.Continuation
        let counts: AsyncStream<Int>
        init() { (counts, sent) = AsyncStream.makeStream() }

        struct Down: Error {}

        func send(_ text: String) async throws {
            sent.yield(sends.withLock { $0 += 1; return $0 })
            throw Down()
        }

        func listen(_ heard: @escaping @Sendable (String?) async -> Void) async {
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3_600)) }
        }
    }

    @Test("a database that is away is not a log flood")
    func failuresLoggedSparingly() async throws {
        let handler = InMemoryLogHandler()
        let transport = FailingTransport()
        let relay = LiveRelay(transport: transport, logger: Logger(label: "relay-test") { _ in handler })
        let running = Task { try await relay.run() }
        for i in 0..<150 { relay.announce(.routes(account: "a\(i)")) }
        for await count in transport.counts where count == 150 { break }
        running.cancel()
        let warnings = handler.entries.filter { $0.level == .warning }
        #expect(warnings.map { $0.metadata["failures"] } == ["1", "10", "100"])
    }

    /// Servers on one bus; one of them can stop hearing it (what it misses is lost) and hear it again.
    final class Bus: Sendable {
        struct Member {
            var heard: @Sendable (String?) async -> Void
            var deaf = false
        }
        let members = Mutex<[Int: Member]>([:])
        /// Texts sent, by anyone.
        let sent = Mutex(0)

        func transport(_ number: Int) -> Transport { Transport(bus: self, number: number) }

        struct Transport: RelayTransport {
            let bus: Bus
            let number: Int
            func send(_ text: String) async throws {
                bus.sent.withLock { $0 += 1 }
                for m in bus.members.withLock({ Array($0.values) }) where !m.deaf { await m.heard(text) }
            }
            func listen(_ heard: @escaping @Sendable (String?) async -> Void) async {
                bus.members.withLock { $0[number] = Member(heard: heard) }
                await heard(nil)
                while !Task.isCancelled { try? await Task.sleep(for: .seconds(3_600)) }
            }
        }

        func deafen(_ number: Int) { members.withLock { $0[number]?.deaf = true } }

        /// Hears again, told (as after a reconnection) that it may have missed something.
        func reconnect(_ number: Int) async {
            let heard = members.withLock { m -> (@Sendable (String?) async -> Void)? in
                m[number]?.deaf = false
                return m[number]?.heard
            }
            await heard?(nil)
        }

        func waitForSent(_ n: Int) async throws {
            while sent.withLock({ $0 }) < n { try await Task.sleep(for: .milliseconds(5)) }
        }

        func waitForListeners(_ n: Int) async throws {
            while members.withLock({ $0.count }) < n { try await Task.sleep(for: .milliseconds(5)) }
        }
    }

    @Test("a server that stopped hearing the others brings its live connections up to date when it hears them again")
    func catchUpAfterABreak() async throws {
        let peopleStore = InMemoryPeopleRepository(), tripStore = InMemoryTripRepository()
        let clock = Instant(epochSeconds: 1_800_000_000)
        func server() -> (PeopleService, TripService) {
            let people = PeopleService(repository: peopleStore, hasher: PasswordHasher(cost: 4), now: { clock })
            return (people, TripService(repository: tripStore, people: people, now: { clock }))
        }
        let (peopleA, tripsA) = server(), (peopleB, tripsB) = server()
        let bus = Bus(), quiet = Logger(label: "relay-test") { _ in SwiftLogNoOpLogHandler() }
        let relayA = LiveRelay(transport: bus.transport(1), logger: quiet), relayB = LiveRelay(transport: bus.transport(2), logger: quiet)
        relayA.connect(people: peopleA, trips: tripsA, commutes: nil)
        relayB.connect(people: peopleB, trips: tripsB, commutes: nil)
        let running = [Task { try await relayA.run() }, Task { try await relayB.run() }]
        defer { running.forEach { $0.cancel() } }
        try await bus.waitForListeners(2)

        let (ana, _) = try await peopleA.createAccount(username: "ana", password: "correct horse battery", displayName: nil,
                                                      client: "test", kind: .token)
        let trip = try await tripsA.create(by: ana.account.id, name: "Alps", endsAt: clock.adding(seconds: 86_400))
        // Ben travels with her, so they may write to each other directly.
        let (ben, _) = try await peopleA.createAccount(username: "ben", password: "correct horse battery", displayName: nil,
                                                      client: "test", kind: .token)
        _ = try await tripsA.join(ben.account.id, code: trip.inviteCode)
        // Ana's laptop on server B follows her routes and the trip.
        var routes = peopleB.hub.subscribe(ana.account.id).makeAsyncIterator()
        var signals = tripsB.hub.subscribe(trip: trip.id, person: ana.account.id).makeAsyncIterator()

        // B stops hearing; her phone on A changes her routes, shares a position and writes in the trip's chat.
        let before = bus.sent.withLock { $0 }
        bus.deafen(2)
        _ = try await peopleA.edit(ana.account.id, version: 0, .create(SavedRoute(id: "r1", name: "Home", kind: .board, stopId: "SLBB")))
        try await tripsA.share(trip.id, person: ana.account.id, latitude: 46.0, longitude: 7.0, accuracy: 10, until: clock.adding(seconds: 3_600))
        _ = try await tripsA.post("trip:\(trip.id)", by: ana.account.id, text: "on the lift")
        _ = try await tripsA.post("person:\(ana.account.id)", by: ben.account.id, text: "lunch at the top?")
        #expect(peopleB.hub.count == 1)
        try await bus.waitForSent(before + 4)  // all four went out while B was not hearing

        // B hears again: its connections get what they missed, read from storage.
        await bus.reconnect(2)
        let caught = try #require(await routes.next())
        #expect(caught?.version == 1 && caught?.stacks.first?.route.name == "Home")
        var seen: [TripSignal] = []
        func has(_ kind: (TripSignal) -> Bool) -> Bool { seen.contains(where: kind) }
        let isMembers: (TripSignal) -> Bool = { if case .members(let t) = $0 { t.id == trip.id } else { false } }
        let isPosition: (TripSignal) -> Bool = { if case .position(_, let p) = $0 { p.latitude == 46.0 } else { false } }
        let isChat: (TripSignal) -> Bool = { if case .chat(.trip, let m) = $0 { m.text == "on the lift" } else { false } }
        let isDirect: (TripSignal) -> Bool = { if case .chat(.direct, let m) = $0 { m.text == "lunch at the top?" } else { false } }
        while !(has(isMembers) && has(isPosition) && has(isChat) && has(isDirect)), let next = await signals.next() { seen.append(next) }
        #expect(has(isMembers) && has(isPosition) && has(isChat) && has(isDirect))
    }
}
