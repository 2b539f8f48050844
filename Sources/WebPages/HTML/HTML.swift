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
    ///
    /// Works on UTF-8 bytes (the five characters are ASCII, so a multi-byte
    /// character never contains one) and returns the text itself when nothing
    /// needs escaping, as most names do: escaping scalar by scalar was a quarter
    /// of a board page's render time.
    public static func escape(_ text: some StringProtocol) -> String {
        let utf8 = text.utf8
        guard let first = utf8.firstIndex(where: needsEscape) else { return String(text) }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count + 16)
        out.append(contentsOf: utf8[..<first])
        for byte in utf8[first...] {
            switch byte {
            case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): out.append(contentsOf: "&#39;".utf8)
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
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
        var list = ""
        for case let name? in names where !name.isEmpty {
            if !list.isEmpty { list += " " }
            list += name
        }
        return list.isEmpty ? .empty : attribute("class", list)
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
