import Foundation
import OnwardCore
import Timetable

/// The stops, trips and routes of earlier versions of the timetable that the one in service no
/// longer has, each with the version that dropped it: an ID saved by a person (a saved board, a
/// commute's train) then answers "no longer scheduled since version …" rather than "no such ID".
public struct RetiredIDs: Sendable, Hashable, Codable {
    /// Canonical ID → the version that dropped it, as `version(_:)` writes it (sorting by when it was fetched).
    public private(set) var dropped: [String: String] = [:]

    /// How a dropping version is remembered: "2026-11-27T16:35:15Z halifax 2c5fb348f441".
    public static func version(_ v: FeedVersion) -> String { "\(LocalTime(v.fetchedAt, in: .gmt).iso8601) \(v.feed) \(v.shortHash)" }

    /// "halifax's version 2c5fb348f441 (fetched 2026-11-27T16:35:15+00:00)".
    public static func describe(_ version: String) -> String {
        let parts = version.split(separator: " ")
        guard parts.count == 3 else { return "the timetable in service" }
        return "\(parts[1])'s version \(parts[2]) (fetched \(parts[0]))"
    }

    /// At most this many are remembered (the newest first to stay): a year of weekly timetables
    /// that rename every trip of a city is within it.
    public static let limit = 500_000

    public init() {}

    public subscript(id: String) -> String? { dropped[id] }
    public var count: Int { dropped.count }

    /// These, with what `old` had and `new` has not added, and without what `new` has again.
    public func adding(from old: Timetable, to new: Timetable, droppedBy version: String) -> RetiredIDs {
        let kept = Set(new.allStops.map(new.stopIDString)).union((0..<UInt32(new.tripCount)).map { new.tripIdentifier(TripIndex(raw: $0)) })
            .union(new.allRoutes.map { new.routeInfo($0).id })
        var next = RetiredIDs()
        next.dropped = dropped.filter { !kept.contains($0.key) }
        let before = old.allStops.map(old.stopIDString) + (0..<UInt32(old.tripCount)).map { old.tripIdentifier(TripIndex(raw: $0)) }
            + old.allRoutes.map { old.routeInfo($0).id }
        for id in before where !kept.contains(id) { next.dropped[id] = version }
        if next.dropped.count > Self.limit {
            // The ones dropped longest ago go first; their versions sort by when they were made.
            let newest = next.dropped.sorted { $0.value > $1.value }.prefix(Self.limit)
            next.dropped = Dictionary(uniqueKeysWithValues: newest.map { ($0.key, $0.value) })
        }
        return next
    }
}
