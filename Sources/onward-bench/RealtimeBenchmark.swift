import Foundation
import GTFSRealtime
import GTFSSource
import OnwardCore
import SwiftProtobuf
import Timetable

/// Decode-and-apply time of a GTFS-Realtime trip-updates capture, and board
/// latency with the overlay in place against the static-only board.
enum RealtimeBenchmark {
    struct Figures {
        var entities: Int
        var stopTimeUpdates: Int
        var decode: Samples
        /// The same bytes through SwiftProtobuf's generic decoder, for comparison.
        var swiftProtobufDecode: Samples
        /// Decode, and apply into a fresh state: the first message after start.
        var decodeAndFirstApply: Samples
        /// Decode, and apply into the state that applied the previous message: every later poll.
        var decodeAndApply: Samples
        var staticBoard: Samples
        var liveBoard: Samples
        var report: RealtimeMatchReport
        var maxDelay: Int64
        var maxEarly: Int64
    }

    static func run(_ tt: Timetable, capture: URL, boardStop: String, date: ServiceDate, zone: TimeZone,
                    runs: Int = 60, queries: Int = 5_000) throws -> Figures {
        let bytes = try Data(contentsOf: capture)
        var decodeTimes: [Double] = [], firstTimes: [Double] = [], laterTimes: [Double] = []
        var overlay = RealtimeOverlay.empty
        var report = RealtimeMatchReport()
        var entities = 0, updates = 0
        // The pipeline's own apply step (what `RealtimeWriter` runs), two ways: into a fresh
        // state (the first message after start), and into the state that applied the previous
        // message (every later poll), which keeps the feed's resolved IDs.
        var running = RealtimeState()
        for i in 0..<(runs + 5) {
            let t0 = Stopwatch.nanos()
            let message = try RealtimeFeed.decode(bytes)
            let t1 = Stopwatch.nanos()
            let now = Instant(epochSeconds: Int64(message.timestamp ?? 0))
            var fresh = RealtimeState()
            fresh.apply(message, source: "halifax", timetable: tt, idPrefix: tt.defaultIDPrefix, now: now)
            let t2 = Stopwatch.nanos()
            running.apply(message, source: "halifax", timetable: tt, idPrefix: tt.defaultIDPrefix, now: now)
            let t3 = Stopwatch.nanos()
            overlay = running.overlay
            report = running.reports["halifax"] ?? report
            if fresh.reports["halifax"] != report { throw BenchError("a fresh state and the running one matched the capture differently") }
            entities = message.entityCount
            updates = message.tripUpdates.reduce(0) { $0 + $1.stopTimeUpdates.count }
            if i >= 5 {  // the first runs warm caches and the allocator
                decodeTimes.append(Double(t1 - t0))
                firstTimes.append(Double(t2 - t0))
                laterTimes.append(Double(t1 - t0 + t3 - t2))
            }
        }
        var protobufTimes: [Double] = []
        for i in 0..<(max(runs / 4, 3) + 2) {
            let t0 = Stopwatch.nanos()
            let m = try TransitRealtime_FeedMessage(serializedBytes: bytes)
            let t1 = Stopwatch.nanos()
            if m.entity.count != entities { throw BenchError("SwiftProtobuf read \(m.entity.count) entities, the wire decoder \(entities)") }
            if i >= 2 { protobufTimes.append(Double(t1 - t0)) }
        }
        guard let stop = tt.stop(id: boardStop) else { throw BenchError("no stop '\(boardStop)'") }
        let captureTime = overlay.tripUpdatesTimestamp ?? .now()
        var rng = SplitMix64(seed: 7)
        // Boards from two hours before to two hours after the capture: where the overlay has data.
        let requests = (0..<queries).map { _ in
            BoardRequest(kind: .departures, stop: stop, from: captureTime.adding(seconds: Int64(Int.random(in: -7200..<7200, using: &rng))), limit: 10)
        }
        var sink = 0
        for r in requests.prefix(1000) { sink &+= tt.board(r).count &+ tt.liveBoard(r, overlay: overlay, now: r.from).count }
        var staticTimes: [Double] = [], liveTimes: [Double] = []
        for r in requests {
            let t0 = Stopwatch.nanos()
            sink &+= tt.board(r).count
            let t1 = Stopwatch.nanos()
            sink &+= tt.liveBoard(r, overlay: overlay, now: r.from).count
            let t2 = Stopwatch.nanos()
            staticTimes.append(Double(t1 - t0))
            liveTimes.append(Double(t2 - t1))
        }
        if sink == 42 { print("") }
        _ = date; _ = zone
        return Figures(entities: entities, stopTimeUpdates: updates, decode: Samples(decodeTimes), swiftProtobufDecode: Samples(protobufTimes), decodeAndFirstApply: Samples(firstTimes), decodeAndApply: Samples(laterTimes),
                       staticBoard: Samples(staticTimes), liveBoard: Samples(liveTimes), report: report,
                       maxDelay: overlay.maxDelay, maxEarly: overlay.maxEarly)
    }
}
