import Foundation
import Hummingbird
import OnwardCore
import Transit

/// A request's query parameters, read with limits and errors that name the
/// parameter at fault.
struct Params {
    private let values: [String: String]
    let acceptLanguage: String?
    static let maxValueLength = 200

    init(_ request: Request) throws(QueryError) {
        var values: [String: String] = [:]
        for (key, value) in Params.formDecoded(request.uri.query ?? "") {
            // Characters as JSON Schema and the OpenAPI document count them: Unicode code points, not grapheme clusters.
            guard value.unicodeScalars.count <= Params.maxValueLength else {
                throw QueryError(.invalidParameter, "\(key) is longer than \(Params.maxValueLength) characters", parameter: key)
            }
            values[key] = value
        }
        self.values = values
        acceptLanguage = request.headers[.acceptLanguage]
    }

    /// A request body that is one flat JSON object, read as parameters of the same names (strings,
    /// numbers and booleans; `null` is absent), so a body and a query string follow one set of rules.
    init(json body: Data, acceptLanguage: String?) throws(QueryError) {
        guard let object = try? JSONDecoder().decode([String: Scalar].self, from: body) else {
            throw QueryError(.invalidParameter, "the body must be one JSON object of strings, numbers and true or false", parameter: "body")
        }
        var values: [String: String] = [:]
        for (key, value) in object {
            guard let text = value.text else { continue }
            guard text.unicodeScalars.count <= Params.maxValueLength else {
                throw QueryError(.invalidParameter, "\(key) is longer than \(Params.maxValueLength) characters", parameter: key)
            }
            values[key] = text
        }
        self.values = values
        self.acceptLanguage = acceptLanguage
    }

    /// One value of a JSON body, as its query-string text (JSONDecoder keeps `true` and `1` apart).
    private struct Scalar: Decodable {
        var text: String?

        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() { text = nil } else if let b = try? c.decode(Bool.self) { text = b ? "true" : "false" } else if let i = try? c.decode(Int.self) {
                text = String(i)
            } else if let d = try? c.decode(Double.self) { text = String(d) } else { text = try c.decode(String.self) }
        }
    }

    /// The pairs of a query string as a form sends it (application/x-www-form-urlencoded):
    /// `+` is a space, then percent escapes are decoded (so `%2B` stays a plus sign).
    /// A value that is not valid percent-encoded UTF-8 is kept as sent.
    static func formDecoded(_ query: String) -> [(key: String, value: String)] {
        query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String {
                // Most names and values have nothing to decode; Foundation's replacing and
                // unescaping were a sixth of the time of a board from the cache.
                guard text.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else { return String(text) }
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return (key: decode(parts[0]), value: parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    func string(_ name: String) -> String? {
        values[name].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
    }

    func required(_ name: String, maxLength: Int) throws(QueryError) -> String {
        guard let v = string(name) else { throw QueryError(.invalidParameter, "\(name) is required", parameter: name) }
        guard v.unicodeScalars.count <= maxLength else { throw QueryError(.invalidParameter, "\(name) must be at most \(maxLength) characters", parameter: name) }
        return v
    }

    /// A parameter given with a blank value: refused for numbers, dates and times, whose
    /// formats a blank does not have (leaving it out is how to say "the default").
    func refuseBlank(_ name: String) throws(QueryError) {
        if values[name] != nil && string(name) == nil {
            throw QueryError(.invalidParameter, "\(name) is empty; leave it out for the default", parameter: name)
        }
    }

    func int(_ name: String, in range: ClosedRange<Int>) throws(QueryError) -> Int? {
        try refuseBlank(name)
        guard let text = string(name) else { return nil }
        guard let v = Int(text), range.contains(v) else {
            throw QueryError(.invalidParameter, "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)", parameter: name)
        }
        return v
    }

    /// `true` or `false` (also `1` / `0`); absent is nil.
    func bool(_ name: String) throws(QueryError) -> Bool? {
        try refuseBlank(name)
        guard let text = string(name) else { return nil }
        switch text.lowercased() {
        case "true", "1": return true
        case "false", "0": return false
        default: throw QueryError(.invalidParameter, "\(name) must be true or false", parameter: name)
        }
    }

    func double(_ name: String) throws(QueryError) -> Double? {
        try refuseBlank(name)
        guard let text = string(name) else { return nil }
        guard let v = Double(text), v.isFinite else { throw QueryError(.invalidParameter, "\(name) must be a number", parameter: name) }
        return v
    }

    func requiredDouble(_ name: String) throws(QueryError) -> Double {
        guard let v = try double(name) else { throw QueryError(.invalidParameter, "\(name) is required", parameter: name) }
        return v
    }

    /// `name` as a date (YYYY-MM-DD, a day that exists); nil when absent.
    func date(_ name: String) throws(QueryError) -> ServiceDate? {
        try refuseBlank(name)
        guard let text = string(name) else { return nil }
        guard let date = ServiceDate(iso: text) else {
            throw QueryError(.invalidParameter, "\(name) '\(text)' is not a date; use YYYY-MM-DD", parameter: name)
        }
        return date
    }

    /// The moment `date` (YYYY-MM-DD) and `time` (HH:MM[:SS]) name in `zone`, or `at` (ISO 8601); nil for now.
    func moment(in zone: TimeZone, now: Instant) throws(QueryError) -> Instant? {
        // Given but blank is not "now": the document gives these a format, and a blank one is not it.
        for name in ["at", "date", "time"] { try refuseBlank(name) }
        let dateText = string("date"), timeText = string("time")
        // Every part given must be well formed, even the ones `at` makes unnecessary.
        let day = try self.date("date")
        let timeOfDay = try timeText.map { text throws(QueryError) in try Params.secondsOfDay(text) }
        if let at = string("at") {
            // The formatter rolls impossible fields over (30 February becomes 2 March): check them first.
            // RFC 3339 allows fractional seconds ("…T08:00:00.25+07:00"); times count in whole seconds.
            guard Params.fieldsExist(iso8601: at), let date = ISO8601DateFormatter().date(from: Params.droppingFraction(at)) else {
                throw QueryError(.invalidParameter, "at '\(at)' is not an ISO 8601 date and time with offset", parameter: "at")
            }
            return Instant(epochSeconds: Int64(date.timeIntervalSince1970))
        }
        guard dateText != nil || timeText != nil else { return nil }
        let current = LocalTime(now, in: zone)
        let date = day ?? current.date
        let seconds = timeOfDay ?? (dateText == nil ? current.secondsOfDay : 0)
        return LocalTime.instant(date: date, secondsOfDay: seconds, in: zone)
    }

    /// `HH:MM` or `HH:MM:SS` as seconds since midnight.
    static func secondsOfDay(_ text: String) throws(QueryError) -> Int {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard (2...3).contains(parts.count), let h = parts[0], let m = parts[1], (0...23).contains(h), (0...59).contains(m),
              parts.count == 2 || (parts[2].map { (0...59).contains($0) } ?? false) else {
            throw QueryError(.invalidParameter, "time '\(text)' is not a time; use HH:MM or HH:MM:SS", parameter: "time")
        }
        return h * 3600 + m * 60 + (parts.count == 3 ? parts[2]! : 0)
    }

    /// Whether the date and time of `YYYY-MM-DDTHH:MM:SS…` name a day that exists and a time of day
    /// (hours 0–23, minutes and seconds 0–59); what follows the seconds is left to the formatter.
    static func fieldsExist(iso8601 text: String) -> Bool {
        let u = Array(text.utf8)
        guard u.count >= 19, u[10] == UInt8(ascii: "T") || u[10] == UInt8(ascii: "t"), u[13] == UInt8(ascii: ":"), u[16] == UInt8(ascii: ":"),
              ServiceDate(iso: text.prefix(10)) != nil else { return false }
        func number(_ at: Int) -> Int? {
            guard (48...57).contains(u[at]), (48...57).contains(u[at + 1]) else { return nil }
            return Int(u[at] - 48) * 10 + Int(u[at + 1] - 48)
        }
        guard let h = number(11), let m = number(14), let s = number(17) else { return false }
        return h <= 23 && m <= 59 && s <= 59
    }

    /// `at` without a fractional part of its seconds (`…:00.297Z` → `…:00Z`).
    static func droppingFraction(_ text: String) -> String {
        let u = Array(text.utf8)
        guard u.count > 20, u[19] == UInt8(ascii: ".") else { return text }
        var end = 20
        while end < u.count, (48...57).contains(u[end]) { end += 1 }
        return String(decoding: u[..<19] + u[end...], as: UTF8.self)
    }

    /// Preferred languages: `lang`, then Accept-Language, then English.
    var languages: [String] {
        if let lang = string("lang") { return [lang, "en"] }
        let tags = (acceptLanguage ?? "").split(separator: ",").compactMap { part -> (String, Double)? in
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = pieces.first, !tag.isEmpty, tag != "*" else { return nil }
            let q = pieces.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return (tag, q)
        }
        let sorted = tags.sorted { $0.1 > $1.1 }.map(\.0)
        return sorted.isEmpty ? ["en"] : sorted + ["en"]
    }
}
