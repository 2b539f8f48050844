import Foundation

/// A small XML reader written for upstream answers (SOAP from Darwin, the bus
/// tracker's XML): bytes in, an `XMLElement` tree out.
///
/// Why our own: Foundation's `XMLParser` on Linux is not reentrant and libxml2's
/// global state is not thread-safe, so parsing answers for concurrent requests
/// needs either a global lock or a parser with no shared state. This one is pure
/// Swift over a byte buffer, so any number of threads may parse at once. It reads
/// well-formed XML 1.0: elements, attributes, character and entity references,
/// CDATA, comments and processing instructions; it skips a DOCTYPE without
/// reading its internal subset (no external entities: nothing is ever fetched).
public enum XMLReader {
    public static func parse(_ data: Data) throws(XMLError) -> XMLElement {
        try parse([UInt8](data))
    }

    public static func parse(_ bytes: [UInt8]) throws(XMLError) -> XMLElement {
        var parser = Parser(bytes: bytes)
        return try parser.document()
    }
}

private struct Parser {
    let bytes: [UInt8]
    var i = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte order mark.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
    }

    func error(_ message: String, at position: Int? = nil) -> XMLError {
        let end = min(position ?? i, bytes.count)
        var line = 1, column = 1
        for k in 0..<end {
            if bytes[k] == 0x0A { line += 1; column = 1 } else { column += 1 }
        }
        return XMLError(message: message, line: line, column: column)
    }

    mutating func document() throws(XMLError) -> XMLElement {
        try skipMisc()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "<") else {
            throw error(i >= bytes.count ? "the document is empty" : "expected an element")
        }
        let root = try element()
        try skipMisc()
        guard i >= bytes.count else { throw error("content after the root element") }
        return root
    }

    /// Skips white space, comments, processing instructions and a DOCTYPE.
    mutating func skipMisc() throws(XMLError) {
        while i < bytes.count {
            if XMLElement.isSpace(bytes[i]) { i += 1; continue }
            if starts("<?") { try skip(past: "?>"); continue }
            if starts("<!--") { try skip(past: "-->"); continue }
            if starts("<!DOCTYPE") { try skipDoctype(); continue }
            return
        }
    }

    func starts(_ s: StaticString) -> Bool {
        let n = s.utf8CodeUnitCount
        guard i + n <= bytes.count else { return false }
        let p = s.utf8Start
        for k in 0..<n where bytes[i + k] != p[k] { return false }
        return true
    }

    mutating func skip(past s: StaticString) throws(XMLError) {
        let start = i
        while i < bytes.count {
            if starts(s) { i += s.utf8CodeUnitCount; return }
            i += 1
        }
        throw error("unterminated construct (expected \(s))", at: start)
    }

    mutating func skipDoctype() throws(XMLError) {
        let start = i
        var depth = 0
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ">") where depth <= 0: i += 1; return
            default: break
            }
            i += 1
        }
        throw error("unterminated DOCTYPE", at: start)
    }

    static func isNameByte(_ c: UInt8) -> Bool {
        !(XMLElement.isSpace(c) || c == UInt8(ascii: ">") || c == UInt8(ascii: "/") || c == UInt8(ascii: "=")
          || c == UInt8(ascii: "<") || c == UInt8(ascii: "\"") || c == UInt8(ascii: "'"))
    }

    mutating func name() throws(XMLError) -> (full: String, local: String, prefix: String?) {
        let start = i
        var colon = -1
        while i < bytes.count, Parser.isNameByte(bytes[i]) {
            if bytes[i] == UInt8(ascii: ":") && colon < 0 { colon = i }
            i += 1
        }
        guard i > start else { throw error("expected a name") }
        let full = String(decoding: bytes[start..<i], as: UTF8.self)
        if colon >= 0 {
            return (full, String(decoding: bytes[(colon + 1)..<i], as: UTF8.self), String(decoding: bytes[start..<colon], as: UTF8.self))
        }
        return (full, full, nil)
    }

    mutating func skipSpace() { while i < bytes.count, XMLElement.isSpace(bytes[i]) { i += 1 } }

    /// Reads an element starting at `<`, with its content and end tag. Iterative over
    /// depth (an explicit stack), so a deeply nested document cannot overflow the call stack.
    mutating func element() throws(XMLError) -> XMLElement {
        var stack: [(element: XMLElement, fullName: String, text: [UInt8])] = []
        let (first, firstFull, closedAtOnce) = try startTag()
        if closedAtOnce { return first }
        stack.append((first, firstFull, []))
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "<") {
                if starts("</") {
                    let tagStart = i
                    i += 2
                    let (full, _, _) = try name()
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ">") else { throw error("expected > to end </\(full)") }
                    i += 1
                    var top = stack.removeLast()
                    guard full == top.fullName else {
                        throw error("</\(full)> does not close <\(top.fullName)>", at: tagStart)
                    }
                    top.element.text = String(decoding: top.text, as: UTF8.self)
                    if stack.isEmpty { return top.element }
                    stack[stack.count - 1].element.children.append(top.element)
                } else if starts("<!--") {
                    try skip(past: "-->")
                } else if starts("<![CDATA[") {
                    i += 9
                    let start = i
                    try skip(past: "]]>")
                    stack[stack.count - 1].text.append(contentsOf: bytes[start..<(i - 3)])
                } else if starts("<?") {
                    try skip(past: "?>")
                } else {
                    let (child, full, closed) = try startTag()
                    if closed {
                        stack[stack.count - 1].element.children.append(child)
                    } else {
                        stack.append((child, full, []))
                    }
                }
            } else if bytes[i] == UInt8(ascii: "&") {
                try reference(into: &stack[stack.count - 1].text)
            } else {
                let start = i
                while i < bytes.count, bytes[i] != UInt8(ascii: "<"), bytes[i] != UInt8(ascii: "&") { i += 1 }
                stack[stack.count - 1].text.append(contentsOf: bytes[start..<i])
            }
        }
        throw error("the document ends inside <\(stack.last?.fullName ?? "?")>")
    }

    /// Reads `<name attr="v" …>` or `<name …/>`.
    mutating func startTag() throws(XMLError) -> (XMLElement, String, Bool) {
        i += 1
        let (full, local, prefix) = try name()
        var attributes: [String: String] = [:]
        while true {
            skipSpace()
            guard i < bytes.count else { throw error("the document ends inside <\(full)") }
            if bytes[i] == UInt8(ascii: ">") { i += 1; return (XMLElement(name: local, prefix: prefix, attributes: attributes), full, false) }
            if starts("/>") { i += 2; return (XMLElement(name: local, prefix: prefix, attributes: attributes), full, true) }
            let (attr, _, _) = try name()
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else { throw error("expected = after attribute \(attr)") }
            i += 1
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else {
                throw error("expected a quoted value for attribute \(attr)")
            }
            let quote = bytes[i]
            i += 1
            var value: [UInt8] = []
            while i < bytes.count, bytes[i] != quote {
                if bytes[i] == UInt8(ascii: "&") { try reference(into: &value) } else if bytes[i] == UInt8(ascii: "<") {
                    throw error("< inside the value of attribute \(attr)")
                } else { value.append(bytes[i]); i += 1 }
            }
            guard i < bytes.count else { throw error("unterminated value of attribute \(attr)") }
            i += 1
            attributes[attr] = String(decoding: value, as: UTF8.self)
        }
    }

    /// Decodes `&name;` or `&#N;` / `&#xN;` at `i`.
    mutating func reference(into out: inout [UInt8]) throws(XMLError) {
        let start = i
        i += 1
        var end = i
        while end < bytes.count, end - i < 12, bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else { throw error("an & that starts no reference", at: start) }
        let body = bytes[i..<end]
        i = end + 1
        switch String(decoding: body, as: UTF8.self) {
        case "lt": out.append(UInt8(ascii: "<"))
        case "gt": out.append(UInt8(ascii: ">"))
        case "amp": out.append(UInt8(ascii: "&"))
        case "quot": out.append(UInt8(ascii: "\""))
        case "apos": out.append(UInt8(ascii: "'"))
        case let s where s.hasPrefix("#"):
            let digits = s.dropFirst()
            let value = digits.hasPrefix("x") || digits.hasPrefix("X") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            guard let v = value, let scalar = Unicode.Scalar(v) else { throw error("an invalid character reference &\(s);", at: start) }
            out.append(contentsOf: Array(String(Character(scalar)).utf8))
        case let s:
            throw error("an unknown entity &\(s);", at: start)
        }
    }
}
