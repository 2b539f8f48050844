import DataSources
import Foundation
import GTFSSource
import OnwardCore

/// `onward feeds`: the static feeds a server with this configuration keeps, and the version of
/// each kept in its data folder (what such a server serves, or starts on), in plain values.
public enum KeptFeedsListing {
    public struct Feed: Sendable {
        public var name: String
        /// Where it is read from, safe to show (a URL's host and file, or a file's name).
        public var location: String
        public var isURL: Bool
        /// The kept version, when there is one: its hash's first 12 hex digits, `feed_info`'s version, when it was fetched, its service dates.
        public var shortHash: String?
        public var publisherVersion: String?
        public var fetchedAt: Instant?
        public var firstDate: ServiceDate?
        public var lastDate: ServiceDate?

        init(name: String, location: String, isURL: Bool, version: FeedVersion?) {
            self.name = name; self.location = location; self.isURL = isURL
            shortHash = version?.shortHash; publisherVersion = version?.publisherVersion; fetchedAt = version?.fetchedAt
            firstDate = version?.firstDate; lastDate = version?.lastDate
        }
    }

    public struct Listing: Sendable {
        /// "bundled", "snapshot" or "kept" (feeds from URLs or files).
        public var kind: String
        public var feeds: [Feed]
        public var folder: String
    }

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public static func list(_ config: ServeConfiguration) throws(Failure) -> Listing {
        let folder = FeedFolder(dataDir: config.dataDir)
        let keeping: Network.Keeping
        do { keeping = try Network.Keeping(config.feeds) } catch { throw Failure(description: error.description) }
        switch keeping {
        case .bundled:
            return Listing(kind: "bundled", feeds: [Feed(name: Network.defaultSourceName, location: "bundled", isURL: false, version: nil)],
                           folder: folder.directory.path)
        case .snapshot(let path):
            return Listing(kind: "snapshot", feeds: [Feed(name: path, location: URL(fileURLWithPath: path).lastPathComponent, isURL: false, version: nil)],
                           folder: folder.directory.path)
        case .feeds(let feeds):
            // A manifest of other feeds (or other places) is not these feeds' version.
            let manifest = folder.manifest().flatMap { folder.matches($0, feeds) ? $0 : nil }
            return Listing(kind: "kept", feeds: feeds.map { f in
                Feed(name: f.name, location: f.location.safeName, isURL: f.isURL, version: manifest?.entry(f.name)?.version)
            }, folder: folder.directory.path)
        }
    }
}
