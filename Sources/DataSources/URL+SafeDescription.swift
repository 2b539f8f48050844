import Foundation

extension URL {
    /// The URL as it may appear in a message or a log: `scheme://host[:port]` only.
    ///
    /// Upstreams put secrets in the query (`?key=…`), in the path (Telegram's
    /// `/bot<token>/`) and in the user info (`user:password@`), so everything but
    /// the scheme, the host and the port is left out, not filtered: a new upstream
    /// with a secret in a new place stays safe.
    public var safeDescription: String {
        let scheme = scheme?.lowercased() ?? "url"
        guard let host, !host.isEmpty else {
            // A file URL's path is the operator's own, but a message that mixes it
            // with upstream URLs is easier to reason about when nothing but a scheme shows.
            return scheme == "file" ? "a local file" : "a \(scheme) URL"
        }
        // An IPv6 literal needs its brackets back to read as a host.
        let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        if let port { return "\(scheme)://\(shownHost):\(port)" }
        return "\(scheme)://\(shownHost)"
    }

    /// The parts of this URL that may carry a secret, longest first, for
    /// `String.redacting(_:)` on text that might quote the URL (an upstream's
    /// error page, a platform error description).
    public var secretBearingParts: [String] {
        var parts: [String] = [absoluteString]
        let components = URLComponents(url: self, resolvingAgainstBaseURL: false)
        if let query = components?.percentEncodedQuery { parts.append(query) }
        if let query = components?.query { parts.append(query) }
        for item in components?.queryItems ?? [] {
            if let value = item.value { parts.append(value) }
        }
        if let user = components?.user { parts.append(user) }
        if let password = components?.password { parts.append(password) }
        // The whole path, and each segment that is not a plain word (a token looks
        // like `bot123:ABC…`, a key like a long hex string); short words such as
        // `v2` or `json` are left alone so messages stay readable.
        let path = components?.percentEncodedPath ?? ""
        if path.count > 1 { parts.append(path) }
        for segment in path.split(separator: "/") where segment.count >= 16 {
            parts.append(String(segment))
        }
        return parts
    }
}
