import API
import DataSources
import Foundation
import GTFSRealtime
import OnwardCore
import Timetable

/// `onward rt inspect`: a GTFS-Realtime file or URL read, decoded as boards decode it
/// (`RealtimeFeed.decode`), matched against the static feed it names (`NAME=`, else the first of
/// `feeds`), and answered as the API's `RealtimeInspectDTO`, times in the feed's zone.
public enum RealtimeInspecting {
    /// Why there is nothing to inspect, in words for the person who asked.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public static func inspect(_ input: String, feeds: [String], limit: Int, fetcher: any HTTPFetching = Fetchers.live(),
                               now: Instant = .now()) async throws(Failure) -> RealtimeInspectDTO {
        // The realtime input first: a wrong path fails at once, before a large timetable loads.
        let named = NamedFeedLocation(input)
        let location = named?.location.description ?? input
        let message: RealtimeMessage, size: Int
        do throws(SourceError) {
            let bytes = try await RealtimeInput.load(location, fetcher: fetcher)
            size = bytes.count
            message = try RealtimeFeed.decode(bytes, source: input)
        } catch {
            throw Failure(description: error.message.contains(location) ? error.message : "\(location): \(error.message)")
        }
        let tt: Timetable
        do throws(Network.LoadError) { tt = try Network.load(feeds).timetable } catch { throw Failure(description: error.description) }
        var feed = tt.feeds.first
        if let name = named?.explicitName {
            guard let f = tt.feed(named: name) else {
                throw Failure(description: "no static feed is named '\(name)'; loaded: \(tt.feeds.map(\.name).joined(separator: ", "))")
            }
            feed = f
        }
        let inspection = RealtimeInspection(message, timetable: tt, idPrefix: feed?.idPrefix ?? tt.defaultIDPrefix, limit: limit, now: now)
        let zone = tt.agencies.first.flatMap { TimeZone(identifier: $0.timeZone) } ?? .gmt
        return RealtimeInspectDTO(inspection, source: input, size: size, staticFeeds: feed.map { [$0.name] } ?? [], zone: zone, now: now,
                                  otherFeeds: tt.feeds.count > 1 ? tt.feeds.map(\.name).filter { $0 != feed?.name } : nil)
    }
}
