import Foundation

/// One object of a bus tracker answer (a `prd`, an `sb`, the response itself), read the
/// same way from JSON and XML, so each endpoint's fields are mapped once.
///
/// The two formats disagree in ways this hides: XML has only text, JSON mixes strings,
/// numbers and booleans (`"stpid": "4727"` beside `"dstp": 3365` and `"dly": false`); a
/// list is repeated elements in XML and an array (or, for one item, sometimes a bare
/// object) in JSON. Here every scalar is text and every field may repeat.
struct CTARecord: Sendable, Hashable {
    enum Value: Sendable, Hashable {
        case text(String)
        case record(CTARecord)
    }

    var fields: [String: [Value]] = [:]

    mutating func append(_ value: Value, for name: String) { fields[name, default: []].append(value) }

    /// The first text of `name`, trimmed; nil when absent or empty (XML's `<rtdir/>`, JSON's `""`).
    func text(_ name: String) -> String? {
        for case .text(let t) in fields[name] ?? [] {
            let trimmed = t.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        }
        return nil
    }

    /// The first of several names that has a text (v2 and v3 spell some fields differently).
    func text(_ names: String...) -> String? {
        for name in names { if let t = text(name) { return t } }
        return nil
    }

    /// Every text of `name`, trimmed, empty ones dropped (v2 XML's repeated `<dir>`).
    func texts(_ name: String) -> [String] {
        (fields[name] ?? []).compactMap {
            guard case .text(let t) = $0 else { return nil }
            let trimmed = t.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        }
    }

    /// The records under `name`; an empty XML element (`<srvc/>`) is none.
    func records(_ name: String) -> [CTARecord] {
        (fields[name] ?? []).compactMap { if case .record(let r) = $0 { r } else { nil } }
    }

    /// `true`/`false` however it was sent: a JSON boolean, "true", "1", "yes".
    func bool(_ name: String) -> Bool? {
        switch text(name)?.lowercased() {
        case "true", "1", "yes", "y", "t": true
        case "false", "0", "no", "n", "f": false
        default: nil
        }
    }

    func int(_ name: String) -> Int? {
        guard let t = text(name) else { return nil }
        if let i = Int(t) { return i }
        // A distance sent as "115.0".
        if let d = Double(t), d.isFinite, abs(d) < 1e15 { return Int(d.rounded()) }
        return nil
    }

    func double(_ name: String) -> Double? {
        guard let t = text(name), let d = Double(t), d.isFinite else { return nil }
        return d
    }
}
