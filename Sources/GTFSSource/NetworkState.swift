import OnwardCore
import Timetable

/// The network at one moment: the immutable timetable and the realtime data
/// laid over it. Readers take a whole state and never see half an update.
public struct NetworkState: Sendable {
    /// The timetable in service, with its shapes, feed versions and planner; replaced whole
    /// when a new feed version is accepted (`RealtimeWriter.serve`).
    public private(set) var served: ServedTimetable
    public var timetable: Timetable { served.timetable }
    /// The prefix (`name:`) of the first static feed: realtime feeds that name no feed
    /// (and the simulation) belong to it, and their bare IDs take it.
    public let idPrefix: String
    /// The prefix of the static feed each realtime source (by its name) is bound to
    /// (`--realtime NAME=URL`); a source missing here takes `idPrefix`.
    public var realtimePrefixes: [String: String] = [:]
    public var realtime = RealtimeState()
    public var sources: [String: SourceHealth] = [:]
    /// Realtime data older than this (seconds past its timestamp) is shown as last known.
    public var maxAge: Int64
    /// Set when the demonstration source runs, so every view can say so.
    public var simulated = false
    /// Counts every update, so subscribers know something changed.
    public internal(set) var version = 0

    /// How late each route usually is at each stop and hour, from the stored delay history (`RealtimeWriter.serve(history:)`).
    public var history = DelayHistoryBook.empty

    /// How the last checks of each kept static feed went, by feed name.
    public var feedChecks: [String: FeedCheckHealth] = [:]

    public init(timetable: Timetable, maxAge: Int64 = 120) {
        self.init(served: ServedTimetable(timetable: timetable), maxAge: maxAge)
    }

    public init(served: ServedTimetable, maxAge: Int64 = 120) {
        self.served = served
        self.idPrefix = served.timetable.feeds.first?.idPrefix ?? ""
        self.maxAge = maxAge
    }

    /// A new timetable in service, with the realtime data re-applied to it. The feeds' names
    /// (so the ID prefixes) are the configuration's and stay the same.
    mutating func serve(_ served: ServedTimetable, realtime: RealtimeState) {
        self.served = served
        self.realtime = realtime
    }

    /// The prefix a realtime source's bare IDs take.
    public func idPrefix(ofSource source: String) -> String { realtimePrefixes[source] ?? idPrefix }

    /// Whether any realtime source is configured.
    public var hasRealtime: Bool { !sources.isEmpty }
}
