/// NRCC messages arrive as fragments of HTML (`<P>`, `<A href=…>`, `&nbsp;`),
/// written by hand in a control room. Nothing downstream should ever render them as
/// HTML, so they are reduced here to plain text once, with their first link kept.
enum DarwinText {
    /// `html` as plain text (tags removed, the content of `script` and `style`
    /// dropped, entities decoded, white space collapsed and trimmed), and the first
    /// `href` that is an http(s) URL.
    static func plain(_ html: String) -> (text: String, url: String?) {
        var out = String.UnicodeScalarView()
        var url: String?
        let scalars = Array(html.unicodeScalars)
        var i = 0
        var skipUntil: String?   // inside <script> or <style>: the closing tag name
        while i < scalars.count {
            let c = scalars[i]
            if c == "<", let end = scalars[(i + 1)...].firstIndex(of: ">") {
                let tag = String(String.UnicodeScalarView(scalars[(i + 1)..<end]))
                let (name, closing) = tagName(tag)
                if let skip = skipUntil {
                    if closing && name == skip { skipUntil = nil }
                } else if !closing && (name == "script" || name == "style") {
                    skipUntil = name
                } else {
                    if name == "a", !closing, url == nil, let href = attribute("href", in: tag) {
                        let decoded = decodeEntities(href).trimmingSpaces
                        let lower = decoded.lowercased()
                        if lower.hasPrefix("https://") || lower.hasPrefix("http://") { url = decoded }
                    }
                    // Block-level tags separate words; inline ones (a, b, span) do not.
                    if blockTags.contains(name) { out.append(" ") }
                }
                i = end + 1
                continue
            }
            if skipUntil == nil { out.append(c) }
            i += 1
        }
        return (collapse(decodeEntities(String(out))), url)
    }

    private static let blockTags: Set<String> = ["p", "br", "div", "li", "ul", "ol", "tr", "td", "h1", "h2", "h3", "h4", "hr"]

    /// The lower-cased name of a tag's text (`A href="…"` → "a"), and whether it closes.
    private static func tagName(_ tag: String) -> (String, Bool) {
        var body = Substring(tag)
        let closing = body.hasPrefix("/")
        if closing { body = body.dropFirst() }
        let name = body.prefix { $0.isLetter || $0.isNumber }
        return (name.lowercased(), closing)
    }

    /// The value of attribute `name` (quoted with `"` or `'`, or unquoted) inside a tag's text.
    private static func attribute(_ name: String, in tag: String) -> String? {
        let chars = Array(tag)
        var i = 0
        // Skip the tag's own name.
        while i < chars.count, !chars[i].isWhitespace { i += 1 }
        while i < chars.count {
            while i < chars.count, chars[i].isWhitespace || chars[i] == "/" { i += 1 }
            let nameStart = i
            while i < chars.count, !chars[i].isWhitespace, chars[i] != "=", chars[i] != "/" { i += 1 }
            let attributeName = String(chars[nameStart..<i]).lowercased()
            while i < chars.count, chars[i].isWhitespace { i += 1 }
            guard i < chars.count, chars[i] == "=" else {
                if i == nameStart { i += 1 }
                continue
            }
            i += 1
            while i < chars.count, chars[i].isWhitespace { i += 1 }
            var value = ""
            if i < chars.count, chars[i] == "\"" || chars[i] == "'" {
                let quote = chars[i]
                let close = chars[(i + 1)...].firstIndex(of: quote) ?? chars.count
                value = String(chars[(i + 1)..<close])
                i = min(close + 1, chars.count)
            } else {
                let start = i
                while i < chars.count, !chars[i].isWhitespace { i += 1 }
                value = String(chars[start..<i])
            }
            if attributeName == name { return value }
        }
        return nil
    }

    /// Decodes the HTML entities NRCC staff use, and any numeric reference. An
    /// unknown `&name;` is left as it is.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semi = after.prefix(10).firstIndex(of: ";") {
                let name = after[..<semi]
                if let decoded = decodeEntity(name) {
                    out += decoded
                    rest = after[after.index(after: semi)...]
                    continue
                }
            }
            out += "&"
            rest = after
        }
        out += rest
        return out
    }

    private static func decodeEntity(_ name: Substring) -> String? {
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value = digits.hasPrefix("x") || digits.hasPrefix("X") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            guard let v = value, let scalar = Unicode.Scalar(v) else { return nil }
            return String(Character(scalar))
        }
        return namedEntities[name.lowercased()]
    }

    private static let namedEntities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ",
        "pound": "£", "euro": "€", "ndash": "–", "mdash": "—", "hellip": "…", "bull": "•",
        "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "copy": "©", "reg": "®",
        "eacute": "é", "egrave": "è", "agrave": "à", "aacute": "á", "ccedil": "ç", "middot": "·",
    ]

    /// Runs of white space (no-break spaces included) as one space, trimmed.
    static func collapse(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for s in text.unicodeScalars {
            if s.properties.isWhitespace || s == "\u{00A0}" {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace { out.append(" "); pendingSpace = false }
                out.append(s)
            }
        }
        return String(out)
    }
}

extension String {
    /// Without leading and trailing white space (Foundation-free, for small strings).
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
