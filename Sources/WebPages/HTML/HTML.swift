/// A piece of markup. The literal parts of an `HTML` string literal are
/// trusted (they are our code); every `String` interpolated into it is escaped,
/// so text from feeds, stop names and query parameters can never become markup:
///
///     let row: HTML = "<td class=\"dest\">\(entry.headsign)</td>"
///
/// Nested `HTML` values and arrays of them are inserted as they are.
/// Everything this module puts in an attribute is inside double quotes, so one
/// escaping (of `& < > " '`) serves both text and attribute values.
public struct HTML: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// The markup as text.
    public private(set) var rendered: String

    /// Markup we wrote ourselves (never text from outside).
    public init(trusted markup: String) { rendered = markup }

    public init(stringLiteral value: String) { rendered = value }

    public init(stringInterpolation: StringInterpolation) { rendered = stringInterpolation.output }

    public static let empty = HTML(trusted: "")

    public var description: String { rendered }
    public var isEmpty: Bool { rendered.isEmpty }

    public static func + (a: HTML, b: HTML) -> HTML { HTML(trusted: a.rendered + b.rendered) }
    public static func += (a: inout HTML, b: HTML) { a.rendered += b.rendered }

    /// Text as markup: `<`, `>`, `&`, `"` and `'` become entities.
    public static func escape(_ text: some StringProtocol) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// Text for an attribute value (always written inside double quotes).
    public static func escapeAttribute(_ text: some StringProtocol) -> String { escape(text) }

    /// ` name="value"` with the value escaped, or nothing when the value is nil.
    public static func attribute(_ name: String, _ value: String?) -> HTML {
        guard let value else { return .empty }
        return HTML(trusted: " " + name + "=\"" + escapeAttribute(value) + "\"")
    }

    /// ` name` when `on`, else nothing (for `hidden`, `disabled`, …).
    public static func flag(_ name: String, _ on: Bool) -> HTML { on ? HTML(trusted: " " + name) : .empty }

    /// Several pieces, one after another.
    public static func join(_ parts: some Sequence<HTML>, separator: HTML = .empty) -> HTML {
        HTML(trusted: parts.map(\.rendered).joined(separator: separator.rendered))
    }

    /// ` class="a b"` from the names that are not empty.
    public static func classes(_ names: String?...) -> HTML {
        let list = names.compactMap { $0 }.filter { !$0.isEmpty }
        return list.isEmpty ? .empty : attribute("class", list.joined(separator: " "))
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        var output = ""

        public init(literalCapacity: Int, interpolationCount: Int) {
            output.reserveCapacity(literalCapacity + interpolationCount * 16)
        }

        public mutating func appendLiteral(_ literal: String) { output += literal }

        /// Text: escaped.
        public mutating func appendInterpolation(_ text: String) { output += HTML.escape(text) }

        /// Text that may be absent: escaped, nothing when nil.
        public mutating func appendInterpolation(_ text: String?) { if let text { output += HTML.escape(text) } }

        public mutating func appendInterpolation(_ number: Int) { output += String(number) }

        /// Markup: inserted as it is.
        public mutating func appendInterpolation(_ html: HTML) { output += html.rendered }

        public mutating func appendInterpolation(_ html: HTML?) { if let html { output += html.rendered } }

        public mutating func appendInterpolation(_ parts: [HTML]) {
            for part in parts { output += part.rendered }
        }
    }
}
