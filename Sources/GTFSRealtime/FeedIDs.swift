import Timetable

/// A realtime feed's bare stop and trip IDs resolved to the timetable's
/// indices, kept by a poller from one message to the next: a feed names the
/// same few thousand stops in every message, many times over, and finding each
/// by its ID string in the timetable (binary search over heap strings, one
/// cache miss per step) took most of the apply time (`onward-bench realtime`).
/// Valid for one timetable (a `RealtimeState` keeps it beside the one timetable
/// it belongs to); `prepare` starts afresh when the feeds, their sizes or the
/// prefix differ, should it be handed another.
public struct FeedIDs: Sendable {
    private struct Fingerprint: Equatable {
        var feeds: [FeedSummary]
        var stops: Int
        var trips: Int
        var idPrefix: String
    }
    private var fingerprint: Fingerprint?
    private var idPrefix = ""
    /// Raw indices (with `unknown`), wrapped as they are handed out.
    private var stops: [String: UInt32] = [:]
    private var trips: [String: UInt32] = [:]
    /// Each stop's ID as this feed writes it (without the prefix; nil when the stop is another
    /// feed's), made on first use: see `names`.
    private var localStopIDs: [String?] = []
    /// Remembers an ID the timetable lacks, so it too is looked up once.
    private static let unknown = UInt32.max

    public init() {}

    /// Makes the IDs ready for a message of the feed bound to `idPrefix`. IDs the
    /// timetable lacks are remembered too, so a feed that invents new ones
    /// (added trips) could grow this without end: past a bound it starts afresh.
    mutating func prepare(for timetable: Timetable, idPrefix: String) {
        let current = Fingerprint(feeds: timetable.feeds, stops: timetable.stopCount, trips: timetable.tripCount, idPrefix: idPrefix)
        let bound = 2 * (timetable.stopCount + timetable.tripCount) + 10_000
        if fingerprint != current || stops.count + trips.count > bound {
            self = FeedIDs()
            fingerprint = current
            self.idPrefix = idPrefix
        }
    }

    /// The stop the feed calls `id`, or nil when the timetable has none.
    mutating func stop(_ id: String, in timetable: Timetable) -> StopIndex? {
        if let s = stops[id] { return s == Self.unknown ? nil : StopIndex(raw: s) }
        let s = timetable.stopIndex(exactID: idPrefix + id)
        stops[id] = s?.raw ?? Self.unknown
        return s
    }

    /// Whether the feed's `id` names `stop`, the stop a trip's pattern has at
    /// that call: asked for nearly every stop time update. Neither a lookup
    /// (hashing the string was 18% of decode + apply) nor a comparison with
    /// the prefixed ID (a byte loop, 14% of apply): the feed's own spelling of
    /// every stop is kept, and two short strings are equal when their bits are.
    mutating func names(_ stop: StopIndex, _ id: String, in timetable: Timetable) -> Bool {
        if localStopIDs.isEmpty {
            localStopIDs = (0..<timetable.stopCount).map { s in
                let full = timetable.stopIDString(StopIndex(raw: UInt32(s)))
                return full.hasPrefix(idPrefix) ? String(full.dropFirst(idPrefix.count)) : nil
            }
        }
        return localStopIDs[Int(stop.raw)] == id
    }

    /// The trip the feed calls `id`, or nil when the timetable has none.
    mutating func trip(_ id: String, in timetable: Timetable) -> TripIndex? {
        if let t = trips[id] { return t == Self.unknown ? nil : TripIndex(raw: t) }
        let t = timetable.tripIndex(exactID: idPrefix + id)
        trips[id] = t?.raw ?? Self.unknown
        return t
    }
}
