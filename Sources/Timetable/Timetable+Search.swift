import Foundation
import OnwardCore

extension Timetable {
    /// Whether search and nearby results list this stop: stations, and stops
    /// that belong to no station. Platforms are reached through their station.
    func isListed(_ s: Int) -> Bool {
        let kind = stopKind[s]
        return kind == StopKind.station.rawValue || (kind == StopKind.stop.rawValue && stopParent[s] == Timetable.none)
    }

    /// Stops and stations whose name matches `text`, case- and accent-insensitive:
    /// the whole name by prefix, or every word of the query as the prefix of a
    /// word of the name ("lebak" finds "Stasiun MRT Lebak Bulus"). An exact ID
    /// or stop code matches too. Best matches first.
    public func searchStops(_ text: String, limit: Int = 20) -> [StopPlace] {
        scoredSearch(text, limit: limit).map { place(StopIndex(raw: UInt32($0.stop))) }
    }

    /// Matches with their rank (lower is better).
    func scoredSearch(_ text: String, limit: Int) -> [(score: Int, stop: Int)] {
        let query = TextFolding.fold(text)
        let queryWords = query.split(separator: " ").map { Array($0.utf8) }
        guard !queryWords.isEmpty else { return [] }
        let queryBytes = Array(query.utf8)
        var scored: [(score: Int, stop: Int)] = []
        for s in 0..<stopID.count {
            let exactID = Self.sameIgnoringCase(stopID[s], text) || Self.localIDIs(stopID[s], text)
                || (!stopCode[s].isEmpty && Self.sameIgnoringCase(stopCode[s], text))
            guard isListed(s) || exactID else { continue }
            let name = stopFoldedName[s]
            var score: Int
            if exactID { score = 0 }
            else if name == query { score = 1 }
            else if name.hasPrefix(query) { score = 2 }
            else {
                guard queryWords.allSatisfy({ Self.find($0, in: name, atWordStart: true) }) else { continue }
                // The query as one phrase ranks above its words scattered through the name.
                score = Self.find(queryBytes, in: name, atWordStart: false) ? 3 : 4
            }
            // Stations before lone stops of the same score.
            scored.append((score * 2 + (stopKind[s] == StopKind.station.rawValue ? 0 : 1), s))
        }
        scored.sort { ($0.score, stopName[$0.stop].count, stopName[$0.stop], stopID[$0.stop]) < ($1.score, stopName[$1.stop].count, stopName[$1.stop], stopID[$1.stop]) }
        return Array(scored.prefix(limit))
    }

    /// Whether `needle` occurs in the folded `name` (at the start of one of its
    /// words, if asked). On bytes: splitting every name into words and Foundation's
    /// `contains` were most of a search's time.
    static func find(_ needle: [UInt8], in name: String, atWordStart: Bool) -> Bool {
        var name = name
        return name.withUTF8 { hay in
            needle.withUnsafeBufferPointer { word in
                let n = hay.count, m = word.count
                guard m > 0, m <= n else { return m == 0 }
                var i = 0
                while i + m <= n {
                    if (!atWordStart || i == 0 || hay[i - 1] == 32) && hay[i] == word[0]
                        && memcmp(hay.baseAddress! + i, word.baseAddress!, m) == 0 { return true }
                    i += 1
                }
                return false
            }
        }
    }

    /// Whether the local part of a canonical ID (after `feed:`) is `text`, ignoring case:
    /// people type the ID a feed gives a stop ("GBHI01"), not its prefix.
    static func localIDIs(_ id: String, _ text: String) -> Bool {
        let bytes = id.utf8
        // A feed's name has no ':', so the first one ends it.
        guard let colon = bytes.firstIndex(of: 58) else { return false }
        let local = bytes[bytes.index(after: colon)...]
        guard local.count == text.utf8.count else { return false }
        return sameIgnoringCase(String(Substring(local)), text)
    }

    /// Case-insensitive equality without Foundation for the usual case: IDs and
    /// codes are ASCII, and most differ in length. Foundation's compare on every
    /// stop was a quarter of a search request's time.
    static func sameIgnoringCase(_ a: String, _ b: String) -> Bool {
        let x = a.utf8, y = b.utf8
        if x.allSatisfy({ $0 < 128 }) && y.allSatisfy({ $0 < 128 }) {
            guard x.count == y.count else { return false }
            return zip(x, y).allSatisfy { p, q in p == q || (p | 0x20 == q | 0x20 && (p | 0x20) >= 97 && (p | 0x20) <= 122) }
        }
        return a.caseInsensitiveCompare(b) == .orderedSame
    }

    /// Stops and stations within `radius` metres, nearest first.
    ///
    /// A linear scan: a feed has at most tens of thousands of listed stops,
    /// and one pass over two `Double` arrays takes well under a millisecond.
    public func nearbyStops(latitude: Double, longitude: Double, radius: Double, limit: Int = 20) -> [StopPlace] {
        var found: [(Double, Int)] = []
        let cosLat = cos(latitude * .pi / 180)
        let metresPerDegree = 111_195.0
        for s in 0..<stopID.count where isListed(s) {
            let dy = (stopLat[s] - latitude) * metresPerDegree
            let dx = (stopLon[s] - longitude) * metresPerDegree * cosLat
            guard abs(dy) <= radius, abs(dx) <= radius * 1.01 + 1 else { continue }
            let d = GreatCircle.metres(latitude, longitude, stopLat[s], stopLon[s])
            if d <= radius { found.append((d, s)) }
        }
        found.sort { $0 < $1 }
        return found.prefix(limit).map { place(StopIndex(raw: UInt32($0.1)), distance: ($0.0).rounded()) }
    }

}

/// What a stop named by a person resolves to.
public enum StopResolution: Sendable {
    case found(StopIndex)
    /// Several stops match equally well: the candidates, best first.
    case ambiguous([StopPlace])
    case notFound
}

extension Timetable {
    /// Resolves an ID (canonical, or unprefixed when one feed has it; several feeds having it
    /// lists their stops) or a name (searched). A name that matches one
    /// station or stop, or matches one exactly, is found; otherwise the
    /// candidates are returned for the person to choose from.
    public func resolveStop(_ text: String) -> StopResolution {
        switch lookupStop(id: text) {
        case .found(let s): return .found(s)
        case .ambiguous(let ids): return .ambiguous(ids.compactMap { stopIndex(exactID: $0) }.map { place($0) })
        case .notFound: break
        }
        let scored = scoredSearch(text, limit: 50)
        if scored.isEmpty { return .notFound }
        // One match, or one that ranks strictly above the rest (a phrase beats scattered words).
        if scored.count == 1 || scored[0].score < scored[1].score { return .found(StopIndex(raw: UInt32(scored[0].stop))) }
        let matches = scored.map { place(StopIndex(raw: UInt32($0.stop))) }
        let folded = TextFolding.fold(text)
        let exact = matches.filter { TextFolding.fold($0.name) == folded || $0.code?.caseInsensitiveCompare(text) == .orderedSame }
        if exact.count == 1, let s = stop(id: exact[0].id) { return .found(s) }
        return .ambiguous(Array(matches.prefix(12)))
    }
}

extension Timetable {
    /// The stations and stops whose names come nearest `text` when nothing matches it,
    /// for "did you mean …?": the fewest edits (Levenshtein, case and accents ignored)
    /// between the query and as many consecutive words of a name, at most one edit in
    /// four letters. "Bundran HI" finds "Stasiun MRT Bundaran HI …" (one edit). Best first.
    public func nearestNames(_ text: String, limit: Int = 3) -> [StopPlace] {
        let query = Array(TextFolding.fold(text).utf8)
        let wordCount = query.split(separator: 32).count
        guard wordCount > 0 else { return [] }
        let allowed = max(1, query.count / 4)
        var best: [(distance: Int, stop: Int)] = []
        for s in 0..<stopID.count where isListed(s) {
            let words = stopFoldedName[s].utf8.split(separator: 32).map(Array.init)
            var nearest = Int.max
            for count in Set([wordCount - 1, wordCount, wordCount + 1]) where count > 0 && count <= words.count {
                for start in 0...(words.count - count) {
                    let window = Array(words[start..<(start + count)].joined(separator: [32]))
                    nearest = min(nearest, Self.editDistance(query, window, atMost: allowed))
                }
            }
            if nearest <= allowed { best.append((nearest, s)) }
        }
        best.sort { ($0.distance, stopKind[$0.stop] == StopKind.station.rawValue ? 0 : 1, stopName[$0.stop]) <
                    ($1.distance, stopKind[$1.stop] == StopKind.station.rawValue ? 0 : 1, stopName[$1.stop]) }
        var names = Set<String>(), places: [StopPlace] = []
        for candidate in best where places.count < limit && names.insert(stopName[candidate.stop]).inserted {
            places.append(place(StopIndex(raw: UInt32(candidate.stop))))
        }
        return places
    }

    /// Levenshtein distance of two byte strings; anything over `atMost` reads as `atMost + 1`.
    static func editDistance(_ a: [UInt8], _ b: [UInt8], atMost: Int) -> Int {
        if abs(a.count - b.count) > atMost { return atMost + 1 }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            current[0] = i
            var rowBest = current[0]
            for j in 1..<(b.count + 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                rowBest = min(rowBest, current[j])
            }
            if rowBest > atMost { return atMost + 1 }
            swap(&previous, &current)
        }
        return min(previous[b.count], atMost + 1)
    }
}
