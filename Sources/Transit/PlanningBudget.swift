import Foundation
import Synchronization
import OnwardCore

/// How many journeys are planned at once, and how many wait their turn. Planning is the one heavy query (tens of
/// milliseconds on a national network, all of one core): with no limit, a burst of requests would each get a slice
/// of the cores and all finish late, and a queue would grow without bound. Here `concurrent` plan at once, up to
/// `waiting` more wait in order, and anything beyond is refused at once as `busy` (the server answers `503` with
/// `Retry-After`), as Transitous limits its heavy routes. A waiting request that is cancelled (its client left)
/// gives up its place.
public final class PlanningBudget: Sendable {
    public let concurrent: Int
    public let waiting: Int

    private struct State {
        var running = 0
        var queue: [(id: UInt64, turn: CheckedContinuation<Bool, Never>)] = []
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    /// By default, a plan per core at once and eight per core waiting (16 connections on 2 cores all get an answer).
    public init(concurrent: Int = Cores.available, waiting: Int? = nil) {
        self.concurrent = max(1, concurrent)
        self.waiting = max(0, waiting ?? 8 * self.concurrent)
    }

    /// Runs `work` when a place is free (at once, or after those waiting before it); refuses with `busy` when
    /// `waiting` requests already wait.
    public func run<T: Sendable>(_ work: () async throws(QueryError) -> T) async throws(QueryError) -> T {
        try await enter()
        defer { leave() }
        return try await work()
    }

    /// Plans running and waiting now (for the metrics and the tests).
    public var load: (running: Int, waiting: Int) { state.withLock { ($0.running, $0.queue.count) } }

    private func enter() async throws(QueryError) {
        enum Entry { case now, busy, wait(UInt64) }
        let entry: Entry = state.withLock { s in
            if s.running < concurrent { s.running += 1; return .now }
            guard s.queue.count < waiting else { return .busy }
            s.nextID += 1
            return .wait(s.nextID)
        }
        switch entry {
        case .now: return
        case .busy: throw Self.busy
        case .wait(let id):
            let admitted = await withTaskCancellationHandler {
                await withCheckedContinuation { (turn: CheckedContinuation<Bool, Never>) in
                    let cancelled = state.withLock { s -> Bool in
                        if Task.isCancelled { return true }
                        s.queue.append((id, turn))
                        return false
                    }
                    if cancelled { turn.resume(returning: false) }
                }
            } onCancel: {
                let turn = state.withLock { s -> CheckedContinuation<Bool, Never>? in
                    guard let i = s.queue.firstIndex(where: { $0.id == id }) else { return nil }
                    return s.queue.remove(at: i).turn
                }
                turn?.resume(returning: false)
            }
            // Admitted: `leave()` of the plan before handed its place over (`running` stays counted).
            if !admitted { throw QueryError(.busy, "The journey request was cancelled while it waited.") }
        }
    }

    private func leave() {
        let next = state.withLock { s -> CheckedContinuation<Bool, Never>? in
            if s.queue.isEmpty { s.running -= 1; return nil }
            return s.queue.removeFirst().turn
        }
        next?.resume(returning: true)
    }

    static let busy = QueryError(.busy, "Too many journeys are being planned right now: try again in a second.")
}
