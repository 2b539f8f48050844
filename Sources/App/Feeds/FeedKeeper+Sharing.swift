import DataSources
import Foundation
import GTFSSource
import Logging
import OnwardCore
import Storage

/// Sharing kept versions with the servers on the same database: the leader stores what it accepts,
/// the others load it from there (never from the agency).
extension FeedKeeper {
    /// Stores the version of `feed` now kept, for the servers sharing the database. A URL feed only:
    /// a file is each server's own to read.
    func share(_ feed: KeptFeed, validators: ConditionalRequest) async {
        guard let shared, feed.isURL, let version = current?.version(of: feed.name) else { return }
        do {
            let bytes = try Data(contentsOf: folder.zip(of: feed.name))
            try await shared.save(FeedVersionRecord(feed: feed.name, hash: version.hash, fetchedAt: version.fetchedAt, etag: validators.etag,
                                                    lastModified: validators.lastModified, payload: bytes))
        } catch {
            logger.error("could not store the new version of the feed for the other servers; they keep theirs until the next one",
                         metadata: ["feed": .string(feed.name), "error": .string("\(error)")])
        }
    }

    /// Loads each URL feed's version another server stored, where it is not the one here: imported
    /// and checked here too (the same bytes make the same timetable), never fetched from the agency.
    func followShared() async -> ServedTimetable? {
        guard let shared else { return nil }
        let heads: [FeedVersionHead]
        do { heads = try await shared.heads() } catch {
            logger.warning("could not read the stored feed versions", metadata: ["error": .string("\(error)")])
            return nil
        }
        var candidates: [String: Candidate] = [:]
        var validators: [String: ConditionalRequest] = [:]
        for head in heads {
            guard let feed = feeds.first(where: { $0.name == head.feed && $0.isURL }), head.hash != current?.version(of: feed.name)?.hash else { continue }
            do {
                guard let record = try await shared.record(feed: feed.name) else { continue }
                try folder.create()
                try record.payload.write(to: folder.candidate(of: feed.name))
                candidates[feed.name] = Candidate(source: folder.candidate(of: feed.name), hash: record.hash, fetchedAt: record.fetchedAt)
                validators[feed.name] = ConditionalRequest(etag: record.etag, lastModified: record.lastModified)
            } catch {
                logger.warning("could not load the stored version of the feed", metadata: ["feed": .string(feed.name), "error": .string("\(error)")])
            }
        }
        // Until every URL feed has a version (here or stored), there is nothing whole to serve.
        guard !candidates.isEmpty,
              feeds.allSatisfy({ !$0.isURL || candidates[$0.name] != nil || current?.version(of: $0.name) != nil }) else { return nil }
        do {
            let served = try await accept(candidates)
            for (name, v) in validators {
                remember(v, of: name)
                // A poller made before would ask for the version this server had: the next one starts from this.
                pollers[name] = nil
            }
            try? folder.write(manifest)
            return served
        } catch {
            return nil
        }
    }
}
