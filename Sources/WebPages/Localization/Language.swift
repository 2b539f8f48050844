/// The languages the web app is written in. Alert texts come from the feeds in
/// whatever languages they carry; everything else on a page comes from the
/// string tables of one of these.
public enum Language: String, Sendable, CaseIterable, Hashable {
    case en
    case id

    /// English when nothing better is known.
    public static let fallback: Language = .en

    /// The language a tag names, if it is one of ours: `en`, `en-GB`, `id`,
    /// `id-ID`, and `in` (the code Indonesian had before 1989, which old Java
    /// and Android systems still send). Case does not matter.
    public init?(tag: some StringProtocol) {
        let primary = tag.trimmingWhitespace.lowercased().split { $0 == "-" || $0 == "_" }.first ?? ""
        switch primary {
        case "en": self = .en
        case "id", "in": self = .id
        default: return nil
        }
    }

    /// The best of our languages for an `Accept-Language` header value: tags
    /// in order of their q-values (ties keep the header's order), the first we
    /// speak wins; `q=0` means "not this one". English when none matches.
    public static func negotiate(acceptLanguage header: String?) -> Language {
        guard let header else { return fallback }
        var ranked: [(tag: String, q: Double, order: Int)] = []
        for (order, part) in header.split(separator: ",").enumerated() {
            let pieces = part.split(separator: ";")
            guard let tag = pieces.first?.trimmingWhitespace, !tag.isEmpty else { continue }
            var q = 1.0
            for parameter in pieces.dropFirst() {
                let p = parameter.trimmingWhitespace
                if p.lowercased().hasPrefix("q="), let value = Double(p.dropFirst(2)) { q = value }
            }
            ranked.append((tag, q, order))
        }
        ranked.sort { $0.q != $1.q ? $0.q > $1.q : $0.order < $1.order }
        for entry in ranked where entry.q > 0 {
            if let language = Language(tag: entry.tag) { return language }
        }
        return fallback
    }

    /// The language for a request: an explicit `?lang=` wins, then the `lang`
    /// cookie the server set when the reader last chose, then the browser's
    /// `Accept-Language`, then English.
    public static func resolve(query: String?, cookie: String?, acceptLanguage: String?) -> Language {
        if let query, let language = Language(tag: query) { return language }
        if let cookie, let language = Language(tag: cookie) { return language }
        return negotiate(acceptLanguage: acceptLanguage)
    }

    /// The tag for `<html lang>` and `hreflang`.
    public var tag: String { rawValue }

    /// Language tags for choosing among an alert's translations, most preferred
    /// first (what `AlertDTO.init(_:languages:)` takes).
    public var alertLanguages: [String] {
        switch self {
        case .en: ["en"]
        case .id: ["id", "in", "en"]
        }
    }
}

/// The colour scheme the reader picked. `system` follows the device.
public enum Theme: String, Sendable, CaseIterable, Hashable {
    case system
    case light
    case dark

    /// The theme a cookie or query value names; `system` for anything else,
    /// so a tampered cookie can never reach the page.
    public init(value: String?) {
        self = value.flatMap { Theme(rawValue: $0.trimmingWhitespace.lowercased()) } ?? .system
    }
}

extension StringProtocol {
    var trimmingWhitespace: String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}
