import Foundation

/// Checks a JSON value against a JSON Schema from the OpenAPI document, for the
/// keywords the document uses: $ref, type, properties, required,
/// additionalProperties: false, items, enum. Returns the problems found, each
/// with the JSON path where it is.
struct SchemaValidator {
    let document: [String: Any]

    func validate(_ value: Any, against schema: [String: Any], at path: String = "$") -> [String] {
        if let ref = schema["$ref"] as? String { return validate(value, against: resolve(ref), at: path) }
        var problems: [String] = []
        if let type = schema["type"] as? String, !matches(value, type) {
            return ["\(path): expected \(type), found \(describe(value))"]
        }
        if let options = schema["enum"] as? [String], let s = value as? String, !options.contains(s) {
            problems.append("\(path): '\(s)' is not one of \(options)")
        }
        if let object = value as? [String: Any] {
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for key in schema["required"] as? [String] ?? [] where object[key] == nil {
                problems.append("\(path): missing required '\(key)'")
            }
            for (key, v) in object {
                if let sub = properties[key] as? [String: Any] {
                    problems += validate(v, against: sub, at: "\(path).\(key)")
                } else if schema["additionalProperties"] as? Bool == false {
                    problems.append("\(path): '\(key)' is not in the schema")
                }
            }
        }
        if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            for (i, v) in array.enumerated() { problems += validate(v, against: items, at: "\(path)[\(i)]") }
        }
        return problems
    }

    func resolve(_ ref: String) -> [String: Any] {
        var node: Any = document
        for part in ref.dropFirst(2).split(separator: "/") { node = (node as? [String: Any])?[String(part)] ?? [:] }
        return node as? [String: Any] ?? [:]
    }

    /// The schema of an operation's response body for a status.
    func responseSchema(path: String, method: String = "get", status: Int) -> [String: Any]? {
        let paths = document["paths"] as? [String: Any]
        let get = (paths?[path] as? [String: Any])?[method] as? [String: Any]
        let response = (get?["responses"] as? [String: Any])?[String(status)] as? [String: Any]
        // A documented answer without a body (204): an empty schema that nothing is checked against.
        if response != nil, response?["content"] == nil { return [:] }
        let content = response?["content"] as? [String: Any]
        let media = (content?["application/json"] ?? content?["application/problem+json"]) as? [String: Any]
        // An image (a profile's photo): documented, and not JSON to check.
        if media == nil, content?.keys.contains(where: { $0.hasPrefix("image/") }) == true { return [:] }
        return media?["schema"] as? [String: Any]
    }

    private func matches(_ value: Any, _ type: String) -> Bool {
        switch type {
        case "object": return value is [String: Any]
        case "array": return value is [Any]
        case "string": return value is String
        case "boolean": return (value as? NSNumber).map(isBool) ?? false
        case "integer": return (value as? NSNumber).map { !isBool($0) && $0.doubleValue.rounded() == $0.doubleValue } ?? false
        case "number": return (value as? NSNumber).map { !isBool($0) } ?? false
        default: return true
        }
    }

    /// JSONSerialization gives booleans as NSNumbers of type "c" (char); numbers are other types.
    private func isBool(_ n: NSNumber) -> Bool { String(cString: n.objCType) == "c" }

    private func describe(_ value: Any) -> String {
        switch value {
        case is [String: Any]: "an object"
        case is [Any]: "an array"
        case is String: "a string"
        case let n as NSNumber: isBool(n) ? "a boolean" : "a number"
        default: "\(type(of: value))"
        }
    }
}
