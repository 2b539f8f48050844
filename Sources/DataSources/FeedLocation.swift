import Foundation

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
