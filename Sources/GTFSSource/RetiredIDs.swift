import Foundation
import OnwardCore
import Timetable

/// The stops, trips and routes of earlier versions of the timetable that the one in service no
/// longer has, each with the version that dropped it: an ID saved by a person (a saved board, a
/// commute's train) then answers "no longer scheduled since version …" rather than "no such ID".
public struct RetiredIDs: Sendable, Hashable, Codable {
    /// Canonical ID → the version that dropped it, as `version(_:)` writes it (sorting by when it was fetched).
    public private(set) var dropped: [String: String] = [:]
    /// A dropped trip's ID → the ID of the trip in service that runs exactly as it did (route, stops, times,
    /// frequencies: `TripFingerprint`): the agency renamed it. A commute or a saved service on the old ID
    /// follows the new one, live times and all, rather than losing them.
    public private(set) var renamed: [String: String] = [:]

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

    /// The trip in service a dropped trip was renamed to, when there is one.
    public func successor(ofTrip id: String) -> String? { renamed[id] }

    enum CodingKeys: String, CodingKey { case dropped, renamed }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        dropped = try c.decode([String: String].self, forKey: .dropped)
        // Kept by a version that did not know renames: none.
        renamed = try c.decodeIfPresent([String: String].self, forKey: .renamed) ?? [:]
    }

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
        next.renamed = renames(from: old, to: new, kept: kept, still: next.dropped)
        return next
    }

    /// Each trip `old` had and `new` has not, to the one trip of `new` with its fingerprint; and each earlier
    /// rename carried on to where its trip went now. A fingerprint (or its hash) two trips of `new` share names neither.
    private func renames(from old: Timetable, to new: Timetable, kept: Set<String>, still dropped: [String: String]) -> [String: String] {
        // By the fingerprint's hash, not the fingerprint: a national feed has hundreds of thousands of trips, and
        // their calls kept whole would be hundreds of megabytes while a new version is taken in. A match is then
        // checked on the whole fingerprint.
        let gone = (0..<UInt32(old.tripCount)).lazy.map(TripIndex.init).filter { !kept.contains(old.tripIdentifier($0)) }
        var byHash: [Int: TripIndex?] = [:]
        // Nothing dropped (a new calendar, new times): nothing to look for.
        for t in 0..<UInt32(gone.isEmpty ? 0 : new.tripCount) {
            let trip = TripIndex(raw: t)
            guard let f = new.fingerprint(of: trip) else { continue }
            let h = f.hashValue
            if byHash[h] == nil { byHash[h] = .some(trip) } else { byHash[h] = .some(nil) }
        }
        var now: [String: String] = [:]
        for trip in gone {
            guard let f = old.fingerprint(of: trip), let candidate = byHash[f.hashValue] ?? nil, new.fingerprint(of: candidate) == f else { continue }
            now[old.tripIdentifier(trip)] = new.tripIdentifier(candidate)
        }
        var carried: [String: String] = [:]
        for (id, successor) in renamed where dropped[id] != nil {
            if kept.contains(successor) { carried[id] = successor } else if let next = now[successor] { carried[id] = next }
        }
        return carried.merging(now) { _, latest in latest }
    }
}
