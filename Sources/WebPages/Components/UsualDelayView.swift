import API
import OnwardCore

/// How late a route usually is at a stop at this hour, in words ("Usually 3–6 min late at this hour · cancelled 1 in 12"),
/// with how much history says so in its title. Nothing without history enough.
enum UsualDelayView {
    static func note(_ u: UsualDelayDTO?, strings s: Strings) -> HTML {
        guard let u, u.enough else { return .empty }
        var words: [String] = []
        switch u.usual.departureBand {
        case .onTime?: words.append(s(.historyOnTime))
        case .late(let a, let b)?: words.append(s(.historyLate, ["from": String(a), "to": String(b)]))
        case .upTo(let b)?: words.append(s(.historyUpTo, ["minutes": String(b)]))
        case .early(let n)?: words.append(s(.historyEarly, ["minutes": String(n)]))
        case nil: break
        }
        if let n = u.cancelledOneIn { words.append(s(.historyCancelled, ["runs": String(n)])) }
        guard !words.isEmpty else { return .empty }
        let title = s(.historyBasis, ["calls": String(u.observed + u.cancelled), "days": String(u.days)])
        return "<span class=\"usual-delay\" title=\"\(title)\">\(words.joined(separator: " · "))</span>"
    }
}
