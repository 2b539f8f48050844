import Foundation

/// Runs a long piece of blocking work (importing a feed, writing a snapshot: seconds of CPU
/// and disk with no suspension point) on a thread of its own, so Swift's cooperative threads
/// keep answering requests meanwhile.
enum BlockingWork {
    static func run<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            let thread = Thread {
                do throws(E) { continuation.resume(returning: .success(try work())) } catch { continuation.resume(returning: .failure(error)) }
            }
            thread.name = "onward.feed"
            thread.start()
        }
        return try result.get()
    }
}
