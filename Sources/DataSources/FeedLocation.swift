import Foundation
import OnwardCore

/// Where a feed is read from: an http(s) URL, fetched through `HTTPFetching`, or a
/// local file (a path or a `file://` URL), read directly.
public enum FeedLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    case url(URL)
    case file(path: String)

    /// Parses what a user writes in configuration or on the command line:
    /// `http://…` and `https://…` are URLs, `file://…` and anything else a path.
    /// Returns nil for an empty string.
    public init?(_ text: String) {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        if let url = URL(string: text), let scheme = url.scheme?.lowercased() {
            if scheme == "http" || scheme == "https" { self = .url(url); return }
            if scheme == "file" { self = .file(path: url.path); return }
        }
        self = .file(path: text)
    }

    /// The form it was written in (a URL or a path); `init?(_:)` parses it back.
    public var description: String {
        switch self {
        case .url(let url): url.absoluteString
        case .file(let path): path
        }
    }

    // Encoded as the single string a person would write in a configuration file.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let location = FeedLocation(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "an empty feed location"))
        }
        self = location
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension FeedLocation {
    /// A name safe to show anywhere (health, metrics labels, logs, pages): the host and
    /// file name of a URL without its query (which may hold a key), or a file's name.
    public var safeName: String {
        switch self {
        case .url(let url):
            let file = url.lastPathComponent
            return (url.host ?? "feed") + (file.isEmpty || file == "/" ? "" : "/" + file)
        case .file(let path):
            return URL(fileURLWithPath: path).lastPathComponent
        }
    }
}

/// A realtime source as configured: `NAME=URL_OR_FILE` names it (and binds it to the
/// static feed of that name); without a name it is known by its location's safe name.
public struct NamedFeedLocation: Sendable, Hashable {
    public var name: String
    public var location: FeedLocation
    /// The name given before `=`, if any: the static feed this realtime feed belongs to.
    public var explicitName: String?

    public init?(_ text: String) {
        if let eq = text.firstIndex(of: "="), CanonicalID.isValidSourceName(String(text[..<eq])),
           let location = FeedLocation(String(text[text.index(after: eq)...])) {
            self.location = location
            explicitName = String(text[..<eq])
            name = explicitName! + "/" + location.safeName
            return
        }
        guard let location = FeedLocation(text) else { return nil }
        self.location = location
        name = location.safeName
    }
}
