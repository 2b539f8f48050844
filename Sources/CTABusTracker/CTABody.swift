import DataSources
import Foundation
import OnwardCore

/// Reading an answer's body, JSON or XML, down to the record inside `bustime-response`.
enum CTABody {
    /// The contents of `bustime-response`, whichever format the body is in (the adapter
    /// asks for JSON, but a proxy or an older deployment may answer XML).
    static func root(_ data: Data, operation: String) throws(SourceError) -> CTARecord {
        let bytes = [UInt8](data)
        var i = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
        guard i < bytes.count else { throw undecodable(operation, "the answer is empty") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try json(data, operation: operation)
        case UInt8(ascii: "<"): return try xml(bytes, operation: operation)
        default: throw undecodable(operation, "the answer is neither JSON nor XML")
        }
    }

    static func undecodable(_ operation: String, _ why: String) -> SourceError {
        SourceError(.undecodable, "cta \(operation): \(why)")
    }

    // MARK: JSON

    private static func json(_ data: Data, operation: String) throws(SourceError) -> CTARecord {
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            // The decoder's description may quote the body; the operation is enough to find it.
            throw undecodable(operation, "the answer is not valid JSON")
        }
        guard case .object(let top) = value, case .object(let response)? = top["bustime-response"] else {
            throw undecodable(operation, "the JSON answer has no bustime-response")
        }
        return record(response)
    }

    private static func record(_ object: [String: JSONValue]) -> CTARecord {
        var r = CTARecord()
        for (name, value) in object { append(value, as: name, to: &r) }
        return r
    }

    private static func append(_ value: JSONValue, as name: String, to r: inout CTARecord) {
        switch value {
        case .null: break
        case .string(let s): r.append(.text(s), for: name)
        case .bool(let b): r.append(.text(b ? "true" : "false"), for: name)
        case .integer(let i): r.append(.text(String(i)), for: name)
        case .number(let d): r.append(.text(String(d)), for: name)
        case .object(let o): r.append(.record(record(o)), for: name)
        case .array(let items): for item in items { append(item, as: name, to: &r) }
        }
    }

    // MARK: XML

    private static func xml(_ bytes: [UInt8], operation: String) throws(SourceError) -> CTARecord {
        let root: DataSources.XMLElement
        do {
            root = try XMLReader.parse(bytes)
        } catch {
            throw undecodable(operation, "the answer is not well-formed XML (\(error.description))")
        }
        guard root.name == "bustime-response" else {
            throw undecodable(operation, "the XML answer is not a bustime-response")
        }
        return record(root)
    }

    /// An element with children is a record; one without is text (`<rt>22</rt>`, or `<srvc/>`, empty).
    private static func record(_ element: DataSources.XMLElement) -> CTARecord {
        var r = CTARecord()
        for child in element.children {
            r.append(child.children.isEmpty ? .text(child.text) : .record(record(child)), for: child.name)
        }
        return r
    }
}
