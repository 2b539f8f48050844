import Foundation
import GTFSRealtime
import GTFSSource
import Logging
import OnwardCore
import Storage

/// The last good body of each polled realtime source, kept in storage so a
/// restarted server starts with that data, shown as stale by its real age,
/// instead of "no live data" until its sources answer again.
struct SavedFeeds: Sendable {
    let repository: any RealtimeFeedRepository
    let logger: Logger

    /// Keeps `bytes`, just applied, as `source`'s last good feed. A failure only
    /// costs the head start at the next start-up, so it is a warning.
    func save(_ bytes: Data, of message: RealtimeMessage, source: String, fetchedAt: Instant) async {
        let record = RealtimeFeedRecord(source: source, payload: bytes, fetchedAt: fetchedAt,
                                        feedTimestamp: message.timestamp.map { Instant(epochSeconds: Int64(clamping: $0)) })
        do {
            try await repository.save(record)
        } catch {
            logger.warning("could not keep the realtime feed for the next start",
                           metadata: ["source": .string(source), "error": .string(String(describing: error))])
        }
    }

    /// Applies the saved feed of each of `sources` that has one, as it was
    /// when fetched. Records of sources no longer configured are left alone:
    /// they cost little, and the source may come back.
    func restore(_ sources: [String], into writer: RealtimeWriter, logLevel: Logger.Level = .info) async throws {
        for source in sources {
            guard let record = try await repository.record(source: source) else { continue }
            let message: RealtimeMessage
            do {
                message = try RealtimeFeed.decode(record.payload, source: source)
            } catch {
                // Saved by a version that accepted what this one rejects: the next fetch replaces it.
                logger.warning("ignoring the saved realtime feed: it no longer decodes",
                               metadata: ["source": .string(source), "error": .string(error.message)])
                continue
            }
            await writer.restore(message, source: source, fetchedAt: record.fetchedAt, feedTimestamp: record.feedTimestamp)
            logger.log(level: logLevel, "restored the last saved realtime feed",
                        metadata: ["source": .string(source), "fetched_at": .stringConvertible(record.fetchedAt)])
        }
    }
}
