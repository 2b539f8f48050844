import DataSources
import Foundation
import OnwardCore

/// The CLI's requests to an Onward server's API (`onward login`, `glance`), through the same
/// HTTP seam as every upstream source (`HTTPFetching`).
public enum ServerRequests {
    /// The server could not be reached, in words.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// A JSON request, with the bearer token when there is one; the answer's status and body.
    /// - Parameter method: GET, POST or DELETE.
    public static func send(_ method: String, _ url: String, body: Data? = nil, token: String? = nil,
                            fetcher: any HTTPFetching = Fetchers.live()) async throws(Failure) -> (status: Int, body: Data) {
        let server = url.components(separatedBy: "/api/").first ?? url
        guard let method = HTTPRequest.Method(rawValue: method.uppercased()), let target = URL(string: url) else {
            throw Failure(description: "cannot send \(method) \(url)")
        }
        var headers = ["Content-Type": "application/json"]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        do {
            let response = try await fetcher.fetch(HTTPRequest(method: method, url: target, headers: headers, body: body, timeout: .seconds(30)))
            return (response.status, response.body)
        } catch {
            // The fetcher's message names the server already ("fetching from … failed: …"): said once.
            throw Failure(description: error.message.contains(server) ? error.message : "cannot reach \(server): \(error.message)")
        }
    }
}
