import DataSources
import Foundation
import GTFSRealtime
import GTFSSource
import OnwardCore

/// A day's recorded realtime feeds replayed in time order: each capture (a `--realtime` file) is applied at
/// the moment its header says it was made, so `onward commute` and `onward watch` see the live data change as
/// the day went, not all at once. Several captures of one source are several files.
public struct RealtimeReplay: Sendable {
    /// One capture and when it was made.
    public struct Capture: Sendable {
        public let at: Instant
        let feed: RealtimeFeedPolling
    }

    /// The captures, oldest first (files without a header timestamp first, in the order given).
    public let captures: [Capture]

    /// Why a capture cannot be replayed: it is not a file, cannot be read, or is not GTFS-Realtime.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Whether the network has realtime feeds and every one is a file (a recording to replay).
    public static func isRecorded(_ network: GTFSNetwork) -> Bool {
        !network.feeds.isEmpty && network.feeds.allSatisfy { if case .file = $0.location { true } else { false } }
    }

    /// The network's realtime feeds as captures; every one must be a readable GTFS-Realtime file.
    public init(_ network: GTFSNetwork) throws(Failure) {
        var captures: [(Int, Capture)] = []
        for (n, feed) in network.feeds.enumerated() {
            guard case .file(let path) = feed.location else {
                throw Failure(description: "\(feed.name): a replay reads recorded files, not a URL")
            }
            guard let bytes = FileManager.default.contents(atPath: path) else { throw Failure(description: "cannot read \(path)") }
            let message: RealtimeMessage
            do { message = try RealtimeFeed.decode(bytes, source: feed.name) } catch {
                throw Failure(description: "\(path): \(error.message)")
            }
            captures.append((n, Capture(at: Instant(epochSeconds: Int64(clamping: message.timestamp ?? 0)), feed: feed)))
        }
        self.captures = captures.sorted { ($0.1.at, $0.0) < ($1.1.at, $1.0) }.map(\.1)
    }

    /// Applies one capture as of its moment (the network's clock must read `at` then: `asOf`).
    public func apply(_ capture: Capture) async {
        await capture.feed.pollOnce()
    }
}
