/// One element of an XML document, as `XMLReader` builds it: a small tree of
/// values, so it is `Sendable` and can be read from any thread.
///
/// Names are local names: `lt4:std` is `std`, with `prefix` "lt4". Upstream
/// schemas change their namespaces every few years (Darwin: 2012 to 2021), and
/// some recordings have them stripped, so adapters match by local name.
public struct XMLElement: Sendable, Hashable {
    public var name: String
    public var prefix: String?
    /// Attribute names as written, prefixes included (`xmlns:lt4`, `type`).
    public var attributes: [String: String]
    public var children: [XMLElement]
    /// The element's own character data (not its children's), entities decoded, CDATA included.
    public var text: String

    public init(name: String, prefix: String? = nil, attributes: [String: String] = [:], children: [XMLElement] = [],
                text: String = "") {
        self.name = name; self.prefix = prefix; self.attributes = attributes; self.children = children; self.text = text
    }

    /// `text` without leading and trailing white space.
    public var trimmedText: String {
        let utf8 = text.utf8
        guard let first = utf8.firstIndex(where: { !XMLElement.isSpace($0) }),
              let last = utf8.lastIndex(where: { !XMLElement.isSpace($0) }) else { return "" }
        return String(text[first...last])
    }

    /// The first direct child with this local name.
    public func child(_ name: String) -> XMLElement? { children.first { $0.name == name } }

    /// The direct children with this local name, in document order.
    public func children(_ name: String) -> [XMLElement] { children.filter { $0.name == name } }

    /// The first element with this local name below this one, depth first.
    public func descendant(_ name: String) -> XMLElement? {
        for c in children {
            if c.name == name { return c }
            if let d = c.descendant(name) { return d }
        }
        return nil
    }

    /// Every element with this local name below this one, in document order
    /// (not looking inside a match).
    public func descendants(_ name: String) -> [XMLElement] {
        var result: [XMLElement] = []
        collect(name, into: &result)
        return result
    }

    private func collect(_ name: String, into result: inout [XMLElement]) {
        for c in children {
            if c.name == name { result.append(c) } else { c.collect(name, into: &result) }
        }
    }

    /// The trimmed text of the first direct child with this name, nil when absent or empty.
    public func childText(_ name: String) -> String? {
        guard let t = child(name)?.trimmedText, !t.isEmpty else { return nil }
        return t
    }

    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
}

/// Why a document could not be read, and where.
public struct XMLError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var line: Int
    public var column: Int

    public var description: String { "line \(line), column \(column): \(message)" }
}
