import Configuration
import Foundation

/// `onward.json` as swift-configuration reads it: its own `JSONSnapshot` for the values (secrets
/// marked), behind Onward's rules for the file, which that snapshot does not have: one JSON object,
/// no key Onward does not know (a misspelt key is an error, not a silent default), lists (of strings)
/// only where a list is meant, and a syntax error said with its line and column. As a `FileConfigSnapshot` it serves
/// `FileProvider` today and `ReloadingFileProvider` unchanged, so a reloaded file obeys the same rules.
struct ConfigFile: FileConfigSnapshot {
    struct ParsingOptions: FileParsingOptions {
        /// The file's path, for messages (the provider hands a snapshot only the bytes).
        var path: String
        static var `default`: ParsingOptions { ParsingOptions(path: "onward.json") }
    }

    private let values: JSONSnapshot
    /// Each top-level value as written (a string without its quotes), to repeat a bad one in a message.
    let written: [String: String]

    init(data: RawSpan, providerName: String, parsingOptions: ParsingOptions) throws {
        let path = parsingOptions.path
        let bytes = data.withUnsafeBytes { Data($0) }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: bytes)
        } catch {
            throw ServeConfiguration.Problem(description: "\(path): not valid JSON at \(jsonErrorPlace(error, in: bytes))")
        }
        guard let object = object as? [String: Any] else {
            throw ServeConfiguration.Problem(description: "\(path): the config file must hold one JSON object")
        }
        let keys = ServeConfiguration.Key.self
        if let unknown = object.keys.sorted().first(where: { keys.init(rawValue: $0) == nil }) {
            throw ServeConfiguration.Problem(description: "\(path): unknown setting '\(unknown)'; known: \(keys.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var written: [String: String] = [:]
        for (name, value) in object.sorted(by: { $0.key < $1.key }) {
            let list = keys.init(rawValue: name)?.isList ?? false
            if list, value is [String: Any] || (value as? [Any]).map({ !$0.allSatisfy { $0 is String } }) == true {
                throw ServeConfiguration.Problem(description: "\(path): \(name) must be a list of strings")
            }
            if !list, value is [Any] || value is [String: Any] {
                throw ServeConfiguration.Problem(description: "\(path): \(name) must be one value, not \(value is [Any] ? "a list" : "an object")")
            }
            written[name] = value as? String ?? "\(value)"
        }
        self.written = written
        // The library's parser reads the same bytes; after the checks above it has nothing left to refuse.
        let secrets = Set(keys.allCases.filter(\.isSecret).map(\.rawValue))
        do {
            values = try JSONSnapshot(data: data, providerName: providerName,
                                      parsingOptions: .init(secretsSpecifier: .specific(secrets)))
        } catch {
            throw ServeConfiguration.Problem(description: "\(path): \(error)")
        }
    }

    var providerName: String { values.providerName }

    func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        try values.value(forKey: key, type: type)
    }

    var description: String { values.description }
    /// The values, secrets shown as `<REDACTED>` by `JSONSnapshot`.
    var debugDescription: String { values.debugDescription }
}
