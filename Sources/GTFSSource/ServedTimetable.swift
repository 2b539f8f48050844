import OnwardCore
import Synchronization
import Timetable
import TransitSources

/// The timetable in service and what is built from it: its shapes, the version of each
/// static feed it was made from, and (on the first journey asked for) the planner's indices.
/// A new feed version makes a new one, swapped into the `LiveStore` whole, so a request holds
/// one timetable, its planner and its shapes from start to end, and the old one is released
/// when the last request that took it finishes.
public final class ServedTimetable: Sendable {
    public let timetable: Timetable
    /// The feeds' shapes (the ways trips go), for paths and the map.
    public let shapes: ShapeTable
    /// The version of each static feed in it, in the timetable's feed order; empty for a
    /// timetable not made from kept feeds (the bundled network, a snapshot, a test's).
    public let versions: [FeedVersion]
    /// What earlier versions had and this one has not.
    public let retired: RetiredIDs
    /// Built on the first journey asked for, so boards alone never pay for its indices.
    private let builtPlanner = Mutex<JourneyPlanner?>(nil)

    public init(timetable: Timetable, shapes: ShapeTable = .empty, versions: [FeedVersion] = [], retired: RetiredIDs = RetiredIDs()) {
        self.timetable = timetable; self.shapes = shapes; self.versions = versions; self.retired = retired
    }

    /// The journey planner over this timetable.
    public var planner: JourneyPlanner {
        builtPlanner.withLock { built in
            if let built { return built }
            let planner = JourneyPlanner(timetable)
            built = planner
            // The heap its building used and freed (per-stop lists, a grid of stops: 28 MB on the national network).
            returnFreedMemory()
            return planner
        }
    }

    /// Whether a journey has been asked of this timetable (its planner is built).
    public var hasPlanner: Bool { builtPlanner.withLock { $0 != nil } }

    /// The version of the feed named `feed`, when it is kept.
    public func version(of feed: String) -> FeedVersion? { versions.first { $0.feed == feed } }
}

/// One version of a static feed, as it was fetched and accepted: what an operator compares
/// across instances (`hash`) and what says when the timetable runs out.
public struct FeedVersion: Sendable, Hashable, Codable {
    /// The static feed's name (`halifax`), as configured.
    public var feed: String
    /// Where it comes from, safe to show (a URL's host and file, or a file's name).
    public var location: String
    /// SHA-256 of the feed's bytes, in hex.
    public var hash: String
    /// When these bytes were fetched (or the file was read).
    public var fetchedAt: Instant
    /// `feed_info.feed_version`, when the feed gives one.
    public var publisherVersion: String?
    /// The first and last service dates: `feed_info`'s dates, else the calendars'.
    public var firstDate: ServiceDate?
    public var lastDate: ServiceDate?

    public init(feed: String, location: String, hash: String, fetchedAt: Instant, publisherVersion: String? = nil,
                firstDate: ServiceDate? = nil, lastDate: ServiceDate? = nil) {
        self.feed = feed; self.location = location; self.hash = hash; self.fetchedAt = fetchedAt
        self.publisherVersion = publisherVersion; self.firstDate = firstDate; self.lastDate = lastDate
    }

    /// The first 12 hex digits of the hash: enough to tell versions apart in a line of text.
    public var shortHash: String { String(hash.prefix(12)) }
}

extension ServedTimetable {
    /// The canonical IDs an ID names: itself when canonical, or an unprefixed one tried in each feed.
    func canonicalIDs(forLocal localID: String, as kind: IDKind) -> [String] {
        switch kind {
        // The ID alone, not the place: building the whole place was most of resolving a board's stop.
        case .stop:
            switch timetable.lookupStop(id: localID) {
            case .found(let stop): [timetable.stopIDString(stop)]
            case .ambiguous(let ids): ids
            case .notFound: []
            }
        case .service: Self.ids(timetable.lookupTrip(id: localID)) { timetable.tripIdentifier($0) }
        case .route: Self.ids(timetable.lookupRoute(id: localID)) { timetable.routeInfo($0).id }
        }
    }

    private static func ids<I>(_ lookup: IDLookup<I>, _ canonical: (I) -> String) -> [String] {
        switch lookup {
        case .found(let i): [canonical(i)]
        case .ambiguous(let ids): ids
        case .notFound: []
        }
    }
}
