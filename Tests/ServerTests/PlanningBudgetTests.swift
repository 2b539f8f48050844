import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import Transit
import Server

/// Journeys planned at once are limited, and so is the queue behind them: beyond it a request is refused at once
/// with `503` and `Retry-After`, never left waiting in a queue that grows.
@Suite("planning budget")
struct PlanningBudgetTests {
    /// A plan that holds its place until `release` is finished; `started` hears when it has the place.
    static func holding(_ budget: PlanningBudget) -> (task: Task<Void, any Error>, started: AsyncStream<Void>, release: AsyncStream<Void>.Continuation) {
        let (started, didStart) = AsyncStream<Void>.makeStream()
        let (released, release) = AsyncStream<Void>.makeStream()
        let task = Task {
            try await budget.run { () async throws(QueryError) in
                didStart.yield()
                for await _ in released { break }
            }
        }
        return (task, started, release)
    }

    static func first(_ stream: AsyncStream<Void>) async { for await _ in stream { return } }

    @Test("one at a time and one waiting: the third is refused at once; the waiting one runs when the first ends; a cancelled wait gives up its place")
    func limits() async throws {
        let budget = PlanningBudget(concurrent: 1, waiting: 1)
        let first = Self.holding(budget)
        await Self.first(first.started)
        let second = Self.holding(budget)
        while budget.load.waiting < 1 { await Task.yield() }
        #expect(budget.load == (1, 1))
        await #expect(throws: QueryError(.busy, "Too many journeys are being planned right now: try again in a second.")) {
            try await budget.run { () async throws(QueryError) in }
        }
        first.release.finish()
        try await first.task.value
        await Self.first(second.started)
        #expect(budget.load == (1, 0))
        // Waiting, then cancelled (its client went away): the place is free again.
        let third = Self.holding(budget)
        while budget.load.waiting < 1 { await Task.yield() }
        third.task.cancel()
        await #expect(throws: QueryError.self) { try await third.task.value }
        #expect(budget.load == (1, 0))
        second.release.finish()
        try await second.task.value
        #expect(budget.load == (0, 0))
    }

    @Test("the journeys route answers 503 busy with Retry-After while the budget is full, and plans again once it is free")
    func overHTTP() async throws {
        let deps = TestServer.deps(try TestServer.store(), settings: { settings in
            settings.planningConcurrency = 1
            settings.planningQueue = 0
        })
        let app = TestServer.app(deps)
        try await app.test(.router) { client in
            let journeys = "/api/v1/journeys?from=SLBB&to=SBHI&date=2026-11-23&time=08:00"
            let held = Self.holding(deps.planning)
            await Self.first(held.started)
            try await client.execute(uri: journeys, method: .get) { r in
                #expect(r.status == .serviceUnavailable)
                #expect(r.headers[HTTPField.Name("Retry-After")!] == "1")
                let problem = try PeopleAPITests.problem(r)
                #expect(problem.code == "busy")
            }
            held.release.finish()
            try await held.task.value
            try await client.execute(uri: journeys, method: .get) { r in #expect(r.status == .ok) }
        }
    }
}
