import API

/// How full a vehicle is, as words with a small figure of three people beside them (filled as it fills): the words
/// carry the meaning, so nothing rests on colour or the figure alone. The title says whether it is the vehicle as last
/// reported or the feed's forecast for leaving this stop.
enum OccupancyView {
    /// The badge for a board row, a call or a journey's ride; empty without a level.
    static func badge(_ o: OccupancyDTO?, strings s: Strings) -> HTML {
        guard let o, let level = o.level else { return .empty }
        var words = self.words(level, strings: s)
        if let percent = o.percentage { words += " (\(s(.occupancyPercent, ["percent": String(percent)])))" }
        let title = s(o.basis == "forecastAtStop" ? .occupancyForecast : .occupancyVehicleNow)
        return "<span class=\"occupancy occupancy-\(String(filled(level)))\" title=\"\(title)\" data-occupancy=\"\(level)\">\(figure(level))\(words)</span>"
    }

    /// The carriages in order from the front, each with its words: a list a screen reader reads as it is.
    static func carriages(_ o: OccupancyDTO?, strings s: Strings) -> HTML {
        guard let carriages = o?.carriages, !carriages.isEmpty else { return .empty }
        let items: [HTML] = carriages.map { c in
            let name = c.label ?? s(.occupancyCarriage, ["number": String(c.sequence)])
            let level = c.level
            let words = level.map { self.words($0, strings: s) } ?? "–"
            let percent = c.percentage.map { " (\(s(.occupancyPercent, ["percent": String($0)])))" } ?? ""
            return "<li class=\"carriage occupancy-\(String(level.map(filled) ?? 0))\"><span class=\"carriage-name\">\(name)</span> \(level.map(figure) ?? .empty)\(words)\(percent)</li>"
        }
        return "<ol class=\"carriages\" aria-label=\"\(s(.occupancyCarriages))\">\(HTML.join(items, separator: ""))</ol>"
    }

    /// The words for a level (the API's camel-case names); an unknown name reads as nothing known.
    static func words(_ level: String, strings s: Strings) -> String {
        switch level {
        case "empty": s(.occupancyEmpty)
        case "manySeatsAvailable": s(.occupancyManySeats)
        case "fewSeatsAvailable": s(.occupancyFewSeats)
        case "standingRoomOnly": s(.occupancyStanding)
        case "crushedStandingRoomOnly": s(.occupancyCrushed)
        case "full": s(.occupancyFull)
        case "notAcceptingPassengers": s(.occupancyNotAccepting)
        case "notBoardable": s(.occupancyNotBoardable)
        default: "–"
        }
    }

    /// How many of the three figures are filled.
    static func filled(_ level: String) -> Int {
        switch level {
        case "empty": 0
        case "manySeatsAvailable": 1
        case "fewSeatsAvailable": 2
        default: 3
        }
    }

    /// Three small people, `filled(level)` of them solid; hidden from screen readers, which read the words.
    static func figure(_ level: String) -> HTML {
        let n = filled(level)
        let people = (0..<3).map { i -> String in
            let x = 2 + i * 8
            return "<g class=\"\(i < n ? "on" : "off")\"><circle cx=\"\(x + 2)\" cy=\"3\" r=\"2\"/><rect x=\"\(x)\" y=\"6\" width=\"4\" height=\"6\" rx=\"1.5\"/></g>"
        }.joined()
        return HTML(trusted: "<svg class=\"occupancy-icon\" viewBox=\"0 0 24 13\" width=\"24\" height=\"13\" aria-hidden=\"true\" focusable=\"false\">\(people)</svg> ")
    }
}
