import DataSources
import Foundation
import GTFSSource
import OnwardCore

/// The static feeds kept in the data folder (`DATA/feeds/`): each URL feed's accepted zip
/// (`NAME.zip`), the timetable compiled from all of them (`timetable.onward`, what a restart
/// serves at once) and `manifest.json`, which says which version of each feed that is. Every
/// file is written beside its final name and renamed over it, manifest last, so a crash
/// mid-way leaves the previous good set.
struct FeedFolder: Sendable {
    let directory: URL

    init(dataDir: String) {
        directory = URL(fileURLWithPath: dataDir).appendingPathComponent("feeds")
    }

    var snapshot: URL { directory.appendingPathComponent("timetable.onward") }
    var manifestURL: URL { directory.appendingPathComponent("manifest.json") }
    /// The IDs earlier versions had and the kept one has not (`RetiredIDs`).
    var retiredURL: URL { directory.appendingPathComponent("retired.json") }

    /// The retired IDs kept, or none.
    func retired() -> RetiredIDs {
        (try? Data(contentsOf: retiredURL)).flatMap { try? JSONDecoder().decode(RetiredIDs.self, from: $0) } ?? RetiredIDs()
    }
    func zip(of feed: String) -> URL { directory.appendingPathComponent("\(feed).zip") }
    func candidate(of feed: String) -> URL { directory.appendingPathComponent("\(feed).zip.new") }

    struct Manifest: Codable, Sendable {
        struct Entry: Codable, Sendable {
            var version: FeedVersion
            /// `KeptFeed.locationKey` of where it was fetched from.
            var locationKey: String
            /// The validators of the response that brought it, for the next conditional request.
            var etag: String?
            var lastModified: String?
        }
        var feeds: [Entry]

        func entry(_ feed: String) -> Entry? { feeds.first { $0.version.feed == feed } }
    }

    /// The manifest, when there is one this version can read.
    func manifest() -> Manifest? {
        guard let data = try? Data(contentsOf: manifestURL) else { return nil }
        return try? JSONDecoder().decode(Manifest.self, from: data)
    }

    /// Whether the kept set is the configured one: the same feeds, from the same places, in the same order.
    func matches(_ manifest: Manifest, _ feeds: [KeptFeed]) -> Bool {
        manifest.feeds.map(\.version.feed) == feeds.map(\.name)
            && Swift.zip(manifest.feeds, feeds).allSatisfy { $0.locationKey == $1.locationKey }
    }

    func write(_ manifest: Manifest) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try replace(manifestURL, with: encoder.encode(manifest))
    }

    /// Writes `data` beside `url` and renames it over `url`.
    func replace(_ url: URL, with data: Data) throws {
        let temporary = url.appendingPathExtension("tmp")
        try data.write(to: temporary)
        try moveOver(url, from: temporary)
    }

    /// Renames `from` over `url` (one rename: a reader sees the old file or the new, never half).
    func moveOver(_ url: URL, from: URL) throws {
        if rename(from.path, url.path) != 0 {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path,
                                                           NSLocalizedDescriptionKey: String(cString: strerror(errno))])
        }
    }

    func create() throws { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
}
