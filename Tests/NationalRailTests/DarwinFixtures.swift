import Foundation
import OnwardCore
import Testing

/// The recorded Darwin answers and the station list beside the project (`../shared/data`).
enum DarwinFixtures {
    /// The project's root, found from this file's real path (the test folder may be
    /// reached through a symlink from a scratch package).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let sharedData = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
    static let darwinFolder = sharedData.appendingPathComponent("darwin-ldbws")

    static var available: Bool { FileManager.default.fileExists(atPath: darwinFolder.path) }
    static let skipMessage: Comment = "the recorded Darwin answers in ../shared/data/darwin-ldbws are not here"

    static func darwin(_ name: String) throws -> Data {
        try Data(contentsOf: darwinFolder.appendingPathComponent(name))
    }

    /// Every recording, by file name.
    static var allDarwinFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: darwinFolder.path)) ?? []).filter { $0.hasSuffix(".xml") }.sorted()
    }

    /// `2019-12-17T08:08:00Z` as an instant.
    static func utc(_ text: String) -> Instant {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return Instant(f.date(from: text)!)
    }
}
