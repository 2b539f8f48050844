/// Bulletin texts arrive as HTML fragments (`…street blockage.<br/><br/>Allow extra
/// travel time.<br/>`, sometimes escaped twice). What leaves the adapter is plain text
/// with no markup at all: line breaks for `<br>` and block ends, entities decoded, every
/// other tag dropped, `<script>`/`<style>` dropped with their content. Pages escape it
/// when they show it, like any other text.
enum CTAPlainText {
    static func fromHTML(_ html: String) -> String {
        var text = html
        // A second pass catches markup that was escaped once more (`&lt;br/&gt;` inside
        // JSON): after one pass it is markup again. Three passes end any nesting we have seen.
        for _ in 0..<3 {
            let next = pass(text)
            if next == text { break }
            text = next
        }
        return tidy(text)
    }

    private static let breakingTags: Set<String> = ["br", "p", "div", "li", "ul", "ol", "tr", "table", "h1", "h2", "h3",
                                                     "h4", "h5", "h6", "blockquote", "hr"]

    /// One pass: tags out, entities decoded.
    private static func pass(_ html: String) -> String {
        let chars = Array(html.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "<", let end = tagEnd(chars, from: i) {
                let name = tagName(chars, from: i + 1, to: end)
                let isClosing = i + 1 < chars.count && chars[i + 1] == "/"
                if !isClosing, name == "script" || name == "style" {
                    i = closingTag(name, in: chars, from: end + 1)
                    continue
                }
                if breakingTags.contains(name) { out.append("\n") }
                i = end + 1
                continue
            }
            if c == "&", let (decoded, next) = entity(chars, from: i) {
                out.append(contentsOf: decoded.unicodeScalars)
                i = next
                continue
            }
            out.append(c)
            i += 1
        }
        return String(out)
    }

    /// The index of the `>` closing a tag that starts at `start`, if the `<` starts one
    /// (a letter, `/` or `!` follows): "a < b" stays text.
    private static func tagEnd(_ chars: [Unicode.Scalar], from start: Int) -> Int? {
        guard start + 1 < chars.count else { return nil }
        let next = chars[start + 1]
        guard next.properties.isAlphabetic || next == "/" || next == "!" else { return nil }
        var j = start + 1
        while j < chars.count {
            if chars[j] == ">" { return j }
            j += 1
        }
        return nil
    }

    private static func tagName(_ chars: [Unicode.Scalar], from start: Int, to end: Int) -> String {
        var j = start
        if j < end, chars[j] == "/" { j += 1 }
        var name = ""
        while j < end, chars[j].properties.isAlphabetic || ("0"..."9").contains(chars[j]) {
            name.unicodeScalars.append(chars[j])
            j += 1
        }
        return name.lowercased()
    }

    /// Just past `</name>`, or the end of the text when it is never closed.
    private static func closingTag(_ name: String, in chars: [Unicode.Scalar], from start: Int) -> Int {
        var j = start
        while j < chars.count {
            if chars[j] == "<", let end = tagEnd(chars, from: j), chars[j + 1] == "/",
               tagName(chars, from: j + 1, to: end) == name {
                return end + 1
            }
            j += 1
        }
        return chars.count
    }

    private static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "ndash": "–", "mdash": "—",
        "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "bull": "•", "hellip": "…", "middot": "·",
        "eacute": "é", "copy": "©", "reg": "®", "deg": "°",
    ]

    /// The text of an entity at `start` (`&amp;`, `&#8217;`, `&#x2019;`) and the index after
    /// it; nil when `&` does not start a known entity, so it stays as text.
    private static func entity(_ chars: [Unicode.Scalar], from start: Int) -> (String, Int)? {
        var j = start + 1
        var body = ""
        while j < chars.count, j - start <= 10, chars[j] != ";" {
            body.unicodeScalars.append(chars[j])
            j += 1
        }
        guard j < chars.count, chars[j] == ";", !body.isEmpty else { return nil }
        if body.hasPrefix("#") {
            let digits = body.dropFirst()
            let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            // A control character or an invalid scalar becomes a space rather than text that could confuse a page.
            guard let value, let scalar = Unicode.Scalar(value) else { return nil }
            return (scalar.properties.generalCategory == .control ? " " : String(Character(scalar)), j + 1)
        }
        guard let text = named[body.lowercased()] else { return nil }
        return (text, j + 1)
    }

    /// Runs of spaces and tabs as one space, each line trimmed, at most one blank line in a row.
    private static func tidy(_ text: String) -> String {
        var lines: [String] = []
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var pendingSpace = false
            for scalar in raw.unicodeScalars {
                if scalar == " " || scalar == "\t" || scalar == "\r" || scalar == "\u{A0}" || scalar.properties.generalCategory == .control {
                    pendingSpace = !line.isEmpty
                } else {
                    if pendingSpace { line.append(" ") }
                    pendingSpace = false
                    line.unicodeScalars.append(scalar)
                }
            }
            if line.isEmpty, lines.last?.isEmpty ?? true { continue }
            lines.append(line)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }
}
