import Foundation
import OnwardCore

/// Journey plans run here, on threads of their own, first come first served, as many at once as
/// there are cores. A plan is a millisecond or more of CPU with no suspension point: run on Swift's
/// cooperative threads, they kept the server's other work (reading requests, writing answers)
/// waiting, and under load one request in a hundred waited ten times as long as the median
/// (`Benchmarks/server-load.sh journeys`: p99 120 ms at 16 connections, 47 ms at 4). On threads of
/// their own, the system's scheduler gives the threads that wait on the network their turn.
/// (OperationQueue did the same job with more overhead: at 16 connections 1,091 plans a second
/// against 1,276 with these threads, one run each.)
final class PlanningPool: @unchecked Sendable {
    static let shared = PlanningPool(width: Cores.available)

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var next = 0

    init(width: Int) {
        for _ in 0..<max(width, 1) {
            Thread { [unowned self] in
                // Named from inside: set from outside, Linux threads kept their creator's name.
                Thread.current.name = "onward.plan"
                self.work()
            }.start()
        }
    }

    /// `work`'s result, computed on the pool.
    func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            condition.lock()
            jobs.append { continuation.resume(returning: work()) }
            condition.signal()
            condition.unlock()
        }
    }

    private func work() {
        while true {
            condition.lock()
            while next == jobs.count { condition.wait() }
            let job = jobs[next]
            next += 1
            // Drop the jobs taken once they are the larger part, so the list stays short.
            if next * 2 >= jobs.count { jobs.removeFirst(next); next = 0 }
            condition.unlock()
            job()
        }
    }
}
