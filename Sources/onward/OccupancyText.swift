import API

/// How full a vehicle is, in a terminal: the same words the web app uses in English, a forecast marked as one.
enum OccupancyText {
    /// "few seats free", "standing room only (85% full)", "…, forecast"; empty without a level.
    static func render(_ o: OccupancyDTO?, _ t: Terminal) -> String {
        guard let o, let level = o.level else { return "" }
        var text = words(level)
        if let p = o.percentage { text += " (\(p)% full)" }
        if o.basis == "forecastAtStop" { text += ", forecast" }
        return t.dim(text)
    }

    /// Each carriage from the front: "1 few seats free · 2 standing room only · …".
    static func carriages(_ o: OccupancyDTO?) -> String? {
        guard let carriages = o?.carriages, !carriages.isEmpty else { return nil }
        return carriages.map { c in "\(c.label ?? String(c.sequence)) \(c.level.map(words) ?? "no data")" + (c.percentage.map { " (\($0)%)" } ?? "") }
            .joined(separator: " · ")
    }

    static func words(_ level: String) -> String {
        switch level {
        case "empty": "empty"
        case "manySeatsAvailable": "many seats free"
        case "fewSeatsAvailable": "few seats free"
        case "standingRoomOnly": "standing room only"
        case "crushedStandingRoomOnly": "very crowded"
        case "full": "full"
        case "notAcceptingPassengers": "not taking passengers"
        case "notBoardable": "no boarding"
        default: "no data"
        }
    }
}
