import DataSources
import Foundation
import OnwardCore

/// A static feed as configured for `onward serve`: its name (the prefix of its IDs) and where
/// it is read from, a URL fetched on a schedule or a zip or folder re-read when it changes.
struct KeptFeed: Sendable, Hashable {
    var name: String
    var location: FeedLocation

    struct Problem: Error, CustomStringConvertible, Sendable {
        var description: String
    }

    /// `NAME=URL`, `NAME=PATH` or `PATH` (named after its file). A URL needs a name: its file
    /// name (`gtfs.zip`, `google_transit.zip`) says nothing, and every ID saved depends on it.
    init(_ argument: Network.FeedArgument) throws(Problem) {
        let location = FeedLocation(argument.path) ?? .file(path: argument.path)
        switch location {
        case .url(let url):
            guard let name = argument.name else {
                throw Problem(description: "a feed from a URL needs a name, which its IDs will carry: --feed NAME=\(url.safeDescription)/…")
            }
            self.name = name
        case .file(let path):
            self.name = argument.name ?? CanonicalID.slug(URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)
        }
        self.location = location
    }

    var isURL: Bool { if case .url = location { true } else { false } }

    /// A fingerprint of the location as configured (the URL may hold a key, so it is never
    /// written down itself): a kept version of another location is not this feed's.
    var locationKey: String { Poller.digest(Data(location.description.utf8)) }
}

extension Network {
    /// How the configured feeds are kept current, decided once from the configuration.
    enum Keeping: Sendable {
        /// No feed configured: the bundled network, which never changes while the server runs.
        case bundled
        /// One compiled snapshot (`onward import`), served as it is.
        case snapshot(String)
        /// Feeds from URLs or files, checked for new versions.
        case feeds([KeptFeed])

        init(_ paths: [String]) throws(Problem) {
            if paths.isEmpty { self = .bundled; return }
            let arguments = paths.map(FeedArgument.init)
            if arguments.count == 1, FeedLocation(arguments[0].path).map({ if case .file = $0 { true } else { false } }) ?? false,
               Network.isSnapshot(URL(fileURLWithPath: arguments[0].path)) {
                self = .snapshot(paths[0]); return
            }
            var feeds: [KeptFeed] = []
            for a in arguments {
                let feed: KeptFeed
                do { feed = try KeptFeed(a) } catch { throw Problem(description: error.description) }
                guard !feeds.contains(where: { $0.name == feed.name }) else {
                    throw Problem(description: "two feeds are named '\(feed.name)': name one of them with --feed NAME=…")
                }
                feeds.append(feed)
            }
            self = .feeds(feeds)
        }

        struct Problem: Error, CustomStringConvertible, Sendable {
            var description: String
        }
    }
}
