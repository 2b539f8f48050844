import Foundation
import OnwardCore

/// What a request asks, as named parameters (a query string, a form, a flat JSON body, or the
/// CLI's options under the API's names), read with one set of rules: limits, formats, errors that
/// name the parameter at fault. The API, the pages and the CLI all read their requests here.
public struct RequestParameters: Sendable {
    private let values: [String: String]
    public let acceptLanguage: String?
    public static let maxValueLength = 200

    /// Parameters from their name–value pairs; of a name given twice, the last is kept.
    public init(_ pairs: [(key: String, value: String)], acceptLanguage: String? = nil) throws(QueryError) {
        var values: [String: String] = [:]
        for (key, value) in pairs {
            // Characters as JSON Schema and the OpenAPI document count them: Unicode code points, not grapheme clusters.
            guard value.unicodeScalars.count <= RequestParameters.maxValueLength else {
                throw QueryError(.invalidParameter, "\(key) is longer than \(RequestParameters.maxValueLength) characters", parameter: key)
            }
            values[key] = value
        }
        self.values = values
        self.acceptLanguage = acceptLanguage
    }

    /// Parameters from a query string (`a=1&b=x+y`).
    public init(query: String, acceptLanguage: String? = nil) throws(QueryError) {
        try self.init(RequestParameters.formDecoded(query), acceptLanguage: acceptLanguage)
    }

    /// The CLI's options under the API's parameter names; an option not given is left out.
    public init(options: [String: String?]) throws(QueryError) {
        try self.init(options.compactMap { key, value in value.map { (key: key, value: $0) } })
    }

    /// A request body that is one flat JSON object, read as parameters of the same names (strings,
    /// numbers and booleans; `null` is absent), so a body and a query string follow one set of rules.
    public init(json body: Data, acceptLanguage: String?) throws(QueryError) {
        guard let object = try? JSONDecoder().decode([String: Scalar].self, from: body) else {
            throw QueryError(.invalidParameter, "the body must be one JSON object of strings, numbers and true or false", parameter: "body")
        }
        var values: [String: String] = [:]
        for (key, value) in object {
            guard let text = value.text else { continue }
            guard text.unicodeScalars.count <= RequestParameters.maxValueLength else {
                throw QueryError(.invalidParameter, "\(key) is longer than \(RequestParameters.maxValueLength) characters", parameter: key)
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
    public static func formDecoded(_ query: String) -> [(key: String, value: String)] {
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

    public func string(_ name: String) -> String? {
        values[name].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
    }

    public func required(_ name: String, maxLength: Int) throws(QueryError) -> String {
        guard let v = string(name) else { throw QueryError(.invalidParameter, "\(name) is required", parameter: name) }
        guard v.unicodeScalars.count <= maxLength else { throw QueryError(.invalidParameter, "\(name) must be at most \(maxLength) characters", parameter: name) }
        return v
    }

    /// A parameter given with a blank value: refused for numbers, dates and times, whose
    /// formats a blank does not have (leaving it out is how to say "the default").
    public func refuseBlank(_ name: String) throws(QueryError) {
        if values[name] != nil && string(name) == nil {
            throw QueryError(.invalidParameter, "\(name) is empty; leave it out for the default", parameter: name)
        }
    }

    /// A whole number within `range` (`unit` names what it counts, as " minutes"); nil when absent.
    public func int(_ name: String, in range: ClosedRange<Int>, unit: String = "") throws(QueryError) -> Int? {
        try refuseBlank(name)
        guard let text = string(name) else { return nil }
        guard let v = Int(text), range.contains(v) else {
            throw QueryError(.invalidParameter, "\(name) must be a whole number between \(range.lowerBound) and \(range.upperBound)\(unit)", parameter: name)
        }
        return v
    }

    /// `true` or `false` (also `1` / `0`); absent is nil.
    public func bool(_ name: String) throws(QueryError) -> Bool? {
        try refuseBlank(name)
        guard let text = string(name) else { return nil }
        switch text.lowercased() {
        case "true", "1": return true
        case "false", "0": return false
        default: throw QueryError(.invalidParameter, "\(name) must be true or false", parameter: name)
        }
    }

    public func double(_ name: String) throws(QueryError) -> Double? {
        try refuseBlank(name)
        guard let text = string(name) else { return nil }
        guard let v = Double(text), v.isFinite else { throw QueryError(.invalidParameter, "\(name) must be a number", parameter: name) }
        return v
    }

    public func requiredDouble(_ name: String) throws(QueryError) -> Double {
        guard let v = try double(name) else { throw QueryError(.invalidParameter, "\(name) is required", parameter: name) }
        return v
    }

    /// `name` as a date (YYYY-MM-DD, a day that exists); nil when absent.
    public func date(_ name: String) throws(QueryError) -> ServiceDate? {
        try refuseBlank(name)
        guard let text = string(name) else { return nil }
        return try TimeText.date(text, parameter: name)
    }

    /// Whether the request names a moment (`at`, `date` or `time`); without one it asks for now.
    public var namesAMoment: Bool { ["at", "date", "time"].contains { values[$0] != nil } }

    /// The moment `date` (YYYY-MM-DD) and `time` (HH:MM[:SS]) name in `zone`, or `at` (ISO 8601); nil for now.
    public func moment(in zone: TimeZone, now: Instant) throws(QueryError) -> Instant? {
        // Given but blank is not "now": the document gives these a format, and a blank one is not it.
        for name in ["at", "date", "time"] { try refuseBlank(name) }
        let dateText = string("date"), timeText = string("time")
        // Every part given must be well formed, even the ones `at` makes unnecessary.
        let day = try self.date("date")
        let timeOfDay = try timeText.map { text throws(QueryError) in try TimeText.secondsOfDay(text, parameter: "time") }
        if let at = string("at") { return try TimeText.instant(at, parameter: "at") }
        guard dateText != nil || timeText != nil else { return nil }
        let current = LocalTime(now, in: zone)
        let date = day ?? current.date
        let seconds = timeOfDay ?? (dateText == nil ? current.secondsOfDay : 0)
        return LocalTime.instant(date: date, secondsOfDay: seconds, in: zone)
    }

    /// Preferred languages: `lang`, then Accept-Language, then English.
    public var languages: [String] {
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
