import DataSources
import Foundation
import SwiftProtobuf

/// Decodes GTFS-Realtime `FeedMessage`s.
public enum RealtimeFeed {
    /// Decodes one message. Empty, truncated or garbage bytes throw a `SourceError`
    /// with code `.undecodable` and a short reason; nothing else is touched.
    public static func decode(_ bytes: Data, source: String = "feed") throws(SourceError) -> TransitRealtime_FeedMessage {
        guard !bytes.isEmpty else { throw SourceError(.undecodable, "\(source) is empty (0 bytes): not a GTFS-Realtime feed") }
        do {
            let message = try TransitRealtime_FeedMessage(serializedBytes: bytes)
            guard message.hasHeader, !message.header.gtfsRealtimeVersion.isEmpty else {
                throw SourceError(.undecodable, "\(source) has no feed header: not a GTFS-Realtime feed")
            }
            return message
        } catch let e as SourceError {
            throw e
        } catch {
            throw SourceError(.undecodable, "\(source) is not a valid GTFS-Realtime feed (\(bytes.count) bytes): \(error)")
        }
    }
}
