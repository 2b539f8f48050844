import DataSources
import Foundation
import OnwardCore

/// Reads realtime data named on the command line: a local file, or an http(s) URL fetched once.
public enum RealtimeInput {
    public static func load(_ urlOrPath: String, fetcher: any HTTPFetching) async throws(SourceError) -> Data {
        if let url = URL(string: urlOrPath), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            let response = try await fetcher.fetch(HTTPRequest(url: url))
            guard (200..<300).contains(response.status) else {
                throw SourceError(.httpStatus, "\(urlOrPath) answered HTTP \(response.status)", status: response.status)
            }
            return response.body
        }
        let path = urlOrPath.hasPrefix("file://") ? String(urlOrPath.dropFirst(7)) : urlOrPath
        guard FileManager.default.fileExists(atPath: path) else { throw SourceError(.notFound, "no such file: \(path)") }
        do { return try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw SourceError(.unreadable, "cannot read \(path): \(error.localizedDescription)")
        }
    }
}
