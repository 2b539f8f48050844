import Foundation

/// A route's short name on its route colour.
///
/// The Content-Security-Policy forbids inline styles, so the colour travels as
/// `data-color` (validated here as six hex digits, else left out) and the
/// script sets it with `style.setProperty`, which CSP allows. The text colour
/// is chosen here, by contrast, as a class; without the script the badge keeps
/// its neutral look.
enum LineBadge {
    /// Badges already rendered for one page: a board shows the same few lines
    /// on every row, twice (the line column and the phone layout's notes), and
    /// rendering each afresh was a fifth of the page's time.
    struct Cache {
        private struct Key: Hashable { var shortName: String, longName: String, color: String? }
        private var rendered: [Key: HTML] = [:]

        mutating func badge(shortName: String, longName: String, color: String?, strings: Strings) -> HTML {
            let key = Key(shortName: shortName, longName: longName, color: color)
            if let html = rendered[key] { return html }
            let html = LineBadge.render(shortName: shortName, longName: longName, color: color, strings: strings)
            rendered[key] = html
            return html
        }
    }

    static func render(shortName: String, longName: String, color: String?, strings s: Strings) -> HTML {
        let label = shortName.isEmpty ? longName : shortName
        guard !label.isEmpty else { return .empty }
        let hex = RouteColor.hex(color)
        let ink = hex.map { RouteColor.prefersDarkText($0) ? "ink-dark" : "ink-light" }
        let title = longName.isEmpty || longName == label ? nil : longName
        return """
        <span\(HTML.classes("line-badge", ink))\(HTML.attribute("data-color", hex))\(HTML.attribute("title", title))>\
        <span class="visually-hidden">\(s(.lineName, ["line": label]))</span><span aria-hidden="true">\(label)</span></span>
        """
    }
}

/// Route colours from feeds: GTFS writes them as six hex digits without `#`.
public enum RouteColor {
    /// The colour as six upper-case hex digits, or nil for anything else (a
    /// leading `#` is tolerated). Nothing else ever reaches a page.
    public static func hex(_ text: String?) -> String? {
        guard var t = text?.trimmingWhitespace else { return nil }
        if t.hasPrefix("#") { t.removeFirst() }
        guard t.utf8.count == 6, t.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 70) || ($0 >= 97 && $0 <= 102) })
        else { return nil }
        return t.uppercased()
    }

    /// Whether near-black text reads better than white on this background,
    /// by the WCAG 2 contrast ratio of each.
    public static func prefersDarkText(_ hex: String) -> Bool {
        let l = luminance(hex)
        let withWhite = 1.05 / (l + 0.05)
        let withDark = (l + 0.05) / (luminance("111111") + 0.05)
        return withDark > withWhite
    }

    /// WCAG relative luminance of an sRGB colour.
    static func luminance(_ hex: String) -> Double {
        let v = Int(hex, radix: 16) ?? 0
        func channel(_ c: Int) -> Double {
            let s = Double(c) / 255
            return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(v >> 16 & 0xFF) + 0.7152 * channel(v >> 8 & 0xFF) + 0.0722 * channel(v & 0xFF)
    }
}
