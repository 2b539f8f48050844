import Foundation
import GTFS
import Timetable

/// Small GTFS feeds written inline in tests, as text.
public enum InlineFeed {
    /// A feed from file texts. Each line is trimmed of leading spaces so feeds
    /// can be indented in a test. Without an agency.txt, one agency in `timeZone` is added.
    public static func source(name: String = "test", timeZone: String = "America/New_York",
                              _ files: [String: String]) -> InMemoryGTFSSource {
        var cleaned: [String: String] = [:]
        for (file, text) in files {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.drop { $0 == " " } }
            var joined = lines.joined(separator: "\n")
            while joined.hasPrefix("\n") { joined.removeFirst() }
            cleaned[file] = joined
        }
        if cleaned["agency.txt"] == nil {
            cleaned["agency.txt"] = "agency_id,agency_name,agency_url,agency_timezone\nA,Test Transit,https://example.org,\(timeZone)\n"
        }
        return InMemoryGTFSSource(name: name, files: cleaned)
    }

    /// Loads an inline feed; throws the import's `FeedError`.
    public static func load(name: String = "test", timeZone: String = "America/New_York",
                            _ files: [String: String]) throws -> GTFSImporter.Result {
        try GTFSImporter.load([source(name: name, timeZone: timeZone, files)])
    }
}

/// Paths to the real data beside the project (`../shared/data`).
public enum Fixtures {
    /// The project's root, found from this file's path.
    public static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    public static var sharedData: URL { packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data") }

    public static func gtfs(_ name: String) -> URL { sharedData.appendingPathComponent("gtfs/\(name).zip") }

    public static var hasSharedData: Bool { FileManager.default.fileExists(atPath: sharedData.path) }
}
