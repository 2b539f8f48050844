import DataSources
import Foundation
import OnwardCore

/// Decodes GTFS-Realtime `FeedMessage`s.
public enum RealtimeFeed {
    /// Decodes one message. Empty, truncated or garbage bytes throw a `SourceError`
    /// with code `.undecodable` and a short reason; nothing else is touched.
    public static func decode(_ bytes: Data, source: String = "feed") throws(SourceError) -> RealtimeMessage {
        guard !bytes.isEmpty else { throw SourceError(.undecodable, "\(source) is empty (0 bytes): not a GTFS-Realtime feed") }
        let message: RealtimeMessage
        do {
            message = try RealtimeWireDecoder.decode(bytes)
        } catch {
            let at = error.offset > 0 ? " at byte \(error.offset)" : ""
            throw SourceError(.undecodable, "\(source) is not a valid GTFS-Realtime feed (\(bytes.count) bytes): \(error.reason)\(at)")
        }
        guard !message.version.isEmpty else {
            throw SourceError(.undecodable, "\(source) has no gtfs_realtime_version in its header: not a GTFS-Realtime feed")
        }
        return message
    }
}
