import API
import Foundation
import OnwardCore

/// The delay history in the CLI's words: "usually 3–6 min late", "cancelled 1 in 12".
enum HistoryText {
    /// How late it usually is, and how often cancelled.
    static func usual(_ u: UsualDelay) -> String {
        var parts: [String] = []
        switch u.departureBand {
        case .onTime?: parts.append("usually on time")
        case .late(let a, let b)?: parts.append(a == b ? "usually \(a) min late" : "usually \(a)–\(b) min late")
        case .upTo(let b)?: parts.append("usually up to \(b) min late")
        case .early(let n)?: parts.append("usually up to \(n) min early")
        case nil: break
        }
        if let n = u.oneCancelledIn { parts.append("cancelled 1 in \(n)") }
        return parts.joined(separator: ", ")
    }

    static let kinds: [String: String] = ["weekday": "Weekdays", "saturday": "Saturdays", "sunday": "Sundays"]

    static func text(_ h: HistoryDTO) -> String {
        let t = Terminal.stdout
        var lines = ["How late it usually is: \(h.name.map { "\($0) (\(h.id))" } ?? h.id), \(h.from) to \(h.through)"]
        if h.rows.isEmpty {
            lines.append(t.dim("No history here yet: the server records its realtime feeds, or `onward history replay` fills it."))
            return lines.joined(separator: "\n")
        }
        var route: String?? = .none
        for row in h.rows {
            if route != .some(row.routeId), let id = row.routeId {
                lines.append("")
                lines.append(t.bold("Route \(id)"))
            }
            route = .some(row.routeId)
            let u = row.usual.usual
            let when = (kinds[row.usual.dayKind] ?? row.usual.dayKind).padding(toLength: 10, withPad: " ", startingAt: 0)
                + String(format: "%02d:00", row.usual.hour)
            let words = usual(u)
            let counts = t.dim("(\(u.observed + u.cancelled) calls on \(u.days) day\(u.days == 1 ? "" : "s"))")
            lines.append("  \(when)  \(u.isEnough ? words : t.dim("too little history"))  \(counts)")
        }
        return lines.joined(separator: "\n")
    }
}
