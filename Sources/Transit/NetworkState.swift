import OnwardCore
import Timetable

/// The network at one moment: the immutable timetable and the realtime data
/// laid over it. Readers take a whole state and never see half an update.
public struct NetworkState: Sendable {
    public let timetable: Timetable
    /// Prefixed to realtime feeds' IDs when several static feeds are loaded.
    public let idPrefix: String
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

    /// Whether any realtime source is configured.
    public var hasRealtime: Bool { !sources.isEmpty }
}
