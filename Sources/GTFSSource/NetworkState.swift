import OnwardCore
import Timetable

/// The network at one moment: the immutable timetable and the realtime data
/// laid over it. Readers take a whole state and never see half an update.
public struct NetworkState: Sendable {
    public let timetable: Timetable
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

    public init(timetable: Timetable, maxAge: Int64 = 120) {
        self.timetable = timetable
        self.idPrefix = timetable.feeds.first?.idPrefix ?? ""
        self.maxAge = maxAge
    }

    /// The prefix a realtime source's bare IDs take.
    public func idPrefix(ofSource source: String) -> String { realtimePrefixes[source] ?? idPrefix }

    /// Whether any realtime source is configured.
    public var hasRealtime: Bool { !sources.isEmpty }
}
